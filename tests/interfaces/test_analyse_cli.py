"""``meeple analyse``: what each judge's losses are measured against and how sure it is."""

from __future__ import annotations

import io

from rich.console import Console

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.review import Judgement
from meeple.interfaces import analyse_cli
from meeple.lab.review import ReviewedDecision
from tests.lab.test_review import _tiny_erd


def test_a_search_judges_review_says_its_values_are_estimates_within_a_noise(run, tmp_path):
    game = meeple.make("erosion")
    agents = [make_agent("heuristic", game, seed=s) for s in range(game.num_players)]
    path = tmp_path / "erosion.json"
    play_game(game, agents, seed=3).record().save(path)
    out = run("analyse", str(path), "--iterations", "30")
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "ismcts 30 is a seeded search, so its values are estimates" in text
    assert "a loss is called a mistake only above 0.1 and above two standard errors" in text


def test_an_exact_judge_is_said_to_be_exact():
    from meeple.interfaces.analyse_cli import _how_sure

    assert "is exact" in _how_sure("equilibrium", 1e-6)
    assert "estimates" not in _how_sure("exact", 0.0)


def test_the_erd_judges_why_says_whose_value_it_gives():
    judge, state = _tiny_erd()
    for seat in (0, 1):
        found = judge.judge([state], [], seat, state.legal_actions(seat)[0])
        assert "to this seat with best play" in (found.why or "")
        assert found.noise > 0 and "-0.000" not in (found.why or "")


def _header(output: str) -> list[str]:
    """The review table's column names, from its header row."""
    row = next(line for line in output.splitlines() if "┃ move" in line)
    return [cell.strip() for cell in row.strip("┃ ").split("┃")]


def test_the_judge_is_a_column_only_where_more_than_one_judged_the_record(run, tmp_path):
    """One judge for a whole record is named once, above the table (a column repeating it on
    every row would take an 80-column terminal's width from the actions); Edges judged by the
    search early and the solver late names each decision's judge."""
    erosion = meeple.make("erosion")
    agents = [make_agent("heuristic", erosion, seed=s) for s in range(erosion.num_players)]
    one = tmp_path / "erosion.json"
    play_game(erosion, agents, seed=3).record().save(one)
    out = run("analyse", str(one), "--iterations", "30", "--all")
    assert out.exit_code == 0, out.output
    assert _header(out.output) == ["move", "seat", "played", "loss", "best", "why"]
    assert " decisions judged by ismcts 30;" in " ".join(out.output.split())

    edges = meeple.make("edges", board="2x3")
    agents = [make_agent("random", edges, seed=s) for s in range(2)]
    two = tmp_path / "edges.json"
    play_game(edges, agents, seed=1).record().save(two)
    out = run("analyse", str(two), "--max-left", "4", "--iterations", "50", "--all")
    assert out.exit_code == 0, out.output
    assert _header(out.output) == ["move", "seat", "played", "judge", "loss", "best", "why"]
    text = " ".join(out.output.split())
    assert "judged by uct 50 (" in text and "), exact (" in text


def _review_at(width: int, game, rows, monkeypatch) -> str:
    """The review table of ``rows`` as a terminal ``width`` columns wide shows it."""
    out = io.StringIO()
    monkeypatch.setattr(analyse_cli, "console", Console(file=out, width=width, color_system=None))
    analyse_cli._print_review(game, rows, every=False)
    return out.getvalue()


def _decision(n: int, played: str, best: str, why: str) -> ReviewedDecision:
    judged = Judgement(0, played, best, 0.5, {}, "ismcts 200", why=why, mistake=True, noise=0.1)
    return ReviewedDecision(n, judged)


def test_no_move_is_cut_whatever_the_terminal_s_width(monkeypatch):
    """A Squad Combat review at 80 columns showed 'play coordinated-str…': a move is now
    whole there, its longest word on one line; narrower, folded but never cut, and no line
    is wider than the terminal."""
    game = meeple.make("squad-combat", players=4)
    rows = [
        _decision(5, "play coordinated-strike by a", "play heavy-blow by b", "-0.33 in 12 "
                  "tries against +0.17"),
        _decision(14, "target 2b", "play coordinated-strike by c", "-0.21 in 33 tries "
                  "against -0.10"),
    ]  # fmt: skip
    for width in (80, 120, 60, 40):
        text = _review_at(width, game, rows, monkeypatch)
        assert "…" not in text, width
        assert max(map(len, text.splitlines())) <= width
        if width >= 80:
            assert text.count("coordinated-strike") == 2, text


def test_the_explanation_takes_the_width_the_moves_give_up(monkeypatch):
    """Erd's moves are two short words and its 'why' a sentence: at 80 columns the moves'
    columns are narrowed to their words and the sentence has the room (a decision took 12
    lines when the three shared the width alike, 7 now)."""
    why = (
        "the table is worth +0.000 to this seat with best play; the equilibrium plays rush=DDD "
        "defense=HHL 25%, rush=DDD defense=LLL 18%, rush=HHH defense=LLL 18%, ..."
    )
    rows = [_decision(1, "rush=HHD defense=HLL", "rush=DDD defense=HHL", why)]
    text = _review_at(80, meeple.make("erd"), rows, monkeypatch)
    header = next(line for line in text.splitlines() if "┃ move" in line)
    widths = dict(zip(_header(text), map(len, header.strip("┃").split("┃")), strict=True))
    assert widths["why"] > widths["played"] + 10 and widths["why"] > widths["best"] + 10
    assert "rush=HHD" in text and "defense=HLL" in text and "defense=HHL" in text
    assert len([line for line in text.splitlines() if line.startswith("│")]) <= 8


def test_the_progress_line_names_a_decision_edges_solves_exactly_and_the_flag_for_speed():
    """A custom Edges board with many more edges than pyramids (9x3, stashes of 18) took
    over 25 minutes on one decision solved exactly, while the line said only "judging
    decisions"; it now says which move is solved, how many pyramids are left and the flag
    that makes it quicker (within 80 columns with the count and the time, for a game of
    hundreds of moves). Decisions searched, and other games', keep the plain words."""
    from meeple.core.conformance import random_playthrough
    from meeple.core.review import JudgeSettings
    from meeple.lab.review import make_judge
    from meeple.solvers.edges_solver import pyramids_left

    game = meeple.make("edges", board="3x3")
    states = random_playthrough(game, seed=2).record().states()
    judge = make_judge(game, JudgeSettings(max_left=6))
    said = [analyse_cli._judging(judge, state, n) for n, state in enumerate(states)]
    for n, state in enumerate(states[:-1]):
        left = pyramids_left(state)
        if left <= 6:
            assert said[n] == f"solving move {n + 1} exactly ({left} left; see --max-left)"
        else:
            assert said[n] == analyse_cli.JUDGING
    assert any(line != analyse_cli.JUDGING for line in said[:-1])
    assert analyse_cli._judging(judge, None, len(states)) == analyse_cli.JUDGING
    erosion = meeple.make("erosion")
    other = make_judge(erosion, JudgeSettings(iterations=5))
    assert analyse_cli._judging(other, erosion.new_game(seed=1), 0) == analyse_cli.JUDGING
    assert len(analyse_cli._judging(judge, states[-2], 998)) <= 50
