"""Positions as text: the whole state of a game written out, and read back checked.

A position (meeple's FEN) is a designer's and a tester's tool: it holds every hidden part
of the state (hands, decks in order, the seed of the chance still to come), so that a game
set up from it plays on exactly as the original would. It is written one field a line::

    meeple erd position
    options: {"best_of": 1}
    sides: [{"reserve": "HLLLDDDDDD", "discard": "H", "turrets": 1}, {"reserve": ...}]
    pending: {"seats": [0, 1], "chosen": [null, null]}
    round: 3
    ...

The first line names the game; an ``options:`` line follows when the game's options differ
from the defaults. Every other line is ``field: value`` with the value in JSON, written in
the game's own short forms where it has them (``HHL`` for Erd cards, card names for hands).
A game offers a notation by a ``position`` module in its package that builds a
:class:`PositionCodec`; :meth:`meeple.core.game.Game.from_position` finds it by name, so no
rules module imports it.

Reading checks each value against the type of its field (a count is a whole number, a pile
a list of cards), then the game's own checks (every card exactly once, counts possible, the
seat to act), and raises :class:`~meeple.core.errors.PositionError` naming the first problem.

A seat's view as a position (:meth:`PositionCodec.view_position`) writes what that seat
cannot know as ``"?"``. It is for analysis only: reading it back is refused, because a
state with unknown cards is not a state the engine can play (``determinize`` samples one).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import sys
import types
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError, PositionError
from meeple.core.files import Unreadable, parse_json
from meeple.core.game import shorten
from meeple.core.registry import game_class, make
from meeple.core.simultaneous import Submissions

HEADER_WORD = "position"
VIEW_WORD = "view"
UNKNOWN = "?"
"""What a view position writes in place of something the seat cannot know."""
MAX_POSITION_TEXT = 1_000_000
"""Longest position text read: the largest game's position is a few kilobytes."""

Encoder = Callable[[Any, Any], Any]
"""A field's value (and the game) to its JSON form."""
Decoder = Callable[[Any, Any], Any]
"""A JSON form (and the game) back to the field's value; raises ValueError (or a
MeepleError) saying what is wrong."""


@dataclasses.dataclass(frozen=True)
class FieldForm:
    """A game's own short form for one field: how to write it and how to read it back."""

    encode: Encoder
    decode: Decoder


@dataclasses.dataclass(frozen=True)
class JoinedForm:
    """One line standing for several fields that read best together (Edges' owners and
    pyramids as one board): ``encode`` takes the game and their values in order,
    ``decode`` the JSON form and the game, and returns their values."""

    fields: tuple[str, ...]
    encode: Callable[..., Any]
    decode: Callable[[Any, Any], tuple[Any, ...]]


