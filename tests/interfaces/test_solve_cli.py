"""``meeple solve edges``: the pie rule in the words of ``meeple play``, ``--estimate``, and
``--backend ray`` without Ray."""

from __future__ import annotations

import json
import sys

import pytest


@pytest.mark.parametrize(
    ("words", "value"),
    [
        (["--pie", "false"], "+1"),
        (["--pie=off"], "+1"),
        (["--no-pie"], "+1"),
        (["--pie", "yes"], "-1"),
        (["--pie"], "-1"),
        ([], "-1"),
    ],
)
def test_solve_reads_the_pie_rule_as_play_does(run, words, value):
    # 1x2 (1/1/1) is worth +1 without the pie rule and -1 with it (docs/solving.md).
    result = run("solve", "edges", "--board", "1x2", "--stash", "1/1/1", *words, "--no-cache")
    assert result.exit_code == 0, result.output
    assert f"value {value}" in result.output


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--pie", "maybe"], "allowed: true | false, yes | no"),
        (["--spilt", "3"], "meeple solve does not take --spilt"),
        (["--estimate", "5"], "--estimate sizes a proof: give --prove T"),
        (["--prove", "0", "--estimate", "5", "--expect", "perhaps"], "--expect takes yes or no"),
        (["--prove", "0", "--backend", "mpi"], "--backend takes threads or ray, not 'mpi'"),
        (["--backend", "ray"], "--backend ray and --address farm out a proof's leaves"),
        (["--address", "auto"], "--backend ray and --address farm out a proof's leaves"),
        (
            ["--prove", "0", "--backend", "threads", "--address", "auto"],
            "--address names a Ray cluster, which --backend threads does not use",
        ),
        (["--prove", "0", "--address", "nonsense"], "--address takes HOST:PORT"),
    ],
)
def test_solve_refuses_bad_words_with_one_line(run, words, says):
    result = run("solve", "edges", "--board", "1x2", "--stash", "1/1/1", *words, "--no-cache")
    assert result.exit_code != 0
    assert says in result.output
    assert "Traceback" not in result.output


def test_estimate_sizes_the_proof_with_an_interval(run):
    result = run("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie",
                 "--prove", "0", "--split", "4", "--estimate", "30", "--tt-bits", "12")  # fmt: skip
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "leaves (at the split" in line)
    mean, low, high = (float(x) for x in row.split("│")[2:5])
    assert 0 < low <= mean <= high
    assert "30 probes; 100% of the sampled positions answered yes" in result.output


def test_the_ray_backend_without_ray_says_how_to_install_it(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when not installed
    result = run("solve", "edges", "--board", "1x2", "--stash", "1/1/1", "--no-pie",
                 "--prove", "0", "--split", "2", "--backend", "ray")  # fmt: skip
    assert result.exit_code == 2
    assert "the ray backend needs Ray: pip install 'meeple[distributed]'" in result.output
    assert "Traceback" not in result.output


TOO_LARGE = "the Edges solver takes boards of up to 42 squares (6x7, for one), not 45"


def test_a_board_too_large_for_the_solver_is_refused_before_any_warning(run):
    result = run("solve", "edges", "--board", "5x9", "--no-cache")
    assert result.exit_code != 0
    assert TOO_LARGE in result.output
    assert "warning" not in result.output and "Traceback" not in result.output


def test_the_solvers_agent_and_analysis_refuse_a_board_too_large_with_one_line(run, tmp_path):
    result = run("play", "edges", "--board", "5x9", "--seat", "perfect", "--seat", "random")
    assert result.exit_code != 0 and TOO_LARGE in result.output, result.output
    record = tmp_path / "big.json"
    played = run(
        "play", "edges", "--board", "5x9", "--seat", "random", "--seat", "random",
        "--seed", "1", "--save", str(record), "--quiet",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    # The review of such a game falls back to the uct search, and says why.
    result = run("analyse", str(record), "--iterations", "20", "--json")
    assert result.exit_code == 0, result.output
    reviewed = json.loads(result.output)
    assert reviewed and {d["judge"] for d in reviewed} == {"uct 20"}
    assert all(TOO_LARGE in d["why"] for d in reviewed if d["why"] != "the only legal action")


@pytest.mark.parametrize(
    "words",
    [
        ["--board", "3x3"],
        ["--prove", "0"],
        ["--split", "6"],
        ["--survey"],
        ["--certificate", "x.cert"],
        ["--workers", "2"],
        ["--tt-bits", "20"],
    ],
)
def test_solve_erd_refuses_the_options_of_edges_with_one_line(run, words, monkeypatch):
    # Nothing may be solved: an option erd does not read is refused before any work.
    import meeple.interfaces.solve_erd_cli as erd_cli

    monkeypatch.setattr(erd_cli, "solve_erd", lambda *a: pytest.fail("solved anyway"))
    result = run("solve", "erd", "--rules", "0.02", *words)
    assert result.exit_code == 2, result.output
    assert f"{words[0]} is an option of edges; erd takes --rules, --option" in result.output
    assert "Traceback" not in result.output


def test_solve_erd_names_the_option_flag_for_erd_s_options_written_as_play_takes_them(
    run, monkeypatch
):
    """A terminal newcomer wrote `meeple solve erd --round-limit 50`, as `meeple play` takes
    it, and was told only that solve does not take --round-limit: the refusal says the
    --option that does. An option no game has is refused as before."""
    import meeple.interfaces.solve_erd_cli as erd_cli

    monkeypatch.setattr(erd_cli, "solve_erd", lambda *a: pytest.fail("solved anyway"))
    result = run("solve", "erd", "--rules", "0.02", "--round-limit", "50", "--best-of=3")
    assert result.exit_code == 2, result.output
    assert " ".join(result.output.split()) == (
        "error: meeple solve takes Erd's options other than --rules as --option name=value: "
        "-o round_limit=50 -o best_of=3, not --round-limit, --best-of"
    )
    result = run("solve", "erd", "--round-limits", "50")
    assert result.exit_code == 2
    assert "meeple solve does not take --round-limits; see meeple solve --help" in result.output


def test_a_record_of_another_game_is_named_by_its_game(run, tmp_path):
    """`solve edges --position erd2.json` said only "the record is not a game of Edges"."""
    import meeple
    from meeple.core.record import GameRecord

    state = meeple.make("erd", best_of=1).new_game(1)
    moves = []
    while not state.is_over:
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        moves.append((seat, str(action)))
        state = state.apply(seat, action)
    path = tmp_path / "erd.json"
    GameRecord(game="erd", options={"best_of": 1}, seed=1, moves=moves).save(path)
    result = run("solve", "edges", "--position", str(path))
    assert result.exit_code == 2, result.output
    assert " ".join(result.output.split()) == (
        "error: the record is a game of Erd: The Grim Triangle, not of Edges "
        "(meeple solve erd solves Erd's rules)"
    )


def test_the_move_table_names_the_mover_and_whose_score_its_values_are(run, tmp_path):
    # Blue to move after Red's L h0,0: the values stay Red's minus Blue's, so Blue's best
    # (listed first) is the lowest, and the table must say both.
    import meeple

    state = meeple.make("edges", board="1x2", stash="1/1/1", pie=False, first=0).new_game(0)
    (move,) = [a for a in state.legal_actions(0) if str(a) == "L h0,0"]
    state = state.apply(0, move)
    position = tmp_path / "position.txt"
    position.write_text(state.position())
    result = run("solve", "edges", "--position", str(position), "--no-cache")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Blue to move" in text and "Blue's best first" in text
    assert "each value is Red's score minus Blue's" in text and "Red - Blue" in text
