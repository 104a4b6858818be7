"""Issue 34.2 over all five games: a position (``state.position()``) holds the whole state,
``game.from_position`` reads it back to an equal state that plays on identically, bad
positions are refused with a PositionError naming the first problem, and a seat's view
position hides exactly what the seat may not know."""

from __future__ import annotations

import importlib
import json
import os
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import (
    changed_position,
    check_changed_position,
    check_plays_on,
    check_position,
    check_rules_example,
    playout,
)
from meeple.core.errors import PositionError, RecordError
from meeple.core.game import Game, State
from meeple.core.position import (
    UNKNOWN,
    position_argument,
    position_game,
)
from meeple.core.record import GameRecord, Playthrough

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("edges", {}),
    ("edges", {"double": True}),
    ("edges", {"board": "3x3", "pie": False}),
    ("erd", {}),
    ("erd", {"rules": "original", "best_of": 3}),
    ("erd", {"rules": "0.02", "turret_lifetime": "one_combat"}),
    ("erosion", {}),
    ("erosion", {"players": 4, "advanced": True}),
    ("erosion", {"players": 3, "legend": "advanced"}),
    ("squad-combat", {}),
    ("squad-combat", {"players": 3}),
    ("triangle-clock", {}),
    ("triangle-clock", {"items": "none/all"}),
]
IDS = [f"{name}{'-' if opts else ''}{'-'.join(map(str, opts.values()))}" for name, opts in CONFIGS]


@cache
def game_of(index: int) -> Game[Any, Any, Any]:
    """The game of ``CONFIGS[index]`` (games are immutable, so shared)."""
    name, options = CONFIGS[index]
    return meeple.make(name, **options)


def random_states(index: int, seed: int, count: int) -> list[State[Any]]:
    """Up to ``count`` states spread over one random game."""
    states = playout(game_of(index).new_game(seed), random.Random(seed))
    step = max(1, len(states) // count)
    return states[::step]


EXAMPLES = 6 * (100 if os.environ.get("MEEPLE_FUZZ") == "long" else 1)
"""Random games per configuration: about 1,500 states in all; `make fuzz` plays 100 times more."""


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**31))
@pytest.mark.fuzz
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_position_reads_back_to_an_equal_state(index: int, seed: int) -> None:
    """from_position(position()) == state, and it writes the identical text again; a
    seat's view position is the same for every state the seat cannot tell from the true one
    (its determinizations), so it leaks nothing, and with nothing hidden it says what the
    whole position says (conformance.check_position)."""
    for state in random_states(index, seed, 20):
        check_position(state)


