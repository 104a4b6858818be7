"""Checks every game must pass, whatever its rules: the core contracts, played out.

:func:`check_game` runs them all on one game (a game added from outside meeple calls it from
its own tests: docs/new-game.md). Each piece can also be run alone, as the built-in games'
tests do over many more seeds:

- :func:`check_playthrough` plays a random game and checks at every step that legal actions
  apply, illegal ones raise and change nothing, notation and integer ids round-trip, views
  are JSON-safe and depend only on what the seat (or a spectator) may know, and the record
  replays to the identical final state;
- :func:`check_position` and :func:`check_plays_on`: a position reads back to an equal state
  that plays on identically, and a seat's view position leaks nothing;
- :func:`parses_or_refuses` over :data:`BAD_TEXTS`: any text is an action that round-trips
  or a one-line NotationError;
- :func:`check_immutable`: a state is frozen data, and nothing a call returns aliases it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Sequence
from typing import Any

from meeple.core.errors import IllegalAction, MeepleError, NotationError, PositionError
from meeple.core.game import MAX_ACTION_TEXT, Game, State
from meeple.core.options import describe_options
from meeple.core.position import position_options
from meeple.core.record import GameRecord, Playthrough


def random_playthrough(game: Game, seed: int, max_steps: int = 100_000) -> Playthrough:
    """Play a game with uniformly random legal actions from a seeded stream."""
    play = Playthrough(game, seed)
    _play_randomly(play, seed, max_steps)
    return play


class _Unrecorded:
    """A game played with no record kept: a Playthrough's state and play, and the states
    it went through."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.state: State[Any] = game.new_game(seed)
        self.states = [self.state]

    def play(self, player: int, action: Any) -> State[Any]:
        self.state = self.state.apply(player, action)
        self.states.append(self.state)
        return self.state


def random_states(game: Game, seed: int, max_steps: int = 100_000) -> list[State[Any]]:
    """Every state of :func:`random_playthrough`'s game (the same seeded choices, in the
    same order), the last one over, without the record it keeps: for checks of the states
    alone, where keeping the record, or replaying it, was a third of the cost."""
    play = _Unrecorded(game, seed)
    _play_randomly(play, seed, max_steps)
    return play.states


def random_end(game: Game, seed: int, max_steps: int = 100_000) -> State[Any]:
    """The last state of :func:`random_states`."""
    return random_states(game, seed, max_steps)[-1]


