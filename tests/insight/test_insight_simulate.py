"""The playtest simulator (cardgen simulate) against the rules, the exact odds, and itself.

The stacked deal below was worked through by hand from card_data/tenjanpai/rules/02_play.md and
the greedy policy of cardgen/insight/games/tenjanpai.py; the test checks every event of the round.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from cardgen.insight import sim_layout as L
from cardgen.insight.odds import compute_odds
from cardgen.insight.simulate import Variant, prepare, simulate, trace_round
from cardgen.data.game import load_game

ROOT = Path(__file__).resolve().parents[2]
TEN = ROOT / "card_data" / "tenjanpai"

# Seats' hands (3 each), then the dead wall (6), then the draws in turn order (seat 0, 1, 2, 3, 0 …).
HANDS = [["b3-none", "b2-chi", "b5-pon"], ["b4-chi", "b6-pon", "b2-chi"],
         ["b4-pon", "b3-chi", "b7-both"], ["b6-chi", "b4-both", "b3-none"]]
DRAWS = ["b4-pon", "b3-pon", "b2-chi", "b4-both", "b7-both", "b5-pon", "b4-pon", "b2-chi", "b6-pon",
         "b7-pon", "b2-chi"]


def stacked(deck):
    """A deck order (card indexes) with HANDS and DRAWS in place; the rest in table order.
    Returns (order, name of each card index as 'row-id#copy')."""
    names, free = [], {}
    for k in deck.kinds:
        for c in range(k.copies):
            free.setdefault(k.values["id"], []).append(len(names))
            names.append(f"{k.values['id']}#{c}")
    take = lambda rid: free[rid].pop(0)  # noqa: E731
    hands = [take(r) for h in HANDS for r in h]
    draws = [take(r) for r in DRAWS]
    rest = [i for ids in free.values() for i in ids]
    order = hands + rest[:deck.dead_wall] + draws + rest[deck.dead_wall:]
    assert sorted(order) == list(range(deck.size))
    return np.array(order), names


@pytest.fixture(scope="module")
def four():
    setup = prepare(TEN)
    return setup, next(d for d in setup.decks if d.players == 4)


def readable(events, names):
    out = []
    for t, seat, ev, a, b, c in events:
        if ev in ("draw", "discard", "tsumo", "ron", "pon", "chi"):
            a = names[a]
        out.append((t, seat, ev, a, b, c))
    return out


def test_a_stacked_round_step_by_step(four):
    """Greedy play of a known deal: power, a free chi by a 2, pon ties, a pon from the leader, ron."""
    setup, deck = four
    order, names = stacked(deck)
    row, events = trace_round(setup, deck, order, "greedy")
    ev = [e for e in readable(events, names) if e[2] != "draw"]
    assert ev == [
        (0, 0, "discard", "b5-pon#0", 5, 1),       # highest gain; pon icon but no power
        (1, 1, "discard", "b6-pon#0", 6, 1),
        (2, 2, "discard", "b7-both#0", 7, 1),
        (3, 3, "discard", "b6-chi#0", 6, 1),       # keeps the pair of 4s
        (4, 0, "discard", "b7-both#1", 7, 1),
        (4, 0, "power", 1, 7, 5),                  # 7 beats the rightmost 5
        (5, 1, "discard", "b5-pon#1", 5, 1),       # pon costs 1, power 0: not affordable
        (6, 2, "discard", "b3-chi#0", 3, 1),       # keeps the pair of 4s; 3 beats 2
        (7, 3, "discard", "b2-chi#3", 2, 1),       # 2 + a free chi of the 3 (5) beats the 3 (3)
        (7, 3, "chi", "b3-chi#0", 2, 0),           # taken from seat 2's river, cost 0
        (8, 0, "discard", "b6-pon#1", 6, 1),       # 6 + pon of a 6 (12)
        (8, 0, "pon", "b6-pon#0", 1, 1),           # seats 1 and 3 both at 11: the first in turn order
        (9, 1, "discard", "b7-pon#0", 7, 1),
        (9, 1, "power", 1, 7, 5),                  # seat 1's 6 was taken: its rightmost is the 5
        (9, 1, "pon", "b7-both#1", 0, 1),          # the 7 of the leader (seat 0, 24) over seat 2's (7)
        (10, 2, "discard", "b4-pon#0", 4, 1),      # every card in a pair: the highest gain, first in hand
        (10, 3, "ron", "b4-pon#0", 4, 4),          # seat 3 holds two 4s: 4 points + 0 power
    ]
    assert row[L.COL_KIND] == L.END_RON and row[L.COL_TURN] == 11
    assert (row[L.COL_WINNER], row[L.COL_LOSER], row[L.COL_POINTS]) == (3, 2, 4)
    assert row[L.COL_CHI_AFF] == 1 and row[L.COL_CHI_USED] == 1
    assert row[L.COL_PON_AFF] == 2 and row[L.COL_PON_USED] == 2
    assert row[L.COL_UP + 7] == 3 and row[L.COL_UP + 2] == 1 and row[L.COL_DOWN:L.COL_DOWN + 16].sum() == 0
    assert row[L.COL_UPMASK + 3] == (1 << 6) | (1 << 2)
    assert row[L.COL_DEALT_PAIRS] == 0  # no dealt hand above holds a pair


def test_the_same_deal_with_a_lower_threshold_ends_in_tsumo():
    """design.tsumo_threshold is data: at 9, seat 0 (聴牌速度 12 after two turns) declares tsumo on
    its third draw with its highest 和了牌 (the 6: not in its river) for 6 + 1 power = 7 points."""
    setup = prepare(TEN, Variant(design={"tsumo_threshold": 9}))
    deck = next(d for d in setup.decks if d.players == 4)
    order, names = stacked(deck)
    row, events = trace_round(setup, deck, order, "greedy")
    last = readable(events, names)[-1]
    assert last == (8, 0, "tsumo", "b6-pon#1", 6, 7)
    assert (row[L.COL_KIND], row[L.COL_TURN], row[L.COL_WINNER], row[L.COL_POINTS]) == (L.END_TSUMO, 9, 0, 7)


def test_dealt_pair_frequency_agrees_with_the_exact_odds():
    setup = prepare(TEN)
    exact = {c.players: c.lines[0].p for c in compute_odds(load_game(TEN))[0].counts}
    result = simulate(setup, 40_000, seed=7, policy="random")
    for c in result.counts:
        value, se, n = c.metric("dealt.pair").value()
        assert n == 40_000 * c.players
        assert abs(value - exact[c.players]) < 3 * se, (c.players, value, exact[c.players], se)
        assert 0.001 < se < 0.01


def test_results_depend_on_seed_and_rounds_only_not_on_threads():
    import numba

    setup = prepare(TEN)
    deck = next(d for d in setup.decks if d.players == 4)
    from cardgen.insight.simulate import play
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play(setup, deck, 3000, 11, "random")
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = play(setup, deck, 3000, 11, "random")
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)
    assert not np.array_equal(one, play(setup, deck, 3000, 12, "random"))
    # the first rounds of a longer run are the same rounds
    assert np.array_equal(play(setup, deck, 1000, 11, "random"), one[:1000])


def test_editing_the_card_table_changes_the_simulation(tmp_path):
    """No code change: a copy whose 2s carry a pon costing 1 and no chi plays differently."""
    game = tmp_path / "tenjanpai"
    shutil.copytree(TEN, game)
    csv = (game / "battle.csv").read_text(encoding="utf-8").replace("b2-chi,2,0,1,0,8", "b2-chi,2,1,0,1,8")
    (game / "battle.csv").write_text(csv, encoding="utf-8")
    a = simulate(prepare(TEN), 5000, 3, "greedy", players=[4]).counts[0]
    b = simulate(prepare(game), 5000, 3, "greedy", players=[4]).counts[0]
    assert a.res[:, L.COL_CHI_USED].sum() > b.res[:, L.COL_CHI_USED].sum()
    assert not np.array_equal(a.res, b.res)
    # the deals are the same (same seed, same deck size): same dealt pairs
    assert np.array_equal(a.res[:, L.COL_DEALT_PAIRS], b.res[:, L.COL_DEALT_PAIRS])


def _estimates(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {(c["players"], k): v for c in data["simulation"]["player_counts"] for k, v in c["estimates"].items()}


def _simulate_cli(*args: str, cwd: Path) -> tuple[int, str]:
    """``cardgen simulate ARGS`` in its own process. The command simulates in a forked child under
    the budget (issue 18), and numba's OpenMP threads refuse to start in a child forked from a
    process that already ran them — as this test process did above — so the CLI runs as a user
    runs it, in a fresh process."""
    from attack_game import run_cli

    code, out, _took = run_cli("simulate", *args, cwd=cwd, timeout=300)
    return code, out


def test_cardgen_simulate_compare_writes_json_and_insight_pdf(tmp_path, monkeypatch):
    """The draft's question as a command: the variant's 2s have a paid pon instead of a free chi."""
    import pdfplumber

    variant = TEN / "variants" / "twos-paid-pon.yaml"
    monkeypatch.setenv("COLUMNS", "160")
    code, output = _simulate_cli(str(TEN), "-n", "4000", "--players", "4", "--seed", "5",
                                 "--out", str(tmp_path), "--compare", str(variant), cwd=tmp_path)
    assert code == 0, output
    assert "B − A" in output and "2: win rate if face up" in output
    assert "findfont" not in output and "Warning" not in output  # no weight the game's font lacks
    data = json.loads((tmp_path / "tenjanpai" / "simulation.json").read_text(encoding="utf-8"))
    rows = {r["key"]: r for r in data["comparison"] if r["players"] == 4}
    chi, pon = rows["chi.used"], rows["pon.used"]
    assert chi["ci95"][1] < 0 < pon["ci95"][0]  # fewer chi, more pon: the 2s' icons moved
    assert rows["dealt.pair"]["diff"] == 0  # same rounds, same deals
    assert data["compared_with"]["variant"] == "2にポン（コスト1）・チーなし"
    with pdfplumber.open(tmp_path / "tenjanpai" / "insight.pdf") as pdf:
        assert len(pdf.pages) == 6
        text = "".join(p.extract_text() or "" for p in pdf.pages)
    assert "局の終わり方" in text and "40.73%" in text and "比較" in text


def test_simulate_json_is_the_same_with_one_thread_or_all(tmp_path):
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        code, output = _simulate_cli(str(TEN), "-n", "2000", "--policy", "random", "--seed", "9",
                                     "--jobs", jobs, "--out", str(out), "--no-pdf", cwd=tmp_path)
        assert code == 0, output
        runs.append(_estimates(out / "tenjanpai" / "simulation.json"))
    assert runs[0] == runs[1] and len(runs[0]) > 50


def test_an_option_switches_an_open_question(tmp_path):
    """--option facedown_calls=true lets a face-down discard call: more calls with random play."""
    a = simulate(prepare(TEN), 3000, 2, "random", players=[4]).counts[0]
    setup = prepare(TEN)
    setup.options["facedown_calls"] = True
    b = simulate(setup, 3000, 2, "random", players=[4]).counts[0]
    used = lambda c: c.res[:, L.COL_PON_USED].sum() + c.res[:, L.COL_CHI_USED].sum()  # noqa: E731
    assert used(b) > used(a)
    code, output = _simulate_cli(str(TEN), "--option", "facedown_call=true", "--out", str(tmp_path), cwd=tmp_path)
    assert code == 2 and "facedown_call" in output  # an option value: a usage error (exit 2)


def test_compare_with_another_game_folder(tmp_path):
    """A copied game whose tsumo threshold is 18 instead of 20 (a design constant, no code):
    more rounds end in tsumo on the same deals."""
    from cardgen.insight.api import simulate_game

    game = tmp_path / "tenjanpai-18"
    shutil.copytree(TEN, game)
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("tsumo_threshold: 20 ", "tsumo_threshold: 18 ")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    run = simulate_game(TEN, tmp_path / "out", rounds=4000, seed=3, players=[4], compare_with=game, pdf=False)
    assert run.other.label == str(game)
    tsumo = next(r for r in run.comparison if r["key"] == "end.tsumo")
    assert tsumo["ci95"][0] > 0


@pytest.mark.parametrize("inside_game", [True, False])
def test_a_variant_file_that_is_a_link_leading_out_is_refused_unread(tmp_path, monkeypatch, inside_game):
    """variants/x.yaml given to --compare, a link to a YAML file elsewhere: refused by the file
    boundary before it is read (its key names are not echoed); one named outside the game may not
    lead out of its own folder either."""
    from cardgen.core.errors import CardgenError
    from cardgen.insight.api import simulate_game

    game = tmp_path / "tenjanpai"
    shutil.copytree(TEN, game)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "s.yaml").write_text("password_key_name: hunter2\n", encoding="utf-8")
    folder = game / "variants" if inside_game else tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    (folder / "x.yaml").symlink_to(tmp_path / "secret" / "s.yaml")
    monkeypatch.chdir(tmp_path)
    named = "tenjanpai/variants/x.yaml" if inside_game else "mine/x.yaml"
    with pytest.raises(CardgenError) as err:
        simulate_game("tenjanpai", tmp_path / "out", rounds=10, compare_with=named, pdf=False)
    assert [p.format() for p in err.value.problems] == [
        f"{named}: error: --compare → the variant file {named!r} leads outside the game folder\n"
        "    hint: copy the file into the game folder (links and paths that leave it are refused; docs/security.md)"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["-n", str(2**63)], "Error: Invalid value for '--rounds' / '-n': 9223372036854775808 is not in the range "
                         "2<=x<=100000000."),
    (["--seed", str(2**70)], "Error: Invalid value for '--seed': 1180591620717411303424 is not in the range "
                             "0<=x<=9223372036854775807."),
])
def test_rounds_and_seed_past_what_the_simulator_takes_are_usage_errors(tmp_path, args, message):
    """-n 2**63 and --seed 2**70 (the compiled procedures take 64-bit integers): refused before
    anything runs, exit 2, nothing written (they crashed with exit 3)."""
    code, output = _simulate_cli(str(TEN), *args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert code == 2 and output.rstrip().endswith(message), output
    assert "Traceback" not in output and not (tmp_path / "out").exists()


def test_the_library_refuses_a_seed_past_64_bits(tmp_path):
    from cardgen.core.errors import CardgenError
    from cardgen.insight.api import simulate_game

    with pytest.raises(CardgenError) as err:
        simulate_game(TEN, tmp_path / "out", rounds=10, seed=2**70, pdf=False)
    assert [p.format() for p in err.value.problems] == [
        "--seed: error: seed → the seed 1180591620717411303424 is not a whole number from 0 to 9223372036854775807\n"
        "    hint: e.g. --seed 1"]
    assert not (tmp_path / "out").exists()


def test_every_declared_odds_table_is_in_insight_pdf_and_outputs_have_one_mode(tmp_path):
    """Issue 31: with three odds declarations the third fell off the page's foot; insight.pdf and
    simulation.json were written 0600 (mkstemp) where every other output is 0644 under the umask;
    `--format json` printed 'wrote …' lines after the JSON on stdout."""
    import os
    import stat
    import subprocess
    import sys

    import pdfplumber

    game = tmp_path / "tenjanpai"
    shutil.copytree(TEN, game)
    manifest = game / "game.yaml"
    extra = "".join(f"    - id: pair{k}\n      kind: pairs\n      by: number\n      label: 対子の表その{k}\n"
                    for k in (2, 3))
    text = manifest.read_text(encoding="utf-8")
    assert "      label: 配られた手札の対子（ロンできる形）\n" in text
    manifest.write_text(text.replace("      label: 配られた手札の対子（ロンできる形）\n",
                                     "      label: 配られた手札の対子（ロンできる形）\n" + extra), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "cardgen", "simulate", str(game), "-n", "200", "--players", "4",
                           "--out", str(tmp_path / "out"), "--format", "json"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300, preexec_fn=lambda: os.umask(0o022))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)  # the JSON alone
    assert data["simulation"]["game"] == "tenjanpai"
    assert "wrote" in done.stderr
    pdf_path = tmp_path / "out" / "tenjanpai" / "insight.pdf"
    for f in (pdf_path, tmp_path / "out" / "tenjanpai" / "simulation.json"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f
    with pdfplumber.open(pdf_path) as pdf:
        text = "".join(p.extract_text() or "" for p in pdf.pages)
    for label in ("配られた手札の対子（ロンできる形）", "対子の表その2", "対子の表その3"):
        assert label in text, label


def test_simulate_writes_its_two_files_all_or_nothing(tmp_path, monkeypatch):
    """A failure while insight.pdf is written (a full disk) leaves the previous simulation.json
    and insight.pdf as they were: never a new JSON beside an old PDF."""
    import errno

    import cardgen.insight.plots as plots
    from cardgen.insight.api import simulate_game

    out = tmp_path / "out" / "tenjanpai"
    out.mkdir(parents=True)
    (out / "simulation.json").write_text('{"old": true}\n', encoding="utf-8")
    (out / "insight.pdf").write_bytes(b"%PDF- the old one\n")

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(plots, "write_insight_pdf", full)
    monkeypatch.setattr(plots, "write_model_pdf", full)
    with pytest.raises(OSError):
        simulate_game(TEN, tmp_path / "out", rounds=50, seed=1, players=[4])
    assert (out / "simulation.json").read_text(encoding="utf-8") == '{"old": true}\n'
    assert (out / "insight.pdf").read_bytes() == b"%PDF- the old one\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tenjanpai"]  # no staging folder left