CHANGES = 40
"""Positions changed by hand per example of the test below."""


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**31))
@pytest.mark.fuzz
@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_position_changed_by_hand_is_refused_or_plays_on(index: int, seed: int) -> None:
    """A position is outside input (a file, an uploaded record's start): changed anywhere
    (a seat or a count out of range, a value of another kind, a card dropped or repeated, a
    line dropped), it is refused with a one-line PositionError, or it is a state that every
    seat and a spectator can be shown and that plays on, never one that fails later
    (conformance.check_changed_position)."""
    game = game_of(index)
    rng = random.Random(seed)
    read = 0
    for state in random_states(index, seed, 4):
        for _ in range(CHANGES // 4):
            text = changed_position(state.position(), rng, game.num_players)
            read += check_changed_position(game, text, rng)
    assert read < CHANGES  # most changes are caught: the test would notice the reading lax


ERD_GAME = '{"winner": 0, "reason": "rush", "round": 1, "detail": "?"}'


@pytest.mark.parametrize(
    ("name", "line", "changed"),
    [
        ("erosion", "turn: 1\n", "turn: 40000\n"),  # the compiled rules hold int16
        ("squad-combat", "rolls: 0\n", "rolls: 2147483648\n"),  # int32
        ("triangle-clock", '"score": 0}', '"score": 40000}'),
        ("erd", "games: []", f"games: [{ERD_GAME}]"),  # no figures in the sentence
    ],
)
def test_a_position_past_what_the_compiled_rules_hold_is_refused_by_them(
    name: str, line: str, changed: str
) -> None:
    """A position the rules read but the compiled twin cannot hold (a count past its
    integer width, a sentence it takes figures from) is refused by the twin's ``encode``
    with a PositionError saying so, as a searching agent given the position meets it (one
    line at the terminal), never numpy's OverflowError."""
    game = meeple.make(name)
    state = game.from_position(game.new_game(0).position().replace(line, changed, 1))
    rules = importlib.import_module(f"meeple.games.{name.replace('-', '_')}.compiled.rules")
    with pytest.raises(PositionError, match="compiled rules cannot hold this position"):
        rules.encode(state)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_a_game_set_up_from_a_position_plays_on_identically(index: int) -> None:
    """The dice, draws and reshuffles still to come are part of the position: the same
    random moves from the read-back state reach the same end, move for move."""
    for seed in range(3):
        check_plays_on(game_of(index), seed)


def lines_of(text: str) -> dict[str, Any]:
    """The fields of a position, decoded."""
    out = {}
    for line in text.splitlines()[1:]:
        name, _, value = line.partition(":")
        out[name] = json.loads(value)
    return out


def with_field(text: str, name: str, value: Any) -> str:
    """The position with one field's value replaced."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(f"{name}:"):
            lines[k] = f"{name}: {json.dumps(value)}"
            return "\n".join(lines)
    raise AssertionError(f"no field {name}")


def refused(game: Game[Any, Any, Any], text: object) -> str:
    """The message of the PositionError ``text`` is refused with (a one-liner)."""
    with pytest.raises(PositionError) as caught:
        game.from_position(text)  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("index", [0, 3, 6, 9, 11], ids=[IDS[i] for i in (0, 3, 6, 9, 11)])
def test_malformed_positions_are_refused_naming_the_problem(index: int) -> None:
    """Each way a text can be wrong gets its own message (never another exception)."""
    game = game_of(index)
    state = random_states(index, 1, 3)[1]
    text = state.position()
    first_field = text.splitlines()[1].partition(":")[0]
    assert "position is text" in refused(game, 42)
    assert "empty" in refused(game, "  \n ")
    assert "starts with the line" in refused(game, "hello\n" + text)
    other = "edges" if game.name != "edges" else "erd"
    assert f"of {other!r}" in refused(game, text.replace(game.name, other, 1))
    assert "twice" in refused(game, text + text.splitlines()[1])
    assert "is not JSON" in refused(game, with_field(text, first_field, 0).replace(": 0", ": [1,"))
    # Past the syntax: an integer over Python's 4,300-digit limit, nesting past its
    # recursion limit (each was an AttributeError, and a server's 500 in an uploaded record).
    assert "too many digits" in refused(
        game, with_field(text, first_field, 0).replace(": 0", ": " + "9" * 5000)
    )
    assert "nested too deeply" in refused(
        game, with_field(text, first_field, 0).replace(": 0", ": " + "[" * 3000)
    )
    assert f"no {first_field!r}" in refused(
        game, "\n".join(line for line in text.splitlines() if not line.startswith(first_field))
    )
    assert "no field 'colour'" in refused(game, text + "colour: 3")
    assert "with options" in refused(
        game, text.replace("position\n", 'position\noptions: {"x": 1}\n')
    )
    assert "for analysis only" in refused(game, state.view_position(0))


@pytest.mark.parametrize(
    ("index", "field", "change", "expected"),
    [
        (0, "stashes", lambda v: ["5/5/5", *v[1:]], "pyramids placed and in stash"),
        (0, "turn", lambda v: v + 1, "turn is"),
        (0, "board", lambda v: [*v, v[0]], "holds two pyramids"),
        (0, "order", lambda v: ["Red", "Red"], "turn order"),
        (0, "board", lambda v: ["L h9,9 Red"], "no edge h9,9"),
        (3, "sides", lambda v: [{**v[0], "reserve": v[0]["reserve"] + "H"}, v[1]], "owns"),
        (3, "round", lambda v: 0, "round 0"),
        (3, "sides", lambda v: [{**v[0], "reserve": "HX"}, v[1]], "'X'"),
        (6, "hands", lambda v: [[*v[0], v[1][0]], *v[1:]], "twice"),
        (6, "hands", lambda v: [v[0][1:], *v[1:]], "missing"),
        (6, "hands", lambda v: [[*v[0][:-1], "ZZ9"], *v[1:]], "'ZZ9' is not a process card"),
        (6, "current", lambda v: 7, "current is seat 7"),
        (9, "hands", lambda v: [[*v[0], "slash"], *v[1:]], "Red's card slash is there"),
        (9, "hands", lambda v: [v[0][1:], *v[1:]], "times, but the game has it"),
        (9, "hands", lambda v: [["no-such-card"], *v[1:]], "'no-such-card' is not a card"),
        (9, "rolls", lambda v: "many", "expected a whole number"),
        (11, "seats", lambda v: [{**v[0], "hand": v[1]["hand"]}, v[1]], "the game has it once"),
        (11, "seats", lambda v: [{**v[0], "score": True}, v[1]], "expected a whole number"),
        (11, "phase", lambda v: "fourth", "not one of"),
        (11, "orders", lambda v: [[*v[0][:-1], v[0][0]], v[1]], "sixteen symbols"),
    ],
)
def test_impossible_positions_are_refused_naming_the_problem(
    index: int, field: str, change: Any, expected: str
) -> None:
    """Every card exactly once, counts possible, values of the right kind."""
    game = game_of(index)
    state = random_states(index, 2, 4)[1]
    text = state.position()
    message = refused(game, with_field(text, field, change(lines_of(text)[field])))
    assert expected in message


def test_squad_combat_stack_holds_only_what_the_rules_put_there() -> None:
    """A card played alone, and above it at most one edge, played in the reaction window
    of the action or attack below by the seat whose window is open; an attacking edge only
    by the attacker. Read otherwise, the game went on from a stack no game reaches: swapped,
    the attack resolved first and ended the game with the edge still on the stack, a
    position that did not read back."""
    game = game_of(9)
    state = next(s for s in playout(game.new_game(5), random.Random(5)) if len(s.stack) == 2)
    text = state.position()
    attack, edge = lines_of(text)["stack"]
    assert (attack["card"], edge["card"]) == ("heavy-blow", "battle-cry")
    assert game.from_position(text) == state
    spare = lines_of(text)["hands"][0][0]
    hand = lines_of(text)["hands"][0][1:]
    for stack, expected in [
        ([edge, attack], "battle-cry (attacking) answers an attack, so it is performed only above"),
        ([attack | {"windows": None}, edge], "whose reaction window is not the one open"),
        ([attack | {"windows": [1]}, edge], "whose reaction window is not the one open"),
        ([attack, edge | {"windows": [1]}], "only actions and attacks open reaction windows"),
    ]:
        assert expected in refused(game, with_field(text, "stack", stack))

    def above(card: str) -> str:
        """Red plays ``card`` from its deck in place of the Battle Cry (which goes there),
        so every card is still there once."""
        decks = lines_of(text)["decks"]
        decks[0][decks[0].index(card)] = "battle-cry"
        return with_field(
            with_field(text, "decks", decks), "stack", [attack, edge | {"card": card}]
        )

    assert "only an edge is played above a card" in refused(game, above("slash"))
    # Parry (defending) in Red's own window, Red the attacker.
    assert "parry (defending) is played only by the defending side" in refused(game, above("parry"))
    three = with_field(text, "stack", [attack, edge, {**edge, "card": spare}])
    assert "3 cards are performed at once" in refused(
        game, with_field(three, "hands", [hand, *lines_of(text)["hands"][1:]])
    )


def test_erosion_tie_is_broken_by_the_steps_the_era_s_end_sets() -> None:
    """Each tied seat that drew a card guesses, in the tie's order, then the tie is settled;
    or the closest guesser alone chooses. A guess by a seat outside the tie was read, and
    the game failed at that guess (a ValueError, not a PositionError)."""
    game = meeple.make("erosion", players=3)
    state = next(s for s in playout(game.new_game(3), random.Random(3)) if s.tie is not None)
    text = state.position()
    fields = lines_of(text)
    assert fields["tie"]["seats"] == [0, 2]
    assert [step["kind"] for step in fields["agenda"]] == ["guess", "guess", "settle_tie"]
    tie = fields["tie"]
    settle = {"kind": "settle_tie", "seat": -1}
    for field, value, expected in [
        ("agenda", [{"kind": "guess", "seat": 1}, settle], "the agenda of the tie is guess 1"),
        ("agenda", [{"kind": "guess", "seat": 2}, settle], "it is guess 0, guess 2, settle_tie"),
        ("agenda", [{"kind": "guess", "seat": 0}, {"kind": "guess", "seat": 2}], "settle_tie"),
        ("agenda", [{"kind": "choose", "seat": 0}], "once every guess is made"),
        ("agenda", [{"kind": "choose", "seat": 0}, settle], "choosing is a tie's last step"),
        ("tie", tie | {"guesses": [0, 5]}, "the tie's guesses are made by [2]"),
    ]:
        assert expected in refused(game, with_field(text, field, value))
    # Seat 0 has guessed: seat 2's guess and the settling are left.
    guessed = with_field(text, "tie", tie | {"guesses": [5, 0]})
    agenda = [{"kind": "guess", "seat": 2}, settle]
    assert game.from_position(with_field(guessed, "agenda", agenda)).tie.guesses == (5, 0)
    both = with_field(text, "tie", tie | {"guesses": [5, 3]})
    choose = [{"kind": "choose", "seat": 2}]
    assert game.from_position(with_field(both, "agenda", choose)).agenda[0].seat == 2
    choose = [{"kind": "choose", "seat": 1}]
    assert "by a tied seat" in refused(game, with_field(both, "agenda", choose))


def test_erosion_pays_only_for_a_rock_in_the_river() -> None:
    """A pay step names the River rock being transported and the rocks left to pay. One
    naming no card (``null``, read as -1) was read, paid for with the last card's rock type
    (Python's index -1), and failed taking that card from the River (a ValueError)."""
    game = meeple.make("erosion")
    state = next(
        s
        for s in playout(game.new_game(0), random.Random(0))
        if s.agenda and s.agenda[0].kind == "pay"
    )
    text = state.position()
    agenda = lines_of(text)["agenda"]
    river = lines_of(text)["river"]
    assert agenda[0]["card"] in river
    outside = next(c for c in lines_of(text)["hands"][0] if c not in river)
    for change in ({"card": None}, {"card": outside}, {"number": 0}):
        changed = with_field(text, "agenda", [agenda[0] | change, *agenda[1:]])
        assert "a pay step pays for a rock in the River" in refused(game, changed)


def test_view_positions_mark_the_unknowns() -> None:
    """Squad Combat: the other hand and every deck are '?' cards, the seed is '?'; the
    seat's own hand is written out."""
    game = game_of(9)
    state = game.new_game(5)
    fields = lines_of(state.view_position(0))
    assert fields["seed"] == UNKNOWN
    assert fields["hands"][1] == [UNKNOWN] * len(state.hands[1])
    assert UNKNOWN not in fields["hands"][0]
    assert all(card == UNKNOWN for deck in fields["decks"] for card in deck)


def test_the_example_positions_in_the_rules_read() -> None:
    """Each game's rules.md shows a position under "Position notation" that reads."""
    for name in ("edges", "erd", "erosion", "squad-combat", "triangle-clock"):
        check_rules_example(meeple.make(name))


@pytest.mark.parametrize("index", [0, 3, 6, 9, 11], ids=[IDS[i] for i in (0, 3, 6, 9, 11)])
def test_a_game_started_from_a_position_is_recorded_and_replays(index: int, tmp_path) -> None:
    """A record keeps the start position: it replays (through a file) to the same state,
    and a start position that does not read is a RecordError."""
    game = game_of(index)
    start = random_states(index, 4, 5)[2]
    play = Playthrough(game, 99, start=start.position())
    assert play.state == start
    rng = random.Random(4)
    for _ in range(6):
        if play.state.is_over:
            break
        seat = rng.choice(play.state.to_act)
        play.play(seat, rng.choice(play.state.legal_actions(seat)))
    path = tmp_path / "game.json"
    play.record(pending=True).save(path)
    record = GameRecord.load(path)
    assert record.start == start.position()
    assert record.replay() == play.state
    assert Playthrough.from_record(record).state == play.state
    broken = record.model_copy(update={"start": record.start.replace("position", "posture", 1)})
    with pytest.raises(RecordError, match="start position does not read"):
        broken.replay()


def test_a_record_leaves_out_only_moves_not_a_start_positions_submission() -> None:
    """An Erd position with one seat's allocation already made: the record of the game
    started there has no move to leave out, and the allocation stays in its start."""
    game = game_of(3)
    state = game.new_game(1).apply(0, game.parse_action("rush=HHL defense=LLD"))
    play = Playthrough(game, 1, start=state.position())
    assert play.record().moves == []
    play.play(1, game.parse_action("rush=LDD defense=HHD"))
    assert play.record().replay() == play.state


def test_a_position_argument_is_the_text_or_a_file_holding_it(tmp_path) -> None:
    """--position takes the text or a file with it; a file holding something else (a
    record) is left to the caller; anything else is refused saying what is expected."""
    state = game_of(3).new_game(2)
    text = state.position()
    assert position_argument(text) == text
    holder = tmp_path / "start.txt"
    holder.write_text(text, encoding="utf-8")
    assert position_argument(str(holder)) == text
    record = tmp_path / "game.json"
    record.write_text('{"format": "meeple-record/1"}', encoding="utf-8")
    assert position_argument(str(record)) is None
    with pytest.raises(PositionError, match="neither a position"):
        position_argument("rush=HHL defense=LLD")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"meeple erd position\n\xff")
    with pytest.raises(PositionError, match="not UTF-8"):
        position_argument(str(bad))


def test_the_game_of_a_position_takes_its_options_unless_given() -> None:
    """With no options the position's own make the game; given ones must match it."""
    state = game_of(2).new_game(3)  # edges 3x3 without the pie rule
    text = state.position()
    game = position_game("edges", text)
    assert game.from_position(text) == state
    with pytest.raises(PositionError, match="with options"):
        position_game("edges", text, {"board": "3x3"}).from_position(text)


@pytest.mark.parametrize("index", [3, 6, 9, 11], ids=[IDS[i] for i in (3, 6, 9, 11)])
def test_a_spectators_view_position_knows_less_than_any_seat(index: int) -> None:
    """The spectator's view position marks at least every unknown a seat's view marks."""
    for state in random_states(index, 6, 6):
        spectator = state.view_position(None)
        assert spectator.splitlines()[0].endswith("view of spectator")
        for seat in range(state.game.num_players):
            assert spectator.count(f'"{UNKNOWN}"') >= state.view_position(seat).count(
                f'"{UNKNOWN}"'
            )