def _play_randomly(play: Playthrough | _Unrecorded, seed: int, max_steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(max_steps):
        if play.state.is_over:
            return
        # Any seat of a simultaneous decision may submit first: vary the order.
        player = rng.choice(play.state.to_act)
        play.play(player, rng.choice(play.state.legal_actions(player)))
    raise AssertionError(f"{play.game.name} did not end within {max_steps} actions (seed {seed})")


def check_state(state: State[Any], rng: random.Random) -> None:
    """Contract checks on one state (raises AssertionError naming the broken contract)."""
    game = state.game
    to_act = state.to_act
    assert state.is_over == (not to_act), "is_over must mean nobody is to act"
    watched = state.view(None)  # once: each seat's re-deal below is compared with it
    for player in range(game.num_players):
        view = state.view(player)
        changed = _changed_by_json(view, _json_safe(view, f"view({player})"), f"view({player})")
        assert changed is None, f"view({player}) is not JSON-safe: {changed}"
        if not game.perfect_information:
            sample = state.determinize(player, rng)
            assert sample.view(player) == view, (
                f"determinize({player}) changed what seat {player} sees: the view depends on "
                "something the seat does not know, or determinize forgot something it does"
            )
            # A spectator (the server's watchers) knows only what every seat knows.
            assert sample.view(None) == watched, (
                f"determinize({player}) changed what a spectator sees: view(None) shows "
                "something hidden from a seat"
            )
            # Agents see only what a player sees: two states that look the same to a seat
            # must give the same samples for the same random stream.
            stream = rng.randrange(2**32)
            assert state.determinize(player, random.Random(stream)) == sample.determinize(
                player, random.Random(stream)
            ), (
                f"determinize({player}) depends on hidden parts of the state it was given "
                "(sample the unknown from a canonical order, e.g. sorted, not the true one)"
            )
        legal = state.legal_actions(player)
        if player not in to_act:
            assert not legal, f"seat {player} is not to act but has legal actions"
            continue
        assert legal, f"seat {player} is to act but has no legal action"
        try:
            hash(legal[0])
        except TypeError:
            # Search keys its statistics by action (MCTS's children), so it would fail there.
            raise AssertionError(
                f"{type(legal[0]).__name__} is not hashable: an action is frozen data, such "
                "as a @dataclass(frozen=True)"
            ) from None
        ids = [game.action_id(a) for a in legal]
        assert len(set(ids)) == len(ids), "two legal actions share an integer id"
        for action, action_id in zip(legal, ids, strict=True):
            assert 0 <= action_id < game.num_actions, f"id {action_id} of {action} out of range"
            assert game.action_from_id(action_id) == action, f"id of {action} does not round-trip"
            assert game.parse_action(str(action)) == action, f"{action} does not round-trip"
        # An action that is not legal now must be refused, leaving the state as it was.
        # Sampling ids (rather than listing every illegal one) keeps this cheap for games
        # with large action encodings.
        legal_ids = set(ids)
        candidates = (rng.randrange(game.num_actions) for _ in range(20))
        illegal = next((i for i in candidates if i not in legal_ids), None)
        if illegal is not None:
            before = state.view(player)
            action = game.action_from_id(illegal)
            try:
                state.apply(player, action)
            except IllegalAction as exc:
                assert str(exc), "IllegalAction needs a reason"
            else:
                raise AssertionError(f"{action} is not in legal_actions but was accepted")
            assert state.view(player) == before, "a refused action changed the state"
    _json_safe(watched, "view(None)")
    result = _json_safe(state.result, "result")
    assert isinstance(result, dict) and {"winner", "reason"} <= result.keys(), (
        f"result must be a dict with 'winner' and 'reason' (None while the game goes on); "
        f"got {result!r:.200}"
    )
    assert len(state.returns) == game.num_players, (
        f"returns must give one number per seat ({game.num_players}); got {state.returns!r:.200}"
    )


def _json_safe(value: Any, what: str) -> Any:
    """``value`` read back from its JSON; AssertionError naming ``what`` if it is not JSON."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not JSON-safe: {exc}") from None


def _changed_by_json(value: Any, back: Any, path: str) -> str | None:
    """Where ``value`` and its JSON reading ``back`` first differ, said for a person (a tuple
    reads back as a list, a number key as text), or None where they are equal."""
    if value == back:
        return None
    if type(value) is not type(back):
        return (
            f"{path} is a {type(value).__name__}, which JSON reads back as a "
            f"{type(back).__name__}: use a {type(back).__name__}"
        )
    if isinstance(value, dict):
        for (key, item), (back_key, back_item) in zip(value.items(), back.items(), strict=False):
            if key != back_key:
                return f"{path} has the key {key!r}, which JSON reads back as {back_key!r}"
            changed = _changed_by_json(item, back_item, f"{path}[{key!r}]")
            if changed is not None:
                return changed
    elif isinstance(value, list):
        for k, (item, back_item) in enumerate(zip(value, back, strict=False)):
            changed = _changed_by_json(item, back_item, f"{path}[{k}]")
            if changed is not None:
                return changed
    # What is left: NaN, or keys that JSON merges into one (1 and "1").
    return f"{path} is {value!r:.60}, which does not read back equal from JSON ({back!r:.60})"


def check_playthrough(game: Game, seed: int) -> Playthrough:
    """Play a random game checking every state, then check that its record replays exactly."""
    rng = random.Random(seed ^ 0x5EED)
    play = random_playthrough(game, seed)
    returns = play.state.returns
    assert not (game.zero_sum and abs(sum(returns)) > 1e-9), (
        f"the game says it is zero-sum (Game.zero_sum) but its returns {returns!r:.200} at the "
        f"end of seed {seed} do not sum to zero"
    )
    record = GameRecord.from_json(play.record().model_dump_json())
    try:
        states = record.states()
    except MeepleError as exc:
        raise AssertionError(
            f"the record of seed {seed} does not replay: {exc} (each action's str() must parse "
            "back to that action, and play must follow from the seed alone)"
        ) from None
    assert states[-1] == play.state, "the record does not replay to the identical final state"
    for state in states:
        check_state(state, rng)
    return play


def decisions(states: Sequence[State], movers: Sequence[int]) -> int:
    """The decisions a game's states passed through, as OpenSpiel counts them: the seats
    of one choice several make at once, moving one after another, are one decision
    (``movers[k]`` moved from ``states[k]`` to ``states[k + 1]``)."""
    count = 0
    waiting: tuple[int, ...] = ()  # the seats still to choose in the decision under way
    for state, mover in zip(states, movers, strict=False):
        if tuple(state.to_act) != waiting:
            count += 1
        waiting = tuple(p for p in state.to_act if p != mover)
    return count


def check_length_bound(play: Playthrough, states: Sequence[State]) -> None:
    """A game that bounds its decisions (``Game.max_decisions``) takes no more (``states``:
    the play's record replayed)."""
    most = play.game.max_decisions()
    if most is None:
        return
    taken = decisions(states, [seat for seat, _ in play.record().moves])
    assert taken <= most, (
        f"seed {play.seed}: the game took {taken} decisions, past its max_decisions() {most}"
    )


def check_information_keys(game: Game, seeds: range, samples: int = 2) -> int:
    """A game's own ``information_key`` identifies exactly what its view shows.

    Plays a random game per seed and, at every state and for every seat, compares the key
    with the view as canonical JSON (the default key): states a seat cannot tell apart
    (the state itself and ``samples`` determinizations of it) must share a key, and across
    all the states met, two keys must be equal exactly when the two views are. Returns how
    many (state, seat) pairs were compared.
    """
    rng = random.Random(0xC0DE)
    by_view: dict[tuple[int, str], Any] = {}
    by_key: dict[tuple[int, Any], str] = {}
    pairs = 0
    for seed in seeds:
        for state in random_playthrough(game, seed).record().states():
            for player in range(game.num_players):
                view = json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))
                key = state.information_key(player)
                hash(key)
                twins = [state.determinize(player, rng) for _ in range(samples)]
                assert all(t.information_key(player) == key for t in twins), (
                    f"seed {seed}: a determinization changed seat {player}'s key"
                )
                assert by_view.setdefault((player, view), key) == key, (
                    f"seed {seed}: one view, two keys for seat {player}"
                )
                assert by_key.setdefault((player, key), view) == view, (
                    f"seed {seed}: one key, two views for seat {player}"
                )
                pairs += 1
    return pairs