class PositionCodec:
    """Writes a dataclass state as a position and reads one back.

    ``forms`` gives a field its game-specific short form (by field name), and ``joined``
    writes several fields as one line (by line name); ``type_forms``
    does the same for every value of a type, wherever it appears (Erd's cards), and
    ``path_forms`` for the values at a place, written without indices (``hands[][]``: every
    card of every hand, where a card is a plain number in the state); ``check``
    is the game's consistency check, called on the state read back, returning the first
    problem as a sentence or None; ``hidden`` says, for a view position, which fields (or
    parts of fields) a seat may not know: it maps the state and seat to a dict of field
    names to the value to write instead.
    """

    def __init__(
        self,
        state_class: type,
        *,
        forms: Mapping[str, FieldForm] | None = None,
        joined: Mapping[str, JoinedForm] | None = None,
        type_forms: Mapping[type[Any], FieldForm] | None = None,
        path_forms: Mapping[str, FieldForm] | None = None,
        check: Callable[[Any], str | None] | None = None,
        hidden: Callable[[Any, int | None], Mapping[str, Any]] | None = None,
    ) -> None:
        self.state_class = state_class
        self.forms = dict(forms or {})
        self.type_forms = dict(type_forms or {})
        self.path_forms = dict(path_forms or {})
        self.check = check
        self.hidden = hidden
        self.joined = dict(joined or {})
        hints = _type_hints(state_class, skip=("game",))
        self.state_fields = [
            f.name for f in dataclasses.fields(state_class) if f.init and f.name != "game"
        ]
        member_of = {m: line for line, j in self.joined.items() for m in j.fields}
        self.defaults: dict[str, Any] = {
            f.name: f.default
            for f in dataclasses.fields(state_class)
            if f.init and f.default is not dataclasses.MISSING and f.name not in member_of
        }
        """The fields a position may leave out, with the value they then take."""
        self.hints: dict[str, Any] = {name: hints[name] for name in self.state_fields}
        """The type of each field of the state."""
        self.fields: list[tuple[str, Any]] = []
        """The lines of a position, in order: a field's name and type, or a joined line's
        name and None."""
        for name in self.state_fields:
            line = member_of.get(name)
            if line is None:
                self.fields.append((name, hints[name]))
            elif name == self.joined[line].fields[0]:
                self.fields.append((line, None))

    # -- writing ----------------------------------------------------------------------------
    def position(self, state: Any) -> str:
        """The whole state as text (every hidden part included)."""
        return self._write(state, HEADER_WORD, {})

    def view_position(self, state: Any, player: int | None) -> str:
        """What ``player`` knows (``None``: a spectator), with every unknown written ``?``.

        The game's ``hidden`` function replaces what the seat may not know; a game with
        nothing hidden writes the same lines as :meth:`position`.
        """
        replaced = dict(self.hidden(state, player)) if self.hidden is not None else {}
        seat = "spectator" if player is None else f"seat {player}"
        return self._write(state, f"{VIEW_WORD} of {seat}", replaced)

    def _write(self, state: Any, word: str, replaced: Mapping[str, Any]) -> str:
        game = state.game
        lines = [f"meeple {game.name} {word}"]
        changed = game.options.changed()
        if changed:
            lines.append("options: " + _dumps(changed))
        for name, hint in self.fields:
            if name in replaced:
                value = replaced[name]
            elif name in self.joined:
                members = self.joined[name].fields
                value = self.joined[name].encode(game, *(getattr(state, m) for m in members))
            else:
                value = self.encode_field(game, name, getattr(state, name), hint)
            lines.append(f"{name}: {_dumps(value)}")
        return "\n".join(lines) + "\n"

    def encode_field(self, game: Any, name: str, value: Any, hint: Any) -> Any:
        """One field's JSON form: the game's own form if it has one, else the generic one."""
        form = self.forms.get(name)
        if form is not None:
            return form.encode(value, game)
        return self.encode(game, value, hint, name)

    def encode(self, game: Any, value: Any, hint: Any, path: str) -> Any:
        """``value`` (of type ``hint``, at ``path`` such as ``seats[].hand[]``) as plain
        JSON data."""
        form = self.path_forms.get(path)
        if form is None and isinstance(hint, type):
            form = self.type_forms.get(hint)
        if form is not None:
            return form.encode(value, game)
        kind, args = _shape(hint)
        if value is None or kind == "plain":
            return value
        if kind == "seq":
            inner = path + "[]"
            inner_form = self.path_forms.get(inner)
            if inner_form is not None:
                return [inner_form.encode(v, game) for v in value]
            if _shape(args[0])[0] == "plain":
                return list(value)
            return [self.encode(game, v, args[0], inner) for v in value]
        if kind == "union":
            return self.encode(game, value, _member_type(value, args), path)
        if kind == "submissions":
            return {
                "seats": list(value.seats),
                "chosen": [None if c is None else str(c) for c in value.chosen],
            }
        if kind == "enum":
            return value.name.lower()
        if kind == "tuple":
            return [self.encode(game, v, a, path + "[]") for v, a in zip(value, args, strict=True)]
        if kind == "record":
            record_hints = _type_hints(hint)
            out = {}
            for name, default in _record_fields(hint):
                item = getattr(value, name)
                if default is not _NO_DEFAULT and item == default:
                    continue
                out[name] = self.encode(game, item, record_hints[name], f"{path}.{name}")
            return out
        if isinstance(value, bool | int | str | float):
            return value
        raise TypeError(f"a position cannot hold {type(value).__name__} values")

    # -- reading ----------------------------------------------------------------------------
    def from_position(self, game: Any, text: object) -> Any:
        """The state the position describes; PositionError naming the first problem."""
        if not isinstance(text, str):
            raise PositionError(f"a position is text; got {type(text).__name__}")
        if len(text) > MAX_POSITION_TEXT:
            raise PositionError(
                f"a position is at most {MAX_POSITION_TEXT} characters; got {len(text)}"
            )
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines:
            raise PositionError(f"the position is empty; {self._expected(game)}")
        self._read_header(game, lines[0])
        values: dict[str, Any] = {}
        for number, line in enumerate(lines[1:], start=2):
            name, sep, raw = line.partition(":")
            name = name.strip()
            if not sep:
                raise PositionError(
                    f"line {number} ({_quote(line)}) is not 'field: value'; {self._expected(game)}"
                )
            if name in values:
                raise PositionError(f"line {number}: field {name!r} is given twice")
            try:
                values[name] = parse_json(raw)
            except Unreadable as exc:
                raise PositionError(
                    f"line {number}: the value of {name!r} is {exc}: {_quote(raw.strip())}"
                ) from None
        options = values.pop("options", {})
        if options != game.options.changed():
            raise PositionError(
                f"the position is of {game.name} with options {_dumps(options)}, but this "
                f"game has {_dumps(game.options.changed())}; make the game with the "
                "position's options"
            )
        known = {name for name, _ in self.fields}
        unknown = [n for n in values if n not in known]
        if unknown:
            raise PositionError(
                f"{game.title} positions have no field {unknown[0]!r}; the fields are: "
                + ", ".join(n for n, _ in self.fields)
            )
        # A field the state gives a default may be left out (so a position written before a
        # game gained that field still reads); any other missing field is an error.
        for name, default in self.defaults.items():
            if name not in values:
                values[name] = self.encode_field(game, name, default, self.hints[name])
        missing = [n for n, _ in self.fields if n not in values]
        if missing:
            raise PositionError(f"the position gives no {missing[0]!r} (a {game.title} field)")
        fields: dict[str, Any] = {}
        for name, hint in self.fields:
            if name in self.joined:
                members = self.joined[name].fields
                parts = self._decode_field(game, name, values[name], None)
                fields.update(zip(members, parts, strict=True))
            else:
                fields[name] = self._decode_field(game, name, values[name], hint)
        try:
            state = self.state_class(game=game, **fields)
        except _UNREADABLE as exc:
            raise PositionError(f"the position does not make a {game.title} state: {exc}") from None
        problem = self._check(state)
        if problem is not None:
            raise PositionError(f"impossible {game.title} position: {problem}")
        return state

    def _read_header(self, game: Any, line: str) -> None:
        words = line.split()
        if len(words) >= 2 and words[0] == "meeple" and words[2:3] == [VIEW_WORD]:
            raise PositionError(
                "this is a seat's view (unknowns written '?'), for analysis only; a game "
                "starts from a whole position, written by state.position()"
            )
        if len(words) != 3 or words[0] != "meeple" or words[2] != HEADER_WORD:
            raise PositionError(
                f"a position starts with the line 'meeple {game.name} position'; got {_quote(line)}"
            )
        if words[1] != game.name:
            raise PositionError(f"this is a position of {words[1]!r}, not of {game.name!r}")

    def _expected(self, game: Any) -> str:
        return (
            f"a {game.title} position is the line 'meeple {game.name} position' and then "
            "one 'field: value' line for each of: " + ", ".join(n for n, _ in self.fields)
        )

    def _decode_field(self, game: Any, name: str, raw: Any, hint: Any) -> Any:
        try:
            if name in self.joined:
                return self.joined[name].decode(raw, game)
            form = self.forms.get(name)
            if form is not None:
                return form.decode(raw, game)
            return self.decode(game, raw, hint, name, name)
        except PositionError:
            raise
        except (MeepleError, *_UNREADABLE) as exc:
            raise PositionError(f"field {name!r}: {exc}") from None

    def decode(self, game: Any, raw: Any, hint: Any, where: str, path: str) -> Any:
        """JSON data ``raw`` as a value of type ``hint``; ValueError saying where it is wrong
        (``where`` is the place with indices, ``seats[1].hand[0]``; ``path`` without them)."""
        form = self.path_forms.get(path)
        if form is None and isinstance(hint, type):
            form = self.type_forms.get(hint)
        if form is not None:
            return form.decode(raw, game)
        kind, args = _shape(hint)
        if kind == "plain":
            if type(raw) is not hint:
                raise ValueError(f"{where}: expected {_KIND_WORDS[hint]}, got {_dumps(raw)}")
            return raw
        if kind == "seq" and _shape(args[0])[0] == "plain" and path + "[]" not in self.path_forms:
            item = args[0]
            if not isinstance(raw, list):
                raise ValueError(f"{where}: expected a list, got {_dumps(raw)}")
            for k, v in enumerate(raw):
                if type(v) is not item:
                    raise ValueError(f"{where}[{k}]: expected {_KIND_WORDS[item]}, got {_dumps(v)}")
            return tuple(raw)
        if hint is Any:
            raise ValueError(f"{where}: cannot be read from a position")
        if hint is type(None):
            if raw is not None:
                raise ValueError(f"{where}: expected null, got {_dumps(raw)}")
            return None
        if kind == "union":
            if raw is None and type(None) in args:
                return None
            problems = []
            for arg in args:
                if arg is type(None):
                    continue
                try:
                    return self.decode(game, raw, arg, where, path)
                except (ValueError, MeepleError) as exc:
                    problems.append(str(exc))
            raise ValueError(problems[0] if len(problems) == 1 else "; or ".join(problems))
        if kind == "literal":
            if raw not in args or isinstance(raw, bool) != isinstance(args[0], bool):
                raise ValueError(
                    f"{where}: {_dumps(raw)} is not one of " + ", ".join(_dumps(a) for a in args)
                )
            return raw
        if kind == "submissions":
            return self._decode_submissions(game, raw, where, path)
        if kind == "enum":
            names = {m.name.lower(): m for m in hint}
            if not isinstance(raw, str) or raw.lower() not in names:
                raise ValueError(f"{where}: {_dumps(raw)} is not one of " + ", ".join(names))
            return names[raw.lower()]
        if kind in ("seq", "tuple"):
            if not isinstance(raw, list):
                raise ValueError(f"{where}: expected a list, got {_dumps(raw)}")
            inner_form = self.path_forms.get(path + "[]") if kind == "seq" else None
            if inner_form is not None:
                return tuple(
                    self._decode_with(inner_form, game, v, f"{where}[{k}]")
                    for k, v in enumerate(raw)
                )
            if kind == "seq":
                return tuple(
                    self.decode(game, v, args[0], f"{where}[{k}]", path + "[]")
                    for k, v in enumerate(raw)
                )
            if len(raw) != len(args):
                raise ValueError(f"{where}: expected {len(args)} items, got {len(raw)}")
            return tuple(
                self.decode(game, v, a, f"{where}[{k}]", path + "[]")
                for k, (v, a) in enumerate(zip(raw, args, strict=True))
            )
        if kind == "record":
            return self._decode_record(game, raw, hint, where, path)
        raise ValueError(f"{where}: a position cannot hold {hint!r} values")

    @staticmethod
    def _decode_with(form: FieldForm, game: Any, raw: Any, where: str) -> Any:
        try:
            return form.decode(raw, game)
        except (ValueError, MeepleError) as exc:
            raise ValueError(f"{where}: {exc}") from None

    def _decode_record(self, game: Any, raw: Any, hint: type, where: str, path: str) -> Any:
        if not isinstance(raw, dict):
            raise ValueError(f"{where}: expected an object {{...}}, got {_dumps(raw)}")
        record_hints = _type_hints(hint)
        fields = _record_fields(hint)
        names = [n for n, _ in fields]
        unknown = [k for k in raw if k not in names]
        if unknown:
            raise ValueError(
                f"{where}: no field {unknown[0]!r}; the fields are: {', '.join(names)}"
            )
        values = {}
        for name, default in fields:
            if name in raw:
                values[name] = self.decode(
                    game, raw[name], record_hints[name], f"{where}.{name}", f"{path}.{name}"
                )
            elif default is _NO_DEFAULT:
                raise ValueError(f"{where}: field {name!r} is missing")
        return hint(**values)

    def _decode_submissions(self, game: Any, raw: Any, where: str, path: str) -> Submissions[Any]:
        if not isinstance(raw, dict) or set(raw) != {"seats", "chosen"}:
            raise ValueError(
                f'{where}: expected {{"seats": [...], "chosen": [...]}}, got {_dumps(raw)}'
            )
        seats = self.decode(game, raw["seats"], tuple[int, ...], f"{where}.seats", f"{path}.seats")
        chosen_raw = raw["chosen"]
        if not isinstance(chosen_raw, list) or len(chosen_raw) != len(seats):
            raise ValueError(f"{where}.chosen: expected one entry (an action or null) per seat")
        if len(set(seats)) != len(seats) or any(not 0 <= s < game.num_players for s in seats):
            raise ValueError(f"{where}.seats: {_dumps(raw['seats'])} are not distinct seats")
        chosen: list[Any] = []
        for seat, item in zip(seats, chosen_raw, strict=True):
            if item is None:
                chosen.append(None)
            elif isinstance(item, str):
                chosen.append(game.parse_action(item))
            else:
                raise ValueError(f"{where}.chosen: seat {seat}'s choice is not an action's text")
        return Submissions(seats, tuple(chosen))

    def _check(self, state: Any) -> str | None:
        """The game's check, then the generic one: the seats to act and their moves can be
        worked out, and what every seat and a spectator are shown can be (a state the engine
        cannot even ask, or show, is no position)."""
        try:
            if self.check is not None:
                problem = self.check(state)
                if problem is not None:
                    return problem
            for seat in state.to_act:
                state.legal_actions(seat)
            for seat in state.to_act:
                if not state.legal_actions(seat):
                    return f"seat {seat} is to act but has no legal action"
            # What a server sends and a record replays: a game's check may miss a value
            # that only the drawing of a view reads (a winner's name).
            views = [state.view(seat) for seat in (None, *range(state.game.num_players))]
            json.dumps([views, state.result, state.returns])
        except _UNREADABLE as exc:
            return f"the engine cannot play on from it ({type(exc).__name__}: {exc})"
        return None


