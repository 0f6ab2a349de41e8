"""cardgen serve in a real browser: Debian's headless chromium driven through its chromedriver
(``make test`` installs both, see the Makefile). A copy of 天雀牌 in tmp_path is served; the test
edits its files on disk and watches the page follow."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser import available, chromium, serving
from tests.card_rows import edit_row

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not available(), reason="needs /usr/bin/chromium and /usr/bin/chromedriver (make browser)")


def test_page_follows_saves(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    game = shutil.copytree(ROOT / "card_data" / "tenjanpai", tmp_path / "tenjanpai")
    with serving(game) as (url, _started, _pid), chromium() as driver:
        from selenium.common.exceptions import StaleElementReferenceException

        # the page redraws its lists on every update: read them in one script, and retry a read
        # that met an element just replaced
        wait = WebDriverWait(driver, 60, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
        driver.get(url)

        def loaded(img_id):
            return driver.execute_script(
                "const i = document.getElementById(arguments[0]); return i && i.complete && i.naturalWidth > 0 "
                "? i.dataset.key : null", img_id)

        def four_players():
            return driver.execute_script("const r = document.querySelector(\"#deck-math tr[data-players='4']\");"
                                         "return r ? [r.className, ...[...r.cells].map(c => c.textContent)] : [];")

        front = "img-battle-b3-none-front"
        old_key = wait.until(lambda d: loaded(front))
        assert four_players() == ["ok", "4", "42", "0", "3", "6", "24", "6", "6", "ok"]
        other = loaded("img-battle-b3-pon-front")
        assert other and driver.find_element(By.ID, "card-battle-b3-none").text == "b3-none ×2"

        # one cell: the number of b3-none → its face is drawn again, no other card's
        edit_row(game / "battle.csv", "b3-none", number="4")
        new_key = wait.until(lambda d: (k := loaded(front)) != old_key and k)
        assert loaded("img-battle-b3-pon-front") == other
        png = driver.execute_script("const c = document.createElement('canvas'), i = document.getElementById(arguments[0]);"
                                    "c.width = i.naturalWidth; c.height = i.naturalHeight;"
                                    "c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL().length", front)
        assert new_key != old_key and png > 1000

        # one cell: a count → the deck math changes (43 cards do not split evenly among 4)
        edit_row(game / "battle.csv", "b7-both", count="6")
        wait.until(lambda d: four_players()[2:3] == ["43"])
        assert four_players()[0] == "bad" and four_players()[-1] == "MISMATCH"

        # an overflow: the problem links to the card and its box
        edit_row(game / "characters.csv", "c1-2", skill_text="他プレイヤー1人から:power:を1個奪う。" * 12)
        link = "#problems a.card-link[data-card='c1-2'][data-field='skill_text']"
        text = wait.until(lambda d: d.execute_script("const a = document.querySelector(arguments[0]);"
                                                     "return a && a.parentElement.textContent", link))
        assert "does not fit" in text and "c1-2" in text, text
        assert "flagged" in driver.find_element(By.ID, "card-characters-c1-2").get_attribute("class")
        driver.execute_script("document.querySelector(arguments[0]).click()", link)
        wait.until(lambda d: d.find_element(By.ID, "large").is_displayed())
        box = driver.execute_script("const b = document.querySelector(\"#large-frame .box[data-name='skill_text']\");"
                                    "return [b.className, b.getBoundingClientRect().width,"
                                    " document.getElementById('large').dataset.card]")
        assert "text-overflow" in box[0] and "target" in box[0], box
        assert box[2] == "c1-2"
        assert box[1] > 100  # drawn over the large image, not a dot

        # fixed: the problem clears, the box is no longer marked
        edit_row(game / "characters.csv", "c1-2", skill_text="他プレイヤー1人から:power:を1個奪う。")
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#problems a.card-link[data-card='c1-2']"))
        wait.until(lambda d: "text-overflow" not in d.find_element(
            By.CSS_SELECTOR, "#large-frame .box[data-name='skill_text']").get_attribute("class"))
        assert "flagged" not in driver.find_element(By.ID, "card-characters-c1-2").get_attribute("class")

        # the rulebook and print-sheet pages arrived as images
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rulebook-pages img")) > 3)
        assert driver.find_elements(By.CSS_SELECTOR, "#sheet-pages img")