# -- positions -------------------------------------------------------------------------------
def check_position(state: State[Any]) -> None:
    """``from_position(position())`` is an equal state that writes the same text and has the
    same moves, and every seat's view position is the same for every state the seat cannot
    tell from this one (with nothing hidden: the whole position)."""
    game = state.game
    text = state.position()
    again = game.from_position(text)
    assert again == state, "the position does not read back to an equal state"
    assert again.position() == text, "the position read back writes another text"
    assert again.to_act == state.to_act
    for seat in state.to_act:
        assert again.legal_actions(seat) == state.legal_actions(seat)
    for seat in range(game.num_players):
        view = state.view_position(seat)
        assert view.splitlines()[0] == f"meeple {game.name} view of seat {seat}"
        if game.perfect_information:
            assert view.splitlines()[1:] == text.splitlines()[1:], (
                "with nothing hidden, a view position says what the whole position says"
            )
            continue
        for k in range(2):
            sample = state.determinize(seat, random.Random(k))
            assert sample.view_position(seat) == view, (
                f"seat {seat}'s view position shows something the seat cannot know (the "
                "position codec's hidden gives what a seat's view writes instead of it)"
            )


def playout(state: State[Any], rng: random.Random) -> list[State[Any]]:
    """Every state of a random game from ``state`` on, ``state`` first."""
    states = [state]
    while not state.is_over:
        seat = rng.choice(state.to_act)
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(state)
    return states


