"""The output folder holds exactly what the last build wrote (issue 11): a renamed card id leaves
no old PNG, a file the user put there survives, steps that did not run keep their files."""
from __future__ import annotations

import json

from cardgen.api import build_game
from cardgen.core.written import MANIFEST, record_and_prune
from cardgen.steps.exports import ExportOptions
from tests.conftest import needs_fonts, replace_in


@needs_fonts
def test_renamed_card_id_leaves_no_old_png_and_user_files_survive(mini, tmp_path):
    """The small game of tests/minigame.py (4 cards × 3 copies, one back), not 天雀牌: pruning
    goes by the file names the last build recorded, the same for any game and any number of
    cards, and each step here (sheets, png, tts, shop) writes its files for this deck as for a
    big one; 天雀牌's 97 faces made the two builds ≈ 5 s of CPU, this deck's ≈ 1 s."""
    out = tmp_path / "out"
    steps = ("sheets", "png", "tts", "shop")
    first = build_game(mini, out, steps=steps, exports=ExportOptions(jobs=1))
    game_out = first.out_dir
    old = sorted(p.name for p in (game_out / "cards").glob("*-n1.png"))
    assert len(old) == 3, "the card n1 has a PNG per copy"
    assert {"tts", "shop"} <= {p.name for p in game_out.iterdir() if p.is_dir()}
    (game_out / "my-notes.txt").write_text("mine", encoding="utf-8")
    (game_out / "cards" / "my-art.png").write_bytes(b"not cardgen's")
    replace_in(mini / "cards.csv", "n1,", "n1x,")
    second = build_game(mini, out, steps=steps, exports=ExportOptions(jobs=1))
    names = {p.name for p in (game_out / "cards").glob("*.png")}
    assert not any(n.endswith("-n1.png") for n in names)
    assert any(n.endswith("-n1x.png") for n in names)
    assert set(old) <= set(second.removed and [r.split("/")[-1] for r in second.removed])
    assert (game_out / "my-notes.txt").read_text(encoding="utf-8") == "mine"
    assert (game_out / "cards" / "my-art.png").read_bytes() == b"not cardgen's"
    # every file in the folder is either written by this build or the user's
    written = {p.relative_to(game_out).as_posix() for p in second.files}
    present = {p.relative_to(game_out).as_posix() for p in game_out.rglob("*") if p.is_file()}
    assert present == written | {MANIFEST, "my-notes.txt", "cards/my-art.png"}


@needs_fonts
def test_a_step_that_did_not_run_keeps_its_files(game_copy, tmp_path):
    out = tmp_path / "out"
    build_game(game_copy, out, steps=("sheets",))
    # 72 dpi: the step's record is the same at any resolution (300 dpi: ≈ 1 s more of PNG encoding)
    res = build_game(game_copy, out, steps=("png",), exports=ExportOptions(jobs=1, dpi=72))
    assert (res.out_dir / "print-sheets.pdf").is_file() and res.removed == []
    steps = json.loads((res.out_dir / MANIFEST).read_text(encoding="utf-8"))["steps"]
    assert steps["sheets"] == ["print-sheets.pdf"] and len(steps["png"]) == 97


@needs_fonts
def test_one_sided_file_goes_when_no_longer_asked_for(tmp_path):
    from tests.pdfread import CARD_DATA
    from cardgen.steps.sheets import SheetOptions

    out = tmp_path / "out"
    build_game(CARD_DATA / "nko_mahjong", out, SheetOptions(one_sided="separate"), steps=("sheets",))
    res = build_game(CARD_DATA / "nko_mahjong", out, steps=("sheets",))
    assert res.removed == ["print-sheets-one-sided.pdf"]
    assert not (res.out_dir / "print-sheets-one-sided.pdf").exists()


def test_manifest_never_reaches_outside_the_folder(tmp_path):
    """A tampered manifest naming ../ or absolute paths removes nothing outside; a symlink is left."""
    outside = tmp_path / "precious.txt"
    outside.write_text("keep", encoding="utf-8")
    game_out = tmp_path / "out" / "g"
    game_out.mkdir(parents=True)
    (game_out / "link.png").symlink_to(outside)
    (game_out / MANIFEST).write_text(json.dumps({"version": 1, "steps": {"png": [
        "../../precious.txt", str(outside), "link.png", "cards/gone.png"]}}), encoding="utf-8")
    assert record_and_prune(game_out, {"png": []}) == []
    assert outside.read_text(encoding="utf-8") == "keep" and (game_out / "link.png").is_symlink()


@needs_fonts
def test_a_plain_build_keeps_the_booklet_and_back_pngs_an_earlier_command_asked_for(tmp_path):
    """Issue 31: `cardgen watch` (a plain build) removed rulebook-booklet.pdf and every back PNG
    written on purpose before ('49 removed'). Files an option adds are their own kind, pruned only
    by a run that asks for them again — which still removes a back PNG whose card is gone."""
    from tests.minigame import write_game

    game = write_game(tmp_path)
    out = tmp_path / "out"
    first = build_game(game, out, steps=("rulebook", "png"), rulebook_booklet=True,
                       exports=ExportOptions(jobs=1, png_sides="both"))
    backs = sorted(p.name for p in (first.out_dir / "cards").glob("*-back.png"))
    assert len(backs) == 12 and (first.out_dir / "rulebook-booklet.pdf").is_file()
    plain = build_game(game, out, steps=("rulebook", "png"), exports=ExportOptions(jobs=1))
    assert plain.removed == []
    assert (plain.out_dir / "rulebook-booklet.pdf").is_file()
    assert sorted(p.name for p in (plain.out_dir / "cards").glob("*-back.png")) == backs
    replace_in(game / "cards.csv", "n4,4,カード4,3", "n4x,4,カード4,3")
    again = build_game(game, out, steps=("png",), exports=ExportOptions(jobs=1, png_sides="both"))
    assert sorted(r for r in again.removed if r.endswith("-back.png")) == [
        f"cards/{n}" for n in backs if "-n4-" in n]
    assert (again.out_dir / "rulebook-booklet.pdf").is_file()
