"""cardgen serve in a real browser: Debian's headless chromium driven through its chromedriver
(``make test`` installs both, see the Makefile). A copy of 天雀牌 in tmp_path is served; the test
edits its files on disk and watches the page follow."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from tests.browser import available, chromium, serving

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not available(), reason="needs /usr/bin/chromium and /usr/bin/chromedriver (make browser)")


def _edit(path: Path, card_id: str, **values) -> None:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        if r["id"] == card_id:
            r.update(values)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def test_page_follows_saves(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    game = shutil.copytree(ROOT / "card_data" / "tenjanpai", tmp_path / "tenjanpai")
    with serving(game) as (url, _started), chromium() as driver:
        wait = WebDriverWait(driver, 60, poll_frequency=0.1)
        driver.get(url)

        def loaded(img_id):
            return driver.execute_script(
                "const i = document.getElementById(arguments[0]); return i && i.complete && i.naturalWidth > 0 "
                "? i.dataset.key : null", img_id)

        def four_players():
            return driver.find_element(By.CSS_SELECTOR, "#deck-math tr[data-players='4']").text.split()

        front = "img-battle-b3-none-front"
        old_key = wait.until(lambda d: loaded(front))
        assert four_players()[:7] == ["4", "42", "0", "3", "6", "24", "6"] and four_players()[-1] == "ok"
        other = loaded("img-battle-b3-pon-front")
        assert other and driver.find_element(By.ID, "card-battle-b3-none").text == "b3-none ×2"

        # one cell: the number of b3-none → its face is drawn again, no other card's
        _edit(game / "battle.csv", "b3-none", number="4")
        new_key = wait.until(lambda d: (k := loaded(front)) != old_key and k)
        assert loaded("img-battle-b3-pon-front") == other
        png = driver.execute_script("const c = document.createElement('canvas'), i = document.getElementById(arguments[0]);"
                                    "c.width = i.naturalWidth; c.height = i.naturalHeight;"
                                    "c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL().length", front)
        assert new_key != old_key and png > 1000

        # one cell: a count → the deck math changes (43 cards do not split evenly among 4)
        _edit(game / "battle.csv", "b7-both", count="6")
        wait.until(lambda d: four_players()[1] == "43")
        assert four_players()[-1] == "MISMATCH"
        assert driver.find_element(By.CSS_SELECTOR, "#deck-math tr[data-players='4']").get_attribute("class") == "bad"

        # an overflow: the problem links to the card and its box
        _edit(game / "characters.csv", "c1-2", skill_text="他プレイヤー1人から:power:を1個奪う。" * 12)
        link = wait.until(lambda d: next(iter(d.find_elements(
            By.CSS_SELECTOR, "#problems a.card-link[data-card='c1-2'][data-field='skill_text']")), None))
        li = link.find_element(By.XPATH, "..")
        assert "does not fit" in li.text or "overflow" in li.text, li.text
        assert "flagged" in driver.find_element(By.ID, "card-characters-c1-2").get_attribute("class")
        link.click()
        wait.until(lambda d: d.find_element(By.ID, "large").is_displayed())
        box = driver.find_element(By.CSS_SELECTOR, "#large-frame .box[data-name='skill_text']")
        assert "text-overflow" in box.get_attribute("class") and "target" in box.get_attribute("class")
        assert driver.find_element(By.ID, "large").get_attribute("data-card") == "c1-2"
        assert box.size["width"] > 100  # drawn over the large image, not a dot

        # fixed: the problem clears, the box is no longer marked
        _edit(game / "characters.csv", "c1-2", skill_text="他プレイヤー1人から:power:を1個奪う。")
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#problems a.card-link[data-card='c1-2']"))
        box = driver.find_element(By.CSS_SELECTOR, "#large-frame .box[data-name='skill_text']")
        assert "text-overflow" not in box.get_attribute("class")
        assert "flagged" not in driver.find_element(By.ID, "card-characters-c1-2").get_attribute("class")

        # the rulebook and print-sheet pages arrived as images
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rulebook-pages img")) > 3)
        assert driver.find_elements(By.CSS_SELECTOR, "#sheet-pages img")
