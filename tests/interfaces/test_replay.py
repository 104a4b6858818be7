"""`meeple replay` (issue 32, item 16): stepping with keys, every board, one seat's view,
Erd's games and rounds marked, The Triangle Clock's symbols instead of hand letters."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.record import GameRecord, final_result
from meeple.core.simultaneous import reveals, secret
from meeple.games.triangle_clock.cards import SYMBOL_NAMES, glyph
from meeple.games.triangle_clock.rules import Pick
from meeple.interfaces import move_log, replay_cli
from meeple.interfaces.console import console
from meeple.interfaces.history import read_entry
from tests.mulligan import mulligan_after_a_pick


def _record(tmp_path, name: str, agents: str = "random", seed: int = 4, **options):
    game = meeple.make(name, **options)
    seats = [make_agent(agents, game, seed + p) for p in range(game.num_players)]
    play = play_game(game, seats, seed=seed)
    path = tmp_path / f"{name}.json"
    play.record().save(path)
    return path, play.record()


def _lines(result) -> list[str]:
    return result.output.splitlines()


def test_triangle_clock_moves_show_the_symbol_revealed_not_the_hand_letter(run, tmp_path):
    path, record = _record(tmp_path, "triangle-clock")
    result = run("replay", str(path), "--all")
    assert result.exit_code == 0, result.output
    states = record.states()
    lines = [line for line in _lines(result) if line[:3].strip().isdigit()]
    assert len(lines) == len(record.moves)
    picks = 0
    for (player, text), before, line in zip(record.moves, states[:-1], lines, strict=True):
        action = before.game.parse_action(text)
        if isinstance(action, Pick):
            symbol = before.seats[player].revealed(action)
            assert f"{glyph(symbol)}{SYMBOL_NAMES[symbol]}" in line, line
            letter = text.split()[0]
            assert not line.rstrip().endswith(f": {letter}") and f"({letter}" not in line
            picks += 1
    assert picks >= 32 * 6  # three choices a seat a round


def test_erd_games_and_rounds_are_marked_after_the_move_that_opens_them(run, tmp_path, monkeypatch):
    monkeypatch.setattr(console, "width", 1000)  # a move a line, its words included
    path, record = _record(tmp_path, "erd", agents="heuristic", seed=2, rules="0.01", best_of=3)
    states = record.states()
    result = run("replay", str(path), "--all")
    assert result.exit_code == 0, result.output
    out = _lines(result)
    assert "── Game 1, round 1 ──" in out[:4]
    rounds = games = 0
    for number in range(1, len(states) - 1):
        before, after = states[number - 1], states[number]
        k = next(i for i, line in enumerate(out) if line.startswith(f"{number:3}. "))
        while out[k + 1].startswith("    "):  # the combat the move's reveal set off
            k += 1
        if after.game_number != before.game_number:
            assert out[k + 1] == f"── Game {after.game_number}, round 1 ──"
            games += 1
        elif after.round != before.round:
            assert out[k + 1] == f"── Round {after.round} ──"
            rounds += 1
        else:
            assert not out[k + 1].startswith("──")
    assert games >= 1 and rounds >= 1, (games, rounds)  # the record shows both kinds


def _move_blocks(output: str, moves: int) -> dict[int, list[str]]:
    """Each move's lines in a replay's output: its own, then those under it."""
    blocks: dict[int, list[str]] = {}
    number = 0
    for line in output.splitlines():
        if line[:3].strip().isdigit() and line[3:5] == ". ":
            number = int(line[:3])
            blocks[number] = [line]
        elif number and line.startswith("     "):
            blocks[number].append(line)
        else:
            number = 0
    assert sorted(blocks) == list(range(1, moves + 1))
    return blocks


# In these records the second seat's choice completes every decision: seat 0 sees the other
# complete it, seat 1 completes it itself.
@pytest.mark.parametrize(
    ("name", "seat"), [("erd", 0), ("erd", 1), ("triangle-clock", 0), ("triangle-clock", 1)]
)
def test_a_seat_sees_others_choices_only_once_a_move_completes_the_decision(
    run, tmp_path, monkeypatch, name, seat
):
    """Another seat's choice reads "has chosen" at its own move; the move that completes the
    decision (whoever made it) tells every choice of it, as the rules then reveal them, and
    what followed: Erd's combat, a Triangle Clock round's result."""
    monkeypatch.setattr(console, "width", 1000)  # a move a line, its words included
    path, record = _record(tmp_path, name)
    states = record.states()
    result = run("replay", str(path), "--all", "--seat", str(seat))
    assert result.exit_code == 0, result.output
    blocks = _move_blocks(result.output, len(record.moves))
    pending: list[tuple[int, str]] = []  # the decision's choices so far, in their words
    completed = results = 0
    for number, (player, text) in enumerate(record.moves, start=1):
        before, after = states[number - 1], states[number]
        line, *under = blocks[number]
        words = move_log.move_words(before, player, text).plain.split("\n")[0]
        if not secret(before, player):  # a memorise step's move hides nothing
            assert words in line and not under, blocks[number]
            continue
        pending.append((player, words))
        if not reveals(before, after):
            assert (words in line) is (player == seat), line
            assert ("has chosen" in line) is (player != seat), line
            continue
        assert line.endswith("has chosen; every choice revealed:"), line
        told = [x.strip() for x in under]
        for k, (who, said) in enumerate(pending):
            assert f"{before.game.seat_name(who)} (seat {who}): {said}" == told[k], told
        followed = told[len(pending) :]
        if name == "erd":
            assert followed[0].startswith("Combat of game"), told
        results += bool(followed) and followed[0].startswith(("Combat of game", "Round "))
        completed += 1
        pending = []
    assert completed >= 3 and results >= 3, (completed, results)
    assert "as Red" not in result.output  # --all: the lines, not the stepping screen


def test_a_seat_never_sees_another_seats_hand_at_any_move(run, tmp_path):
    path, record = _record(tmp_path, "erosion", seed=1)
    result = run("replay", str(path), "--all", "--step", "--seat", "0")
    assert result.exit_code == 0, result.output
    game = meeple.make("erosion")
    from meeple.games.erosion.render import describe_card

    shown = result.output
    mine, theirs = set(), set()
    for state in record.states():
        mine |= {describe_card(state, c) for c in state.hands[0]}
        theirs |= {describe_card(state, c) for c in state.hands[1]}
    assert game.num_players == 2 and theirs - mine
    for line in theirs - mine:
        assert line not in shown, line
    assert any(line in shown for line in mine)


def test_a_seat_out_of_range_is_a_clean_error(run, tmp_path):
    path, _ = _record(tmp_path, "edges", board="2x2")
    result = run("replay", str(path), "--seat", "5")
    assert result.exit_code == 2
    assert "--seat 5: Edges has seats 0 to 1 here" in result.output
    assert "Traceback" not in result.output


def _stepped(replay, keys: list[str]) -> tuple[int, str]:
    pressed = iter(keys)
    with console.capture() as capture:
        last = replay_cli.step_through(replay, lambda: next(pressed))
    return last, capture.get()


def test_keys_step_forwards_and_back_and_show_the_board_each_time(tmp_path):
    _, record = _record(tmp_path, "edges", board="2x2")
    replay = replay_cli.Replay(record, record.states())
    last, out = _stepped(replay, ["n", "\r", "\x1b[C", "p", "\x1b[D", "x", "q"])
    assert last == 1  # three forwards, two back
    assert out.count("Score:") == 7  # a board at every screen
    assert "after move 3 of" in out and "'x' is not a key of the replay" in out
    end, out = _stepped(replay, ["l", "n", "f", "p", "q"])
    assert end == 0
    assert "This is the last position." in out and "This is the start." in out
    assert f"after move {len(record.moves)} of {len(record.moves)}" in out


def test_the_legend_key_shows_the_boards_marks_and_comes_back(tmp_path):
    _, record = _record(tmp_path, "erosion", seed=1)
    replay = replay_cli.Replay(record, record.states(), seat=1)
    last, out = _stepped(replay, ["n", "?", " ", "q"])
    assert last == 1
    assert "Reading the board" in out and "a weathered rock" in out
    assert f"as {replay.game.seat_name(1)} (seat 1) saw it" in out


@pytest.mark.parametrize("keys", [[], ["n"]])
def test_end_of_input_leaves_the_replay(tmp_path, keys):
    _, record = _record(tmp_path, "edges", board="2x2")
    replay = replay_cli.Replay(record, record.states())
    pressed = iter(keys)

    def read() -> str:
        try:
            return next(pressed)
        except StopIteration:
            raise EOFError from None

    with console.capture():
        assert replay_cli.step_through(replay, read) == len(keys)


def test_squad_combat_turns_are_marked(run, tmp_path):
    path, record = _record(tmp_path, "squad-combat", seed=5)
    states = record.states()
    out = _lines(run("replay", str(path), "--all"))
    turns = [line for line in out if line.startswith("── Turn ")]
    last = max(s.turn for s in states if s.ended is None)
    assert turns == [f"── Turn {t} ──" for t in range(1, last + 1)]


def test_plays_log_shows_the_steps_the_engine_took_after_a_move(run, tmp_path, monkeypatch):
    """Erosion's single-choice steps, taken by the engine, appear in `meeple play`'s log
    after the move that led to them (issue 32.11), as in the replay."""
    monkeypatch.setattr(console, "width", 1000)
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "history"))
    path = tmp_path / "g.json"
    seats = ["--seat", "random"] * 4
    result = run("play", "erosion", "--players", "4", *seats, "--seed", "3", "--save", str(path))
    assert result.exit_code == 0, result.output
    record = GameRecord.load(path)
    states = record.states()
    expected = []
    for (player, text), before in zip(record.moves, states[:-1], strict=True):
        for seat, step in before.automatic_steps(player, before.game.parse_action(text)):
            expected.append((text, f"(then the only choice: {before.game.seat_name(seat)}: {step}"))
            break
    assert expected
    lines = result.output.splitlines()
    for text, then in expected:
        assert any(f": {text} — " in line and then in line for line in lines), (text, then)


def test_plays_log_says_an_erosion_move_in_words(run, tmp_path, monkeypatch):
    """A computer's move names a card from a hand nobody else saw (weather WX19 on 3 x1):
    the log says what it did, in the words the browser's log uses."""
    monkeypatch.setattr(console, "width", 1000)
    path = tmp_path / "g.json"
    seats = ["--seat", "random"] * 3
    result = run(
        "play",
        "erosion",
        "--players",
        "3",
        *seats,
        "--seed",
        "3",
        "--save",
        str(path),
        "--no-history",
    )
    assert result.exit_code == 0, result.output
    record = GameRecord.load(path)
    states = record.states()
    played = [
        (text, before.game.log_words(before, player, before.game.parse_action(text)))
        for (player, text), before in zip(record.moves, states[:-1], strict=True)
        if text.startswith(("weather", "hillslope"))
    ]
    assert played
    for text, words in played:
        assert f"{text} — {words}" in result.output, (text, words)