def seats_problem(name: str, seats: Sequence[int], players: int) -> str | None:
    """Whether ``seats`` (the seats of a queue, a tie, the winners) are distinct seats of a
    game of ``players``, in words for a PositionError (``name`` says what they are); None
    when they are."""
    if len(set(seats)) != len(seats) or any(not 0 <= s < players for s in seats):
        return f"{name} {list(seats)} are not distinct seats 0 to {players - 1}"
    return None


def count_problem(
    held: Counter[int], expected: Counter[int], name: Callable[[int], str]
) -> str | None:
    """The first card (by number) that a position holds more or fewer times than the game
    has it, in words (``card WX03 is there twice, but the game has it once``); None when
    every card is there exactly as often as the game has it. ``name`` writes a card."""
    for card in sorted(set(held) | set(expected)):
        have, want = held[card], expected[card]
        if have == want:
            continue
        if have == 0:
            return f"card {name(card)} is missing (the game has it {_times(want)})"
        if want == 0:
            return f"card {name(card)} is there, but this game has none"
        return f"card {name(card)} is there {_times(have)}, but the game has it {_times(want)}"
    return None


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def position_argument(value: str) -> str | None:
    """What a ``--position`` argument gives: the position text itself, or the text of the
    file it names when that file holds a position; None when it names a file holding
    something else (a saved game's record, which a command may also accept).

    PositionError when it is neither, or the file cannot be read as UTF-8 text.
    """
    if value.lstrip().startswith("meeple "):
        return value
    path = Path(value)
    if not path.is_file():
        raise PositionError(
            f"{_quote(value)} is neither a position (text starting 'meeple <game> position', "
            "as state.position() writes it) nor a file"
        )
    try:
        with path.open("rb") as file:
            data = file.read(MAX_POSITION_TEXT + 1)
    except OSError as exc:
        raise PositionError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not data.lstrip().startswith(b"meeple "):
        return None
    if len(data) > MAX_POSITION_TEXT:
        raise PositionError(f"{path} is larger than a position may be ({MAX_POSITION_TEXT} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PositionError(f"{path} is not UTF-8 text (byte {exc.start})") from None


def position_game(name: str | None, text: str, options: Mapping[str, Any] | None = None) -> Any:
    """The game a position belongs to: ``name`` (None: the game its first line names) made
    with ``options`` when some are given (reading the position then checks it was written
    under them), else with the options its ``options:`` line names. PositionError when the
    position is one of another game: its options would be read as the wrong game's."""
    named = named_game(text)
    if name is None:
        if named is None:
            raise PositionError(
                f"a position starts with the line 'meeple <game> position'; got {_quote(text)}"
            )
        name = named
    elif named is not None and _registered_name(named) != game_class(name).name:
        raise PositionError(f"this is a position of {named!r}, not of {game_class(name).name!r}")
    return make(name, **(dict(options) if options else position_options(text)))


def named_game(text: str) -> str | None:
    """The game a position's first line names (``meeple <game> position``), or None."""
    words = text.lstrip().split("\n", 1)[0].split()
    return words[1] if len(words) == 3 and words[0] == "meeple" else None


def _registered_name(name: str) -> str | None:
    """The registered name of the game ``name`` spells, or None if there is none."""
    try:
        return game_class(name).name
    except MeepleError:
        return None


def position_options(text: str) -> dict[str, Any]:
    """The options a position was written under (its ``options:`` line; none: the defaults),
    so that a caller can make the game it belongs to before reading it. PositionError if the
    line is there but is not a JSON object."""
    for line in text.strip().splitlines()[1:]:
        name, _, raw = line.partition(":")
        if name.strip() == "options":
            try:
                options = parse_json(raw)
            except Unreadable:
                options = None
            if not isinstance(options, dict):
                raise PositionError(
                    f'the options line is a JSON object like {{"board": "3x3"}}; got {_quote(raw)}'
                )
            return options
    return {}


_UNREADABLE = (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError)
"""What a game's code raises on values its checks let through: a refusal, never a crash."""

_NO_DEFAULT = object()
_KIND_WORDS = {bool: "true or false", int: "a whole number", str: "text in double quotes"}


@functools.cache
def _shape(hint: Any) -> tuple[str, tuple[Any, ...]]:
    """What kind of value a type describes, worked out once per type: ``plain`` (bool, int,
    str), ``seq`` (``tuple[X, ...]``), ``tuple`` (fixed), ``union``, ``literal``, ``enum``,
    ``record`` (a dataclass or NamedTuple), ``submissions`` or ``other``; and its arguments."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _KIND_WORDS:
        return "plain", ()
    if origin in (typing.Union, types.UnionType):
        return "union", args
    if origin is typing.Literal:
        return "literal", args
    if origin is Submissions or hint is Submissions:
        return "submissions", ()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "enum", ()
    if origin is tuple or origin is list:
        if len(args) == 2 and args[1] is Ellipsis:
            return "seq", args[:1]
        return "tuple", args
    if _is_record(hint):
        return "record", ()
    return "other", args


@functools.cache
def _type_hints(cls: type[Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The evaluated annotations of ``cls`` and its bases, each in its own module.

    One annotation at a time, so that one naming a type imported only for type checkers
    (a state's ``game``, in ``skip``) does not stop the others from being read.
    """
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        namespace = vars(sys.modules[klass.__module__])
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            if name in skip:
                continue

            def holder() -> None: ...

            holder.__annotations__ = {name: annotation}
            out[name] = typing.get_type_hints(
                holder, globalns=namespace, localns=dict(vars(klass))
            )[name]
    return out


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and (
        dataclasses.is_dataclass(hint) or (issubclass(hint, tuple) and hasattr(hint, "_fields"))
    )


@functools.cache
def _record_fields(hint: type[Any]) -> list[tuple[str, Any]]:
    if dataclasses.is_dataclass(hint):
        out = []
        for f in dataclasses.fields(hint):
            if not f.init:
                continue
            if f.default is not dataclasses.MISSING:
                out.append((f.name, f.default))
            else:
                out.append((f.name, _NO_DEFAULT))
        return out
    defaults = getattr(hint, "_field_defaults", {})
    return [(name, defaults.get(name, _NO_DEFAULT)) for name in hint._fields]


def _member_type(value: Any, args: tuple[Any, ...]) -> Any:
    """The member of a union that ``value`` belongs to, for writing it."""
    for arg in args:
        check = typing.get_origin(arg) or arg
        if isinstance(check, type) and isinstance(value, check):
            if check is int and isinstance(value, bool) and bool in args:
                continue
            return arg
    raise TypeError(f"{value!r} is none of {args}")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _quote(text: str, limit: int = 60) -> str:
    return repr(shorten(text, limit))