def check_plays_on(game: Game, seed: int) -> None:
    """A game set up from the position of the middle of a random game plays on, with the
    same random moves, exactly as the original did: the chance still to come is part of the
    position."""
    states = playout(game.new_game(seed), random.Random(seed))
    middle = states[len(states) // 2]
    original = playout(middle, random.Random(seed + 100))
    copy_ = playout(game.from_position(middle.position()), random.Random(seed + 100))
    assert copy_ == original, "a game set up from a position plays on differently"
    assert copy_[-1].result == original[-1].result


def check_rules_example(game: Game) -> None:
    """The position the game's rules.md shows under "## Position notation" reads."""
    rules = game.rules_markdown()
    assert "## Position notation" in rules, "rules.md has no '## Position notation' section"
    section = rules.split("## Position notation", 1)[1].split("\n## ", 1)[0]
    assert "```text\n" in section, (
        "rules.md's '## Position notation' section has no ```text block with an example position"
    )
    example = section.split("```text\n", 1)[1].split("```", 1)[0]
    try:
        example_game = type(game)(game.Options.parse(game.name, position_options(example)))
        state = example_game.from_position(example)
    except MeepleError as exc:
        # The game's own error names the problem but not that it is in rules.md's example.
        raise AssertionError(
            f"the example position of rules.md ('## Position notation') does not read: {exc}"
        ) from exc
    assert example_game.from_position(state.position()) == state


# -- positions changed by hand ------------------------------------------------------------------
CHANGES_PER_STATE = 3
"""Positions changed by hand that :func:`check_game` reads for every fourth state."""


def changed_position(text: str, rng: random.Random, players: int) -> str:
    """``text`` (a position) with one or two of its values changed as a hand edit or an
    attacker might: a number out of range (a seat of ``players`` or past it, a huge one), a
    value of another kind, an item of a list dropped, repeated or moved, a key of an
    object dropped, a line dropped or given another line's value."""
    head, *lines = text.rstrip("\n").split("\n")
    fields = [[name, json.loads(raw)] for name, _, raw in (line.partition(": ") for line in lines)]
    words = sorted({v for _, value in fields for _, v in _places(value) if isinstance(v, str)})
    for _ in range(1 + (rng.random() < 0.3)):
        if not fields:
            break
        k = rng.randrange(len(fields))
        roll = rng.random()
        if roll < 0.05:
            del fields[k]
        elif roll < 0.1:
            other = fields[rng.randrange(len(fields))]
            fields[k][1], other[1] = other[1], fields[k][1]
        else:
            fields[k][1] = changed_value(fields[k][1], rng, players, words)
    return "\n".join([head] + [f"{name}: {json.dumps(value)}" for name, value in fields]) + "\n"


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place inside a JSON value (its path of keys and indices) and what is there."""
    found = [(path, value)]
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, item in items:
        found += _places(item, (*path, key))
    return found


def changed_value(value: Any, rng: random.Random, players: int, words: list[str]) -> Any:
    """``value`` (parsed JSON) with what is at one of its places changed as a hand edit or
    damage might (:func:`changed_position`: a number out of range for ``players`` seats or
    huge, a value of another kind or one of ``words``, an item of a list dropped, repeated
    or moved, a key dropped); changed in place where the place is inside it."""
    path, old = rng.choice(_places(value))
    new: Any
    if isinstance(old, bool):
        new = rng.choice([not old, 0, None])
    elif isinstance(old, int):
        near = [players, players + 1, old + 1, old - 1, 2 * old + 7]
        new = rng.choice([*near, -1, 0, 1, 10**6, 2**31, 2**63, "1", None, 1.5])
    elif isinstance(old, str):
        new = rng.choice([rng.choice(words or [""]), "", "x", old + old, old[:-1], 0, None])
    elif isinstance(old, list):
        new = list(old)
        change = rng.randrange(4) if new else 3
        if change == 0:
            del new[rng.randrange(len(new))]
        elif change == 1:
            new.insert(rng.randrange(len(new) + 1), rng.choice(new))
        elif change == 2:
            new.insert(rng.randrange(len(new)), new.pop(rng.randrange(len(new))))
        else:
            new = rng.choice([[], {}, None])
    elif isinstance(old, dict):
        new = dict(old)
        if new and rng.random() < 0.6:
            del new[rng.choice(list(new))]
        else:
            new[rng.choice(list(new) or ["x"])] = None
    else:
        new = rng.choice([0, -1, "x", [], {}, players])
    if not path:
        return new
    inner = value
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = new
    return value


def check_changed_position(game: Game, text: str, rng: random.Random, moves: int = 40) -> bool:
    """A position from outside (``text``, say one :func:`changed_position` made) is refused
    with a one-line PositionError, or is a state the engine can show and play on: every
    seat's and a spectator's view as JSON, the result, up to ``moves`` random moves, and the
    position at the end reading back equal. Returns whether ``text`` was read."""
    try:
        state = game.from_position(text)
    except PositionError as exc:
        assert str(exc) and "\n" not in str(exc), f"a PositionError is one line: {exc}"
        return False
    seats = (None, *range(game.num_players))
    try:
        for _ in range(moves):
            json.dumps([[state.view(p) for p in seats], state.result, state.returns])
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} is to act but has no legal action"
            if not game.perfect_information:
                state.determinize(seat, rng)
            state = state.apply(seat, rng.choice(legal))
        assert game.from_position(state.position()) == state, "its position does not read back"
    except Exception as exc:
        raise AssertionError(
            f"a position was read that the engine cannot show or play on ({type(exc).__name__}: "
            f"{exc}); it was:\n{text}"
        ) from exc
    return True


# -- notation --------------------------------------------------------------------------------
BAD_TEXTS = [
    "",
    " ",
    "\t\n",
    "\x00",
    "\x1b[31mL h0,0",
    "L h0,0\x00",
    "[/]",
    "[bold]pass[/bold]",
    "[/] pass",
    "é",
    "🂡 A",
    "L h١,٠",
    "ＬＨ０,０",
    "9" * 150,
    "L h0," + "9" * 150,
    "guess " + "9" * 150,
    "weather WX01 on " + "9" * 150,
    "draw WX" + "9" * 150,
    "pay " + "9" * 150,
    "target " + "9" * 150 + "a",
    "rush=" + "H" * 150 + " defense=-",
    "A " + "+" * 150,
    "x" * (MAX_ACTION_TEXT + 1),
    "x" * 100_000,
    "None",
    "-1",
]
"""Text a parser must answer calmly: huge numbers, unicode, control characters, Rich
markup, empty text and whitespace, other games' moves gone wrong."""


def parses_or_refuses(game: Game, text: Any) -> Any:
    """``game.parse_action(text)``: a one-line NotationError (then None), or an action that
    round-trips through its notation; any other exception is a broken contract."""
    try:
        action = game.parse_action(text)
    except NotationError as e:
        message = str(e)
        assert message and "\n" not in message, f"unclear error for {text!r}: {message!r}"
        return None
    except Exception as e:
        raise AssertionError(
            f"parse_action({text!r:.80}) raised {type(e).__name__}: {e}; text that is no action "
            "must raise NotationError"
        ) from e
    assert game.parse_action(str(action)) == action, f"{text!r} -> {action} does not round-trip"
    return action


# -- immutability ----------------------------------------------------------------------------
def mutable_parts(value: object, path: str = "state", seen: set[int] | None = None) -> list[str]:
    """Paths of the lists, dicts and sets inside ``value`` (a state's compared fields)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, list | dict | set | bytearray):
        return [path]
    if isinstance(value, tuple | frozenset):
        return [p for i, v in enumerate(value) for p in mutable_parts(v, f"{path}[{i}]", seen)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            p
            for f in dataclasses.fields(value)
            if f.compare
            for p in mutable_parts(getattr(value, f.name), f"{path}.{f.name}", seen)
        ]
    return []


def vandalise(value: object) -> None:
    """Change every mutable container inside ``value`` in place (as a careless caller might)."""
    if isinstance(value, dict):
        for item in list(value.values()):
            vandalise(item)
        value.clear()
        value["vandal"] = 1
    elif isinstance(value, list):
        for item in value:
            vandalise(item)
        value.reverse()
        value.clear()
        value.append(None)
    elif isinstance(value, set):
        value.clear()
        value.add(None)
    elif isinstance(value, tuple):
        for item in value:
            vandalise(item)


def answers(state: State[Any]) -> dict[str, Any]:
    """Everything the public API says about a state that comes back as a container."""
    seats = range(state.game.num_players)
    return {
        "to_act": state.to_act,
        "returns": state.returns,
        "result": state.result,
        "is_over": state.is_over,
        "legal": [state.legal_actions(p) for p in seats],
        "ids": [state.legal_action_ids(p) for p in seats],
        "views": [state.view(p) for p in [None, *seats]],
    }


def check_immutable(state: State[Any]) -> None:
    """The state holds no list, dict or set, and editing everything its public calls return
    leaves it, and what it answers, as it was."""
    assert mutable_parts(state) == [], f"the state holds mutable containers: {mutable_parts(state)}"
    # A game equals another by its name and options, never its memo tables (a hand ranking's
    # holds thousands of hands), so the copy shares the game and its options are copied on
    # their own: copying the tables with every state made this check take minutes.
    game = state.game
    before = copy.deepcopy(state, {id(game): game})
    options, said = copy.deepcopy(game.options), copy.deepcopy(answers(state))
    vandalise(answers(state))
    assert state == before, "editing what a state returned changed the state"
    assert game.options == options, "editing what a state returned changed its game's options"
    assert answers(state) == said, "editing what a state returned changed its answers"


# -- all of it -------------------------------------------------------------------------------
OPTION_VALUE_BREAKS = ",()="
"""What an option's text value may not hold: the lab parts ``--variant a=1,b=2`` and
``--values`` at commas, and OpenSpiel's game strings part theirs at all four."""


def check_option_values(game: Game) -> None:
    """Every text value the game's options offer (a default, a suggested value) can be
    written wherever option values are (:data:`OPTION_VALUE_BREAKS`): a default of
    "3,4,5" played in the terminal, yet no variant could name it and OpenSpiel could not
    load the game's own string back."""
    for option in describe_options(type(game).Options):
        offered = [option.default, *(value for value, _ in option.suggested)]
        for value in offered:
            held = sorted({c for c in str(value) if c in OPTION_VALUE_BREAKS})
            assert not isinstance(value, str) or not held, (
                f"option {option.name!r} offers {value!r}, which holds {' '.join(held)}: an "
                f"option's value may not hold any of {' '.join(OPTION_VALUE_BREAKS)} (the lab "
                "parts --variant and --values at commas, OpenSpiel's game strings at all of "
                "them); write another separator, such as '/'"
            )


def check_no_chance(game: Game, play: Playthrough, states: Sequence[State]) -> None:
    """A game that says it has no chance (``has_chance = False``) plays the same from any
    seed: the playthrough's moves, from the next seed, pass through states every seat sees
    alike, so the server may publish no sealed seed for it."""
    if game.has_chance:
        return
    record = play.record()
    differ = (
        f"{type(game).__name__}.has_chance is False, yet seeds {record.seed} and "
        f"{record.seed + 1} differ"
    )
    try:
        other = record.model_copy(update={"seed": record.seed + 1}).states()
    except MeepleError as exc:  # a move the other seed's game does not allow
        raise AssertionError(f"{differ}: {exc}") from None
    players = range(game.num_players)
    for k, (state, again) in enumerate(zip(states, other, strict=True)):
        assert [state.view(p) for p in players] == [again.view(p) for p in players], (
            f"{differ} after {k} moves: a seed decides something"
        )


def check_game(game: Game, seeds: range = range(20), positions: bool = True) -> int:
    """Every contract above on ``game``: a random game per seed checked at every state and
    within the game's bound on its decisions, its positions and immutability at every
    state, its options' text values writable, a game without chance the same from every
    seed, bad text refused, the rules for players filled, and (``positions``) the rules'
    example position read and positions changed by hand refused or played on. Returns the
    states checked.

    Raises AssertionError (or the game's own error) naming the first broken contract.
    """
    check_option_values(game)
    for text in BAD_TEXTS:
        parses_or_refuses(game, text)
    assert game.player_rules().strip(), "the rules for players are empty"
    if positions:
        check_rules_example(game)
    checked = 0
    for seed in seeds:
        play = check_playthrough(game, seed)
        # Replayed once here: each replay plays the whole game again from its moves.
        states = play.record().states()
        check_length_bound(play, states)
        check_no_chance(game, play, states)
        for state in states:
            check_immutable(state)
            if positions:
                check_position(state)
            for seat in state.to_act:
                for action in state.legal_actions(seat):
                    parses_or_refuses(game, str(action))
            checked += 1
        if positions:
            check_plays_on(game, seed)
            rng = random.Random(seed)
            for state in states[::4]:
                for _ in range(CHANGES_PER_STATE):
                    text = changed_position(state.position(), rng, game.num_players)
                    check_changed_position(game, text, rng)
    if positions:
        try:
            game.from_position("meeple " + game.name + " position\nno such line")
        except PositionError as exc:
            assert "\n" not in str(exc), "a PositionError is one line"
        else:
            raise AssertionError("a position with a line that is no field was accepted")
    return checked