@pytest.mark.parametrize(
    ("name", "options"),
    [("edges", {"board": "2x3"}), ("erd", {"best_of": 1}), ("squad-combat", {})],
)
def test_a_replay_says_every_move_in_the_games_words_beside_its_notation(
    run, tmp_path, monkeypatch, name, options
):
    """The terminal says the same words as the browser's log (``Game.log_words``), one
    route for every game."""
    monkeypatch.setattr(console, "width", 1000)  # a move a line
    path, record = _record(tmp_path, name, **options)
    result = run("replay", str(path), "--all")
    assert result.exit_code == 0, result.output
    lines = [line for line in _lines(result) if line[:3].strip().isdigit()]
    states = record.states()
    for (player, text), before, line in zip(record.moves, states, lines, strict=False):
        words = before.game.log_words(before, player, before.game.parse_action(text))
        assert words and line.endswith(f": {text} — {words}"), line


def test_a_single_erd_game_is_marked_by_rounds_alone(run, tmp_path):
    path, record = _record(tmp_path, "erd", agents="heuristic", seed=2, rules="0.01", best_of=1)
    out = _lines(run("replay", str(path), "--all"))
    headings = [line for line in out if line.startswith("── ")]
    last = record.states()[-2].round
    assert headings == [f"── Round {r} ──" for r in range(1, last + 1)]


