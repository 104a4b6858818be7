"""Playing at the terminal as people do (issue 32): the memorise step, hand-overs between
people, the thinking indicator, the end-of-game menu, the history, and undo."""

from __future__ import annotations

import io
import os
import re
import time

import pytest
from rich.console import Console

import meeple
from meeple.agents import parse_spec
from meeple.agents.levels import level_spec
from meeple.agents.warm import small_spec
from meeple.core.game import seats_text
from meeple.core.record import GameRecord, Playthrough
from meeple.core.review import HINT_ITERATIONS
from meeple.core.simultaneous import reveals, secret
from meeple.interfaces import console as console_module
from meeple.interfaces import play_cli, prompt_words
from meeple.interfaces.console import WIPE, preparing_agents, read_within, thinking
from meeple.interfaces.move_log import heading, move_words
from meeple.interfaces.play_cli import TerminalGame
from meeple.interfaces.prompt_words import (
    UndoRefused,
    prompt_command,
    take_back,
    why_no_take_back,
)
from meeple.lab.hints import hint, hint_judge

CLOCK = ("play", "triangle-clock", "--seed", "1")
ORDER = "Shared symbols for rounds 1 to 16"


# -- 32.2 the memorise step ---------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["memorised", "", "Memorized"])
def test_memorise_ends_when_the_person_says_so_and_the_order_is_wiped(run, typed):
    result = run(*CLOCK, "--seat", "human", "--seat", "random", input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # both seats memorised (the human's word ended the step, it was not taken as a move)
    assert "Stopped after 2 moves" in out and "Not allowed" not in out
    wiped = out.index(WIPE)
    assert ORDER in out[:wiped] and ORDER not in out[wiped:]


def test_a_wrong_word_in_the_memorise_step_is_explained_and_asked_again(run):
    result = run(*CLOCK, "--seat", "human", "--seat", "random", input="A\nmemorised\nquit\n")
    assert "Type 'memorised' or press Enter" in result.output
    assert "Stopped after 2 moves" in result.output


def test_the_memorise_step_ends_when_time_is_up():
    game = meeple.make("triangle-clock")
    play = Playthrough(game, 1, ["human", "human"])
    asked: list[float] = []

    def never_answers(prompt: str, seconds: float) -> None:
        asked.append(seconds)
        return None

    session = TerminalGame(play, [None, None], history=False, read_within=never_answers)
    session.memorise(0, 120.0)
    assert len(play.moves) == 1 and play.moves[0] == (0, "memorised")
    assert 119 < asked[0] <= 120  # the time left is what the prompt waits


def test_read_within_waits_on_a_terminal_and_gives_up_in_time():
    master, slave = os.openpty()
    with os.fdopen(slave, "r") as stream:
        start = time.monotonic()
        assert read_within("? ", 0.2, stream) is None
        assert 0.15 < time.monotonic() - start < 2
        os.write(master, b"memorised\n")
        assert read_within("? ", 2, stream) == "memorised"
    os.close(master)


@pytest.mark.parametrize("seconds", [1e308, float("inf")])
def test_read_within_takes_a_wait_longer_than_select_allows(seconds):
    """--memorise-seconds 1e308 is a valid option: the prompt waits, never a traceback."""
    master, slave = os.openpty()
    with os.fdopen(slave, "r") as stream:
        os.write(master, b"memorised\n")
        assert read_within("? ", seconds, stream) == "memorised"
    os.close(master)


# -- 32.3 hand-over between people ------------------------------------------------------------
def test_after_a_hand_over_a_person_is_told_the_moves_the_clearing_took_away(run, monkeypatch):
    """Erosion between two people and the computer: the screen is cleared before Alps's turn,
    taking Andes's and the computer's moves with it; Alps is told them after Enter."""
    monkeypatch.setattr(console_module.console, "width", 1000)  # a move a line
    typed = "\nweather WX05 on 2 x1\ndraw WX1 H0 F0\n\nquit\n"
    result = run(
        "play", "erosion", "--players", "3", "--seat", "human", "--seat", "human",
        "--seat", "random", "--seed", "2", "--first", "1", input=typed,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    to_alps = out.index("Pass to Alps (seat 0); press Enter when ready.")
    assert out.rindex(WIPE, 0, to_alps) > out.index("Andes (seat 1) > ")
    after = out[to_alps:]
    assert "Since your last turn:" in after
    assert "  Andes (seat 1): weather WX05 on 2 x1 — weathered 1 rock (sandstone)" in after
    assert "  Rockies (seat 2): " in after


def test_two_people_hand_over_before_each_secret_allocation(run):
    allocation = "rush=HHL defense=LDD"
    typed = f"\n{allocation}\n\n{allocation}\n\nquit\n"
    result = run("play", "erd", "--seat", "human", "--seat", "human", "--seed", "1", input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    to_blue = out.index("Pass to Blue (seat 1); press Enter when ready.")
    # the screen and its scrollback are wiped between Red's prompt and Blue's turn
    assert out.rindex(WIPE, 0, to_blue) > out.index("Red (seat 0) > ")
    assert out.count("Pass to Red (seat 0)") == 2  # at the start and for round 2
    assert "Stopped after 2 moves" in out


def test_the_triangle_clock_hands_are_handed_over_too(run):
    result = run(*CLOCK, "--seat", "human", "--seat", "human", input="\n\n\nquit\n")
    out = result.output
    assert "Pass to Tick (seat 0)" in out and "Pass to Tock (seat 1)" in out
    assert out.index("Pass to Tock") > out.index(WIPE, out.index("Pass to Tick") + 1)


def test_no_hand_over_when_nothing_is_hidden_or_one_person_plays(run):
    edges = ("play", "edges", "--board", "2x2", "--first", "0", "--seed", "1")
    both = run(*edges, "--seat", "human", "--seat", "human", input="L h0,0\nL h1,0\nquit\n")
    assert "Stopped after 2 moves" in both.output and "Pass to" not in both.output
    alone = run("play", "erd", "--seat", "human", "--seat", "random", "--seed", "1", input="quit\n")
    assert "Pass to" not in alone.output and WIPE not in alone.output


def test_a_move_is_said_back_as_the_notation_writes_it_not_as_typed(run):
    """'l   h1,0' is read, and said back as the record and the replay write it."""
    edges = ("play", "edges", "--board", "2x2", "--first", "0", "--seed", "1")
    out = run(*edges, "--seat", "human", "--seat", "random", input="l   h1,0\nquit\n").output
    assert "Red (seat 0): L h1,0 — placed a Large pyramid" in _flat(out)
    assert "l   h1,0 —" not in out


# -- a Mulligan, told once its decision is revealed -------------------------------------------
class _MulliganFirst:
    """Takes a Mulligan at the first choice of round 1 where it holds one, then picks the
    first legal symbol (a memorise step's only answer where that is the step)."""

    name = "mulligan-first"

    def __init__(self) -> None:
        self.mulliganed = False

    def act(self, observation):
        legal = observation.legal_actions
        if not self.mulliganed and "mulligan" in map(str, legal):
            self.mulliganed = True
            return observation.game.parse_action("mulligan")
        return next(a for a in legal if str(a) != "mulligan")


def _against_a_mulligan(monkeypatch, typed: list[str], person: int, **options) -> str:
    """A person in seat ``person`` typing ``typed`` against :class:`_MulliganFirst`: the
    screen as plain text, each prompt followed by what was typed at it."""
    screen = Console(file=io.StringIO(), width=1000, color_system=None)
    monkeypatch.setattr(play_cli, "console", screen)
    lines = iter(typed)

    def read(prompt: str) -> str:
        answer = next(lines)
        screen.print(f"{prompt}{answer}", markup=False)
        return answer

    game = meeple.make("triangle-clock", memorise_seconds=0, **options)
    agents = [_MulliganFirst(), _MulliganFirst()]
    agents[person] = None
    play = Playthrough(game, 1, ["mulligan-first"] * 2)
    TerminalGame(play, agents, history=False, read=read).run()
    return screen.file.getvalue()


def test_a_person_is_told_the_opponents_mulligan_once_every_choice_is_revealed(monkeypatch):
    """Tock takes a Mulligan after Tick's pick, then picks: the board draws both picks and
    Tock's Mulligan count going down, and the screen says in words, as a replay does, that
    Tock used it; until then it said only "has chosen", twice, and nothing of why."""
    out = _against_a_mulligan(monkeypatch, ["A", "quit"], person=0)
    chosen, after = (
        out.split("Tick (seat 0) > A\n")[1]
        .split("Tick (seat 0) > quit")[0]
        .split("The Triangle Clock", 1)
    )
    # The pick that completes the choice hides nothing any more: said plainly.
    assert chosen == (
        "Tock (seat 1) has chosen (hidden until all have)\n"
        + "Tock (seat 1) has chosen\n"
        + "Every choice is in; revealed with them:\n  Tock (seat 1): mulligan\n"
    )
    assert "Mulligan 1/2" in after


def test_a_mulligan_made_before_the_person_chooses_is_told_only_after_they_have(monkeypatch):
    """Tick (the computer, holding the Mulligan) takes it and picks before Tock, the person,
    chooses: Tock's screen says no more than "has chosen" of either until Tock's own pick
    completes the decision, which tells the Mulligan. Tick's pick shows on no line or board
    before then."""
    out = _against_a_mulligan(
        monkeypatch, ["A", "quit"], person=1, items="mulligan/palette-swap+right-angle"
    )
    before, after = out.split("Tock (seat 1) > A\n")
    before = before[before.index("Tick (seat 0) has chosen") :]  # the memorising done
    assert before.count("Tick (seat 0) has chosen (hidden until all have)") == 2
    assert "(seat 0): " not in before and "mulligan\n" not in before
    assert re.search(r"revealed\s+-\s+-", before)  # neither pick on the board yet
    # said at once, before Tick (the computer) goes on to its second choice
    assert after.startswith("Every choice is in; revealed with them:\n  Tick (seat 0): mulligan\n")


def test_after_a_hand_over_a_person_is_told_the_mulligan_revealed_while_away(run):
    """Two people: Tock takes a Mulligan, then picks, which reveals the choices on Tock's
    screen, saying the Mulligan. The screen is cleared for Tick, who is told it after Enter
    with the other moves made while away; Tock's screen never showed Tick's pick before."""
    typed = "\n\n\n\n" + "\nA\n" + "\nmulligan\nA\n" + "\nquit\n"
    out = run(*CLOCK, "--seat", "human", "--seat", "human", input=typed).output
    assert "Stopped after 5 moves" in out
    to_tick = out.rindex("Pass to Tick (seat 0)")
    at_tock = out[out.rindex("Pass to Tock (seat 1)") : to_tick]
    told = "Every choice is in; revealed with them:\n  Tock (seat 1): mulligan\n"
    assert told in at_tock and "Tick (seat 0): " not in at_tock.split(told)[0]
    assert "Since your last turn:\n  Tock (seat 1): mulligan\n" in out[to_tick:]


# -- a game among agents ----------------------------------------------------------------------
def _flat(text: str) -> str:
    """Text as one line of words (the terminal wraps at its width), without thinking times."""
    return " ".join(re.sub(r" \(\d+\.\d s\)", "", text).split())


@pytest.mark.parametrize(
    ("game", "told"),
    [("erd", "Combat of game 1, round 1:"), ("triangle-clock", "Round 1: shared")],
)
def test_a_game_among_agents_shows_each_reveal_as_it_happens(run, tmp_path, game, told):
    """With no person seated, every choice of a simultaneous decision is shown as soon as the
    rules reveal it, with what followed (a combat, a round's result), as a person seated
    sees it on the board before their next choice: not "has chosen" alone until the final
    board. ``--quiet`` shows the final board only, and a person seated the board."""
    saved = tmp_path / "game.json"
    args = ("play", game, "--seat", "random", "--seat", "random", "--seed", "1", "--no-history")
    out = _flat(run(*args, "--save", str(saved)).output)
    record = GameRecord.load(saved)
    states = record.states()
    blocks, choices = [], []
    for k, (seat, text) in enumerate(record.moves):
        if not secret(states[k], seat):  # a memorise step's: no choice to reveal
            continue
        choices.append(f"{game_seat(states[k], seat)}: {move_words(states[k], seat, text).plain}")
        if reveals(states[k], states[k + 1]):
            name = game_seat(states[k], seat)
            block = f"{name} has chosen; every choice revealed: {_flat(' '.join(choices))}"
            opened = heading(states[k], states[k + 1])  # the round the reveal ended opens
            blocks.append((block, "" if opened is None else f" {opened.plain}"))
            choices = []
    assert len(blocks) > 3 and any(told in block for block, _ in blocks)
    at = 0
    after = (" Red (seat 0) has chosen", " Tick (seat 0)", f" {states[0].game.title}")
    for block, opened in blocks:  # each reveal in turn, before the next choice (or the board)
        at = out.index(block, at) + len(block)
        assert out[at:].startswith(opened) and out[at + len(opened) :].startswith(after), out[
            at : at + 80
        ]
    assert out.count("every choice revealed") == len(blocks)
    quiet = run(*args, "--quiet").output
    assert "has chosen" not in quiet and "revealed:" not in quiet
    seated = ("play", game, "--seat", "human", "--seat", "random", "--seed", "1", "--no-history")
    typed, made = ("rush=LDD defense=LDD\n", 2) if game == "erd" else ("memorised\nA\n", 4)
    person = _flat(run(*seated, input=f"{typed}quit\n").output)
    assert f"Stopped after {made} moves" in person and "revealed:" not in person


def game_seat(state, seat: int) -> str:
    return seats_text(state.game, [seat])


PLAYED_MOVE = re.compile(r"^\S[^:]* \(seat \d\)(:| has chosen)")
"""A move's first line in ``meeple play``'s log among agents (what followed it is indented)."""


def _moves_and_headings(output: str, is_move, moves: int) -> list[str]:
    """A log's headings in order, each move between them as "move", up to the last move."""
    order: list[str] = []
    for line in output.splitlines():
        if order.count("move") == moves:
            break
        if is_move(line):
            order.append("move")
        elif line.startswith("── "):
            order.append(line)
    return order


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [
        ("erd", ("--best-of", "3"), 2),
        ("triangle-clock", (), 2),
        ("erosion", ("--players", "4"), 4),
        ("squad-combat", ("--players", "3"), 3),
    ],
)
def test_among_agents_play_heads_each_part_of_the_game_where_its_replay_does(
    run, tmp_path, monkeypatch, game, options, players
):
    """A watcher of agents sees where the match is (Erd's games and rounds, the Triangle
    Clock's rounds, Erosion's eras, Squad Combat's turns): the headings ``meeple replay``
    shows, between the same moves."""
    monkeypatch.setattr(console_module.console, "width", 1000)  # a move a line
    saved = str(tmp_path / "game.json")
    seats = ("--seat", "random") * players
    played = run("play", game, *options, *seats, "--seed", "2", "--no-history", "--save", saved)
    assert played.exit_code == 0, played.output
    moves = len(GameRecord.load(saved).moves)
    replayed = run("replay", saved, "--all")
    numbered = re.compile(r"^ *\d+\. ")
    heard = _moves_and_headings(played.output, PLAYED_MOVE.match, moves)
    assert heard == _moves_and_headings(replayed.output, numbered.match, moves)
    assert heard.count("move") == moves and len(heard) - moves >= 2, heard[:5]


def test_a_person_seated_sees_where_the_match_is_on_the_board_not_in_headings(run):
    """The board a person moves on says the game and round; a heading would say it twice."""
    seated = ("play", "erd", "--best-of", "3", "--seat", "human", "--seat", "random")
    result = run(*seated, "--seed", "1", "--no-history", input="rush=LDD defense=LDD\nquit\n")
    assert "game 1 of best of 3" in result.output and "round 1" in result.output
    assert not re.search(r"^── .* ──$", result.output, re.MULTILINE), result.output


def test_among_agents_the_memorise_step_reads_as_what_the_seats_did_not_as_a_reveal(
    run, tmp_path, monkeypatch
):
    """Both seats of The Triangle Clock memorise the order of shared symbols: a step with one
    move, nothing hidden in it to reveal, in play's log and in a seat's replay alike."""
    monkeypatch.setattr(console_module.console, "width", 1000)
    saved = tmp_path / "game.json"
    args = ("--seat", "random", "--seat", "random", "--no-history", "--save", str(saved))
    played = run(*CLOCK, *args).output.splitlines()
    replayed = run("replay", str(saved), "--all", "--seat", "0").output.splitlines()
    for first, last in ((1, 16), (17, 32)):
        for seat in ("Tick (seat 0)", "Tock (seat 1)"):
            said = f"{seat}: memorised the order of shared symbols for rounds {first} to {last}"
            assert said in played
            assert any(re.fullmatch(rf" *\d+\. {re.escape(said)}", line) for line in replayed)
    for log in (played, replayed):  # those four lines only: not a choice, nor a reveal
        assert sum("memorised" in line for line in log) == 4, [x for x in log if "memoris" in x]


# -- lines said at the prompt ----------------------------------------------------------------
@pytest.mark.parametrize("width", [60, 100])
def test_a_refused_move_and_the_stop_wrap_between_words_and_the_command_stays_whole(
    run, monkeypatch, width
):
    """'Not allowed: ...' and the stop's way to go on were printed unwrapped, so the terminal
    cut words at its last column ('this allocat' / 'ion uses 6' at 100 columns). They wrap
    between words, as the rest of the screen does, and the command to go on with is whole
    on a line of its own, to be copied."""
    monkeypatch.setattr(console_module.console, "width", width)
    prompt = "Red (seat 0) > "  # a person's Enter ends its line: what follows starts a line
    result = run(
        "play", "erd", "--seed", "1", "--seat", "human", "--seat", "random",
        input="rush=HHH defense=HHH\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [line.removeprefix(prompt) for line in result.output.splitlines()]
    commands = [line for line in lines if line.startswith("meeple play --resume ")]
    # A path longer than a line is a line of its own, whole, for the terminal to fold.
    said = [line for line in lines if line not in commands and " " in line.strip()]
    assert all(len(line) <= width for line in said), result.output
    assert "but this allocation uses 6. Type help for how to write a move." in " ".join(
        result.output.split()
    )
    (command,) = commands
    assert GameRecord.load(command.split()[-1]).game == "erd"


# -- 32.12 the thinking indicator ------------------------------------------------------------
def test_thinking_shows_who_and_the_seconds_then_goes():
    out = Console(file=io.StringIO(), force_terminal=True, width=60)
    with thinking("Blue (seat 1)", out=out):
        time.sleep(0.3)
    text = out.file.getvalue()
    assert "Blue (seat 1) is thinking... 0 s" in text
    assert text.endswith("\x1b[2K")  # the line is erased once the agent has moved


def test_an_agent_move_shows_the_indicator_while_it_searches(run, monkeypatch):
    screen = Console(file=io.StringIO(), force_terminal=True, width=80)
    monkeypatch.setattr(console_module, "console", screen)
    result = run(
        "play", "edges", "--board", "2x2", "--first", "1", "--seed", "1",
        "--seat", "human", "--seat", "mcts:seconds=0.3", input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Blue (seat 1) is thinking... 0 s" in screen.file.getvalue()
    assert "Blue (seat 1): " in result.output and " s)" in result.output  # time it took


# -- 32.13 after the game: menu and history ---------------------------------------------------
ONE_BY_ONE = ("play", "edges", "--board", "1x1", "--stash", "1/0/0", "--first", "0")


def test_the_menu_plays_again_with_seats_swapped_and_saves(run, tmp_path):
    saved = tmp_path / "mine.json"
    typed = f"L h0,0\nw\n{saved}\ns\nq\n"  # the second game: Red (random) moves, Blue quits
    result = run(*ONE_BY_ONE, "--seat", "human", "--seat", "random", "--seed", "3", input=typed)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.count("Play again (a), swap seats (s), save (w) or quit (q)? [q]:") == 2
    assert "Red: random Blue: human" in out and re.search(
        r"Stopped after 1 move\b", out
    )  # seats swapped
    record = GameRecord.load(saved)
    assert record.seats == ["human", "random"] and record.result is not None


def test_a_name_saved_to_without_a_suffix_gets_the_record_s(run, tmp_path):
    """'save (w)' to "zz" wrote a file named zz: a record is JSON, and its file says so."""
    typed = f"L h0,0\nw\n{tmp_path / 'zz'}\nq\n"
    result = run(*ONE_BY_ONE, "--seat", "human", "--seat", "random", "--seed", "3", input=typed)
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "zz").exists()
    assert GameRecord.load(tmp_path / "zz.json").seats == ["human", "random"]
    assert f"meeple replay {tmp_path / 'zz.json'}" in result.output  # never folded


def test_every_game_is_kept_in_the_history_and_listed(run, tmp_path, monkeypatch):
    monkeypatch.setattr(console_module.console, "width", 300)  # one line a game
    history = tmp_path / "history"  # the conftest points MEEPLE_HISTORY here
    run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--seed", "4")
    run("play", "edges", "--seat", "human", "--seat", "random", "--seed", "5", input="quit\n")
    records = {GameRecord.load(f).seed: f.name for f in history.glob("*.json")}
    assert sorted(records) == [4, 5]
    listing = run("history")
    assert listing.exit_code == 0, listing.output
    rows = {seed: next(r for r in listing.output.splitlines() if name in r)
            for seed, name in records.items()}  # fmt: skip
    assert "random, random" in rows[4] and "draw" in rows[4]
    assert "human, random" in rows[5] and "unfinished (" in rows[5]


def test_every_command_that_reads_a_saved_game_finds_one_of_the_history_by_its_name(run, tmp_path):
    """`meeple history` names its games by file name and says to replay one with `meeple
    replay FILE`: `analyse` and `solve --position` take the same name (`.json` may be left
    off), as `replay` and `play --resume` do, and a name that is nowhere says where it looked."""
    run("play", "edges", "--board", "2x2", "--seat", "random", "--seat", "random", "--seed", "4")
    (path,) = (tmp_path / "history").glob("*.json")
    for name in (path.name, path.stem):
        judged = run("analyse", name)
        assert judged.exit_code == 0, judged.output
        assert "Mistakes:" in judged.output
    solved = run("solve", "edges", "--position", path.name, "--no-cache")
    assert solved.exit_code == 0, solved.output
    assert "value " in solved.output
    missing = run("analyse", "no-such-game")
    assert missing.exit_code == 2
    assert "no file no-such-game, here or in the history folder" in missing.output


def test_the_history_lists_the_game_played_last_at_the_bottom(run, tmp_path, monkeypatch):
    """The README's promise: `meeple history` lists the games in the order they were played,
    the last one at the bottom (next to the prompt), and --last N keeps the N last."""
    monkeypatch.setattr(console_module.console, "width", 300)  # one line a game
    for seed in (4, 5, 6):
        run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--seed", str(seed))
    files = {GameRecord.load(f).seed: f for f in (tmp_path / "history").glob("*.json")}
    # Played a minute apart, seed 6 first and seed 4 last (the files' names aside).
    for minutes, seed in enumerate((6, 5, 4)):
        os.utime(files[seed], (time.time() - 600 + 60 * minutes,) * 2)
    rows = [line for line in run("history").output.splitlines() if ".json" in line]
    assert [next(s for s, f in files.items() if f.name in r) for r in rows] == [6, 5, 4]
    listed = run("history", "--last", "1").output.splitlines()
    (last,) = [line for line in listed if ".json" in line]
    assert files[4].name in last


def test_the_history_does_not_believe_a_file_edited_by_hand(run, tmp_path, monkeypatch):
    monkeypatch.setattr(console_module.console, "width", 300)
    run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--seed", "4")
    (path,) = (tmp_path / "history").glob("*.json")
    record = GameRecord.load(path)
    record.result = {**record.result, "winner_name": "Mallory"}
    record.save(path)
    (tmp_path / "history" / "junk.json").write_text("{")
    listing = run("history")
    assert listing.exit_code == 0 and "Mallory" not in listing.output
    assert "stored result is not the one its moves reach" in listing.output
    assert "is not JSON" in listing.output


def test_the_history_shows_each_file_name_whole_at_80_columns(run, tmp_path, monkeypatch):
    """The file column is what a person copies to replay a game: never cropped."""
    monkeypatch.setattr(console_module.console, "width", 80)
    run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--seed", "4")
    (path,) = (tmp_path / "history").glob("*.json")
    longest = path.with_name("261202-062932-triangle-clock.json")  # the longest game's name
    path.rename(longest)
    listing = run("history")
    assert listing.exit_code == 0, listing.output
    assert longest.name in listing.output
    # A seat is a word, never an agent's parameters folded mid-word ("flat:world s=60,...").
    run(*ONE_BY_ONE, "--seat", "mcts:iterations=10,c=1.4,rollout_limit=50", "--seat", "random")
    listing = run("history")
    assert "iterations" not in listing.output, listing.output
    rows = listing.output.splitlines()
    assert any(re.search(r"\bmcts\b", row) for row in rows), listing.output
    assert all(len(row) <= 80 for row in rows), listing.output


def test_the_history_wraps_its_cells_between_words_where_the_terminal_has_room(run, monkeypatch):
    """At 100 columns, beside a Triangle Clock file's name, Rich narrowed the game column
    below its option's flag and folded it mid-word ('--memorise-secon' / 'ds 5.0'): each
    column is now at least as wide as its longest word where the terminal has room."""
    monkeypatch.setattr(console_module.console, "width", 100)
    run(*CLOCK, "--memorise-seconds", "5", "--seat", "random", "--seat", "random", "--quiet")
    run("play", "erd", "--seat", "human", "--seat", "random", input="quit\n")  # unfinished
    listing = run("history")
    assert listing.exit_code == 0, listing.output
    rows = listing.output.splitlines()
    assert all(len(row) <= 100 for row in rows), listing.output
    words = set(listing.output.split())
    assert {"--memorise-seconds", "unfinished", "random,", "triangle-clock"} <= words, rows


def test_a_game_resumed_from_its_saved_file_goes_on_in_its_own_file_of_the_history(run, tmp_path):
    """A game played with --save is kept in the history too: resumed from its --save file
    once over, it was kept again in a second file, the history listing it twice ('Red wins
    3-1' two times). It goes on in the file it was kept in, as a game resumed from the
    history does, finished or not."""
    history = tmp_path / "history"
    over, stopped = tmp_path / "over.json", tmp_path / "stopped.json"
    edges = ("play", "edges", "--board", "2x2", "--first", "0")
    again = ("--seat", "random", "--seat", "random")
    run(*edges, "--seed", "4", *again, "--save", str(over))
    (finished,) = history.glob("*.json")
    resumed = run("play", "--resume", str(over), *again)
    assert resumed.exit_code == 0, resumed.output
    assert list(history.glob("*.json")) == [finished]
    assert GameRecord.load(finished) == GameRecord.load(over)
    typed = "L h0,0\nquit\n"
    run(*edges, "--seed", "5", "--seat", "human", "--seat", "random", "--save", str(stopped),
        input=typed)  # fmt: skip
    (unfinished,) = set(history.glob("*.json")) - {finished}
    assert run("play", "--resume", str(stopped), *again).exit_code == 0
    assert set(history.glob("*.json")) == {finished, unfinished}
    assert GameRecord.load(unfinished) == GameRecord.load(stopped)
    assert GameRecord.load(unfinished).replay().is_over


def test_a_history_folder_that_cannot_be_read_is_said(run, tmp_path, monkeypatch):
    """Not "No games yet": a file where the folder should be, or a folder it may not read,
    is named with what to do."""
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("")
    listing = run("history")
    assert listing.exit_code != 0 and "No games yet" not in listing.output
    assert "cannot read the history folder" in listing.output
    assert "Not a directory; set MEEPLE_HISTORY to a folder you can read" in listing.output
    (tmp_path / "locked").mkdir()
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "locked"))

    def refused(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(type(tmp_path), "iterdir", refused)  # as chmod 000 does, even for root
    listing = run("history")
    assert listing.exit_code != 0, listing.output
    assert " ".join(listing.output.split()).endswith(
        "Permission denied; set MEEPLE_HISTORY to a folder you can read"
    )


def test_a_history_that_cannot_be_written_says_how_to_choose_another(run, tmp_path, monkeypatch):
    """The game goes on, and the warning says what the person can change: they never chose
    the history's file, so "choose a file in a folder you can write to" told them nothing."""
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "a-file" / "history"))
    played = run(*ONE_BY_ONE, "--seat", "random", "--seat", "random")
    said = " ".join(played.output.split())
    assert played.exit_code == 0 and "Game over" in said, played.output
    assert "warning: not kept in the history: cannot save the record to" in said
    assert (
        said.count(
            "Not a directory; set MEEPLE_HISTORY to a folder you can write to, or play with "
            "--no-history"
        )
        == 1
    ), said
    # A name the system refuses (too long) is the same warning, not a game refused.
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / ("h" * 300)))
    played = run(*ONE_BY_ONE, "--seat", "random", "--seat", "random")
    said = " ".join(played.output.split())
    assert played.exit_code == 0 and "Game over" in said, played.output
    assert "File name too long; set MEEPLE_HISTORY to a folder you can write to" in said


