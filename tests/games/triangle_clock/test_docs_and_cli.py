"""The rules document agrees with the data, and a person can play in the terminal."""

from __future__ import annotations

import re
from pathlib import Path

from meeple.core.record import GameRecord
from meeple.games.triangle_clock import TriangleClockGame, TriangleClockOptions
from meeple.games.triangle_clock.hands import example_hands, hand_text, ranking, ranking_markdown

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "src" / "meeple" / "games" / "triangle_clock" / "rules.md"


def test_docs_rules_is_a_link_to_the_text_that_ships_with_the_game():
    doc = ROOT / "docs" / "rules" / "triangle-clock.md"
    assert doc.is_symlink() and doc.resolve() == RULES.resolve()
    assert TriangleClockGame.rules_markdown() == RULES.read_text(encoding="utf-8")


def test_rules_ranking_table_is_the_data_file_with_measured_frequencies():
    """Clause 3/7: the table in rules.md is exactly what `python -m
    meeple.games.triangle_clock` prints from ranking.toml, so the two cannot drift."""
    text = RULES.read_text(encoding="utf-8")
    block = re.search(r"<!-- ranking:start -->\n(.*?)\n<!-- ranking:end -->", text, re.S)
    assert block is not None
    assert block.group(1).strip() == ranking_markdown(ranking()).strip()


def test_every_rank_has_an_example_hand_a_round_can_make():
    examples = example_hands(ranking())
    assert all(e is not None and len(set(e)) > 1 for e in examples)
    text = RULES.read_text(encoding="utf-8")
    for spec, example in zip(ranking().ranks, examples, strict=True):
        assert f"| {spec.name} | {spec.strength} |" in text
        assert hand_text(example) in text


def test_rules_document_every_option_and_the_interpretations():
    text = RULES.read_text(encoding="utf-8")
    assert "## Interpretations" in text
    for name in TriangleClockOptions.model_fields:
        assert f"`{name}`" in text, name


def test_meeple_rules_shows_the_ranking_table_with_examples(run):
    result = run("rules", "triangle-clock")
    assert result.exit_code == 0, result.output
    for spec in ranking().ranks:
        assert spec.name in result.output
    assert "▲Ns ▲Ns ▲Ns △Nc" in result.output  # the example 4 of a Kind
    assert "--memorise-seconds" in result.output and "--items" in result.output


def test_a_person_plays_memorises_and_the_screen_moves_on(run, tmp_path):
    """CLI play: the memorise step shows the order, then the game asks for letters; bad
    input is refused with a reason; the record replays."""
    path = tmp_path / "game.json"
    result = run(
        "play", "triangle-clock", "--seat", "human", "--seat", "random", "--seed", "3",
        "--memorise-seconds", "0", "--save", str(path),
        input="A +mulligan\nA\nA\nC\nB\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Shared symbols for rounds 1 to 16" in result.output
    assert "Memorise this" in result.output
    assert "Not allowed" in result.output  # 'A +mulligan', then 'A' again at the second choice
    assert "Round 1: shared" in result.output
    record = GameRecord.load(path)
    assert record.moves[:2] == [(0, "memorised"), (1, "memorised")]
    assert record.replay().round == 2


def test_agents_play_a_whole_game_in_the_terminal(run):
    result = run("play", "triangle-clock", "--seat", "heuristic", "--seat", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "Final score" in result.output


def _rarity_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "triangle_clock_rarity", ROOT / "benchmarks" / "triangle_clock_rarity.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_design_reports_rarity_table_is_what_its_script_writes():
    """docs/design/triangle-clock/rarity.toml is the script's output, byte for byte, so the
    table the design report measures and the derivation it states cannot drift apart."""
    out = "docs/design/triangle-clock/rarity.toml"
    written = (ROOT / out).read_text(encoding="utf-8")
    assert written == _rarity_script().rarity_table(None, out)
    strengths = [spec.strength for spec in ranking(str(ROOT / out)).ranks]
    assert strengths == sorted(strengths, reverse=True)
    assert strengths[0] == 10 and strengths[-1] == 0


def test_rarity_strengths_follow_the_share_at_this_rank_or_higher():
    """A rank reached, with the ranks above it, by one round in 2**k gets k; a rank no round
    takes keeps the strength of the one above it."""
    script = _rarity_script()
    table = ranking().table
    shares = [1 / 1024, 1 / 1024, 2 / 1024] + [0.0] * (len(table.rank) - 4)
    shares.append(1 - sum(shares))
    assert script.rarity_strengths(table, shares)[:5] == [10, 9, 8, 8, 8]