def test_a_record_downloaded_from_the_server_replays_without_a_warning(run, tmp_path):
    """The server keeps a match's result with each seat's return and the winners
    (/api/matches/{id}/record): the terminal's replay and history believe it, and still
    warn of a result the moves do not reach."""
    path, record = _record(tmp_path, "edges", board="2x2")
    served = record.model_copy(update={"result": final_result(record.replay())})
    assert set(served.result) - set(record.result) == {"returns", "winners"}
    served.save(path)
    result = run("replay", str(path), "--all")
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    assert read_entry(path).problem is None
    forged = {**served.result, "winners": [1 - served.result["winners"][0]]}
    served.model_copy(update={"result": forged}).save(path)
    assert "the stored result differs" in run("replay", str(path), "--all").output
    assert read_entry(path).problem == "its stored result is not the one its moves reach"
    # The sentence is the game's words of the day: a record kept under older words is
    # believed (Erd's "wins on Rush + Defense tied, Rush 4 against 1" was reworded).
    reworded = {**served.result, "reason": "said in the words of an earlier version"}
    served.model_copy(update={"result": reworded}).save(path)
    assert "warning" not in run("replay", str(path), "--all").output
    assert read_entry(path).problem is None


def test_a_match_that_ended_before_its_game_says_how_and_only_in_printable_words(run, tmp_path):
    """A server's match that ended before its game did (a seat resigned, the match called
    off) replays to its last move and then says how it ended, as its result says, where a
    record without such a result says the game is not over. Its words come from a file, so
    words that are not one printable line, or winners that are not the game's seats, are
    not shown."""
    game = meeple.make("edges", board="2x2")
    state = game.new_game(seed=1)
    first = state.to_act[0]
    record = GameRecord(
        game="edges", options={"board": "2x2"}, seed=1,
        moves=[(first, str(state.legal_actions(first)[0]))],
    )  # fmt: skip
    ended = {"over": True, "reason": "Blue (seat 1) resigned", "winners": [0], "returns": [1, -1]}
    path = tmp_path / "match.json"
    for result, says in (
        (ended, "The match ended after 1 move, before its game did: Blue (seat 1) resigned; "
                "Red (seat 0) won."),
        ({**ended, "winners": []}, "resigned; nobody won."),
        (None, "The game is not over (1 move so far)."),
        ({**ended, "reason": "Blue \x1b[2Jresigned"}, "The game is not over"),
        ({**ended, "winners": [2]}, "The game is not over"),
        ({**ended, "winners": "0"}, "The game is not over"),
    ):  # fmt: skip
        record.model_copy(update={"result": result}).save(path)
        replayed = run("replay", str(path), "--all")
        assert replayed.exit_code == 0, replayed.output
        assert says in " ".join(replayed.output.split()), (result, replayed.output)
        assert "\x1b" not in replayed.output