def test_no_history_keeps_nothing(run, tmp_path):
    run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--no-history")
    assert not (tmp_path / "history").exists()
    assert "No games yet" in run("history").output


# -- 32.14 undo ------------------------------------------------------------------------------
def test_undo_takes_back_your_move_and_the_agents_reply(run, tmp_path):
    path = tmp_path / "g.json"
    edges = ("play", "edges", "--board", "2x2", "--first", "0", "--seed", "2", "--save", str(path))
    result = run(*edges, "--seat", "human", "--seat", "random", input="L h0,0\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Took back your move L h0,0 and 1 move after it." in result.output
    assert "Stopped after 0 moves" in result.output
    assert GameRecord.load(path).moves == []


def test_undo_is_refused_with_the_reason(run):
    first = run(
        "play", "edges", "--seed", "2", "--first", "0", "--seat", "human", "--seat", "random",
        input="undo\nquit\n",
    )  # fmt: skip
    assert "Cannot take back: you have not moved yet" in first.output
    erd = run(
        "play", "erd", "--seed", "1", "--seat", "human", "--seat", "random",
        input="rush=HHL defense=LDD\nundo\nquit\n",
    )  # fmt: skip
    assert "Cannot take back: a simultaneous decision was made" in erd.output.replace("\n", " ")
    assert "Stopped after 2 moves" in erd.output


def test_undo_after_a_hidden_draw_is_refused_and_after_a_plain_move_allowed():
    game = meeple.make("erosion")
    play = Playthrough(game, 1, ["human", "random"])
    draw = next(a for a in play.state.legal_actions(0) if str(a).startswith("redraw"))
    after = play.state.apply(0, draw)
    reason = why_no_take_back([play.state, after], [(0, str(draw))], 0)
    assert "something hidden from you has been shown" in reason
    plain = next(a for a in play.state.legal_actions(0) if str(a).startswith("weather"))
    assert why_no_take_back([play.state, play.state.apply(0, plain)], [(0, str(plain))], 0) == ""
    play.play(0, plain)
    assert take_back(play, 0, (0,)) == [(0, str(plain))]
    assert play.moves == [] and play.state == game.new_game(1)


def test_undo_is_refused_between_two_people():
    game = meeple.make("edges", board="2x2", first="0")
    play = Playthrough(game, 1, ["human", "human"])
    play.play(0, game.parse_action("L h0,0"))
    with pytest.raises(UndoRefused, match="2 people play at this terminal"):
        take_back(play, 0, (0, 1))


def test_a_game_resumed_from_the_history_goes_on_in_its_own_file(run, tmp_path):
    run("play", "edges", "--board", "2x2", "--seat", "human", "--seed", "6", input="quit\n")
    (path,) = (tmp_path / "history").glob("*.json")
    resumed = run("play", "--resume", str(path), "--seat", "random", "--seat", "random")
    assert resumed.exit_code == 0, resumed.output
    assert list((tmp_path / "history").glob("*.json")) == [path]
    assert GameRecord.load(path).replay().is_over


def test_a_game_is_replayed_and_resumed_by_the_name_the_history_lists(run, tmp_path):
    """meeple history lists file names and says to replay or resume one by them: the name
    alone is found in the history folder, from any working directory."""
    run("play", "edges", "--board", "2x2", "--seat", "human", "--seed", "6", input="quit\n")
    (path,) = (tmp_path / "history").glob("*.json")
    replayed = run("replay", path.name, "--all")
    assert replayed.exit_code == 0, replayed.output
    assert "seed 6" in replayed.output
    resumed = run("play", "--resume", path.name, "--seat", "random", "--seat", "random")
    assert resumed.exit_code == 0, resumed.output
    assert list((tmp_path / "history").glob("*.json")) == [path]
    assert GameRecord.load(path).replay().is_over


def test_a_mistyped_seat_is_answered_before_another_seat_s_wait_is_announced(
    run, tmp_path, monkeypatch
):
    """The other seat defaults to the hard level, which would solve Erd's rules first (half
    a minute): the typo is answered at once, with no word of a solve that will not happen."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "empty"))
    for seat, answer in [
        ("hrad", "no agent called 'hrad' (did you mean 'hard'?)"),
        ("mcts:iteratons=5", "agent 'mcts' has no parameter 'iteratons' (did you mean"),
    ]:
        result = run("play", "erd", "--seat", seat, "--quiet")
        assert result.exit_code != 0
        output = " ".join(result.output.split())
        assert answer in output
        assert "solving" not in output and "reading the solved game" not in output, output
    assert not (tmp_path / "empty").exists() or not any((tmp_path / "empty").iterdir())


def test_erds_hard_opponent_says_what_its_first_game_waits_for(run, tmp_path, monkeypatch):
    """Erd's hard level plays the solved game: the first game under new rules solves them
    (half a minute for 200 rounds) and says so; later ones read the solution back."""
    game = meeple.make("erd", round_limit=4)
    shared = os.environ["MEEPLE_CACHE_DIR"]  # the test run's, where other tests solve it too
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "empty"))
    solving = preparing_agents(game, [parse_spec("exploit:solve=true")])
    assert solving is not None and "solving Erd under these rules" in solving
    assert preparing_agents(game, [parse_spec("heuristic")]) is None
    monkeypatch.setenv("MEEPLE_CACHE_DIR", shared)
    args = ("play", "erd", "--seat", "random", "--round-limit", "4", "--best-of", "1")
    first = run(*args, "--seed", "3", "--quiet")
    assert first.exit_code == 0, first.output
    again = run(*args, "--seed", "4", "--quiet")
    assert again.exit_code == 0, again.output
    assert "reading the solved game" in again.output and "solving" not in again.output
    assert "exploit:allowance=0.1" in again.output


# -- the list of legal moves ----------------------------------------------------------------------
def test_the_legal_moves_fit_80_columns_and_break_between_moves():
    """Erd's 70 allocations and Erosion's choices were printed as lines longer than a
    terminal, broken by it in the middle of a move; one move read '1 legal moves'."""
    from meeple.core.registry import make
    from meeple.interfaces.prompt_words import describe_moves

    for name in ("erd", "edges", "squad-combat", "erosion"):
        state = make(name).new_game(1)
        moves = [str(a) for a in state.legal_actions(state.to_act[0])]
        text = describe_moves(moves)
        assert all(len(line) <= 80 for line in text.splitlines()), text
        listed = " ".join(line.strip() for line in text.splitlines()[1:])
        if text.splitlines()[0].endswith("):"):  # grouped: a first word, then one of the rest
            assert all(move.split(" ", 1)[1] in listed.split() for move in moves), text
        else:  # a plain list: every move whole on one line
            assert all(any(m in line for line in text.splitlines()) for m in moves), text
    assert describe_moves(["pass"]) == "1 legal move: pass"


def test_a_person_is_told_once_how_to_use_the_prompt(run):
    """Edges' first screen showed the board and a bare prompt: nothing said what to type."""
    result = run(
        "play", "edges", "--board", "2x2", "--first", "0", "--seat", "human",
        "--seat", "random", "--seed", "1", input="L h0,0\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    guide = "Type a move, or help (how to write one), moves (the legal ones), quit."
    assert result.output.count(guide) == 1
    assert result.output.index(guide) < result.output.index("Red (seat 0) > ")


def test_the_banner_names_the_level_a_seat_was_given_as(run):
    """'--level easy' showed 'Blue: greedy', and the default 'Blue: uct:iterations=30000':
    a person did not see the level they chose."""
    easy = run(
        "play", "edges", "--board", "2x2", "--seat", "human", "--seat", "easy", "--seed", "1",
        "--no-history", input="quit\n",
    )  # fmt: skip
    assert "Red: human  Blue: easy (greedy)" in easy.output, easy.output
    agent = run(
        "play", "edges", "--board", "2x2", "--seat", "human", "--seat", "random", "--seed", "1",
        "--no-history", input="quit\n",
    )  # fmt: skip
    assert "Red: human  Blue: random" in agent.output and "(random)" not in agent.output


def test_a_game_of_the_history_is_found_without_json_and_a_missing_one_is_said(run, tmp_path):
    """The name `meeple history` lists, with or without its .json; a name that is no game
    is told with where to look, by replay and resume alike."""
    run(*ONE_BY_ONE, "--seat", "random", "--seat", "random", "--seed", "4")
    (path,) = (tmp_path / "history").glob("*.json")
    replayed = run("replay", path.stem, "--all")
    assert replayed.exit_code == 0 and "seed 4" in replayed.output, replayed.output
    said = (
        "no file yesterday.json, here or in the history folder (`meeple history` lists its games)"
    )
    for missing in (run("replay", "yesterday.json"), run("play", "--resume", "yesterday.json")):
        assert missing.exit_code != 0
        assert said in " ".join(missing.output.split()), missing.output


def test_an_erd_agent_that_may_not_solve_announces_no_solve(run, tmp_path, monkeypatch):
    """``equilibrium`` without ``solve=true`` stops at once where its rules are not solved,
    naming the command that solves them: it never says it is solving them first."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "empty"))
    game = meeple.make("erd", round_limit=4)
    assert preparing_agents(game, [parse_spec("equilibrium")]) is None
    result = run("play", "erd", "--seat", "random", "--seat", "equilibrium", "--round-limit", "4")
    output = " ".join(result.output.split())
    assert result.exit_code != 0
    assert "solve it first" in output and "meeple solve erd" in output
    assert "solving Erd" not in output, output


def test_a_command_of_another_game_is_refused_saying_where_it_is_one(run, monkeypatch):
    """A word that is a prompt command of other games only ('hint' was Edges' alone) was
    refused as a bad move, as if it were a move to write differently: the refusal says where
    it is a command."""
    monkeypatch.setattr(prompt_words, "_COMMANDS", list(prompt_words._COMMANDS))
    prompt_command("ruler", help="measure an edge", games=("edges",))(lambda turn, rest: False)
    result = run("play", "erosion", "--seat", "human", "--seat", "random", "--seed", "1",
                 input="ruler\nquit\n")  # fmt: skip
    said = " ".join(result.output.split())
    assert "; ruler is a command in Edges only. Type help for how to write a move." in said, said


@pytest.mark.parametrize("game", ["erd", "erosion", "squad-combat"])
def test_hint_at_the_prompt_gives_the_browser_s_hint_from_the_seat_s_view(run, game):
    """'hint' was Edges' alone at the terminal, where the browser hints in every game: it
    gives the same judge's move and why. Erd's computer in seat 0 has chosen first: its
    secret allocation is not in what the hint is judged from (the same hint as with no
    move made)."""
    seats = ["random", "human"] if game == "erd" else ["human", "random"]
    seat = seats.index("human")
    first = {} if game == "erd" else {"first": "0"}  # the person moves first
    flags = [f"--{name}={value}" for name, value in first.items()]
    result = run("play", game, "--seat", seats[0], "--seat", seats[1], "--seed", "1", *flags,
                 input="hint\nquit\n")  # fmt: skip
    said = " ".join(result.output.split())
    state = meeple.make(game, **first).new_game(1)
    assert seat in state.to_act
    expected = hint([state], [], seat, hint_judge(state.game, HINT_ITERATIONS))
    assert f"Hint: {expected['best']}: {expected['why']}" in said, said
    assert "is a command in" not in said


def test_a_computer_whose_search_this_machine_has_not_compiled_says_so_before_the_game(
    run, monkeypatch
):
    """Squad Combat's first computer move took 33 s on a fresh install, saying only
    "thinking": what the computer's agent runs is compiled before the game, announced, where
    ``meeple compile`` has not marked it compiled; where it has, nothing is said or done."""
    compiled: list[tuple[str, str]] = []
    monkeypatch.setattr(play_cli, "warm_spec", lambda name, spec: compiled.append((name, spec)))
    for marked in (False, True):
        monkeypatch.setattr(play_cli, "needs_compiling", lambda job, marked=marked: not marked)
        compiled.clear()
        result = run("play", "squad-combat", "--seat", "human", "--seat", "hard", "--seed", "1",
                     "--first=0", input="quit\n")  # fmt: skip
        said = " ".join(result.output.split())
        if marked:
            assert compiled == [] and play_cli.COMPILING not in said
        else:
            hard = small_spec(level_spec(meeple.make("squad-combat"), "hard"))
            assert compiled == [("squad-combat", hard)], compiled
            assert play_cli.COMPILING in said, said


def test_what_is_typed_at_a_hand_over_is_answered_not_swallowed(run):
    """Text typed at "Pass to ...; press Enter when ready" vanished without a word (quit
    too): a move is not taken there, and the screen says what is; quit stops."""
    allocation = "rush=HHL defense=LDD"
    result = run("play", "erd", "--seat", "human", "--seat", "human", "--seed", "1",
                 input=f"{allocation}\n\n{allocation}\nquit\n")  # fmt: skip
    out = " ".join(result.output.split())
    assert "Only Enter here (or quit): then Red (seat 0) sees the board and moves." in out, out
    assert "Stopped after 1 move" in out, out


def test_an_erd_allocation_that_can_lose_by_the_mercy_rule_is_played_only_when_typed_again(run):
    """A newcomer lost game 1 by the mercy rule with no word before the reveal: the terminal
    says how the allocation can lose (State.move_warnings) and plays it once typed again."""
    typed = "rush=HLD defense=HHD\nrush=HLD defense=HHD\nquit\n"
    out = run(
        "play", "erd", "--seat", "human", "--seat", "random", "--seed", "3", input=typed
    ).output  # fmt: skip
    said = " ".join(out.split())
    assert "Careful: rush=HLD defense=HHD can lose game 1 by the mercy rule" in said, said
    assert "Type it again to play it, or another move." in said
    assert said.count("Careful:") == 1 and "Stopped after 2 moves" in said, said