def _pick_mulligan_pick():
    """A Triangle Clock record up to its first decision's reveal: both memorise (moves 1 and
    2), Tick picks (3), Tock takes a Mulligan (4), then picks (5)."""
    play = mulligan_after_a_pick()
    play.play(1, play.state.legal_actions(1)[0])
    return play.record(pending=True)


def test_a_mulligan_in_a_decision_is_told_with_its_choices_when_the_decision_completes():
    """Tick picks, Tock takes a Mulligan, then picks: to Tick's eyes the Mulligan and Tock's
    pick read "has chosen" until that pick completes the decision, whose line then tells all
    three (the Mulligan changed no submission, so counting submissions alone would lose one)."""
    record = _pick_mulligan_pick()
    replay = replay_cli.Replay(record, record.states(), seat=0)
    assert "has chosen (hidden" in replay.move_text(4).plain
    line, *told = replay.move_text(5).plain.splitlines()
    assert line.endswith("has chosen; every choice revealed:")
    assert [x.split(":")[0].strip() for x in told[:3]] == ["Tick (seat 0)", *["Tock (seat 1)"] * 2]
    assert "mulligan" in told[1]


def test_the_replay_page_conceals_a_mulligan_and_the_pick_before_it_until_the_reveal():
    """The replay page's answer (/api/replay) lists, after each move, the choices another
    seat's eyes see only as "has chosen": after Tick's pick and Tock's Mulligan both (the
    Mulligan is no submission: counting submissions alone showed Tick's pick early), none
    once Tock's pick reveals them; never a memorise step's move, which hides nothing."""
    from meeple.interfaces.web.replays import concealed_moves

    record = _pick_mulligan_pick()
    states = record.states()
    concealed = [concealed_moves(states, record.moves, k) for k in range(6)]
    assert concealed == [[], [], [], [3], [3, 4], []]
