"""Game records: the game, its options, the seed and every (player, action), as JSON.

A record replays to the identical final state, because all randomness flows from the seed.
:class:`Playthrough` is a game in progress that keeps its record as it goes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
)

from meeple.core.errors import FileOptionRefused, MeepleError, RecordError, problem_words
from meeple.core.files import Unreadable, atomic_write, parse_json
from meeple.core.game import Action, Game, Player, State, seats_text, shorten
from meeple.core.options import DIGEST_PATTERN
from meeple.core.registry import game_class, make
from meeple.core.simultaneous import secret_moves, settles
from meeple.core.text import printable
from meeple.core.words import counted

RECORD_FORMAT: Final = "meeple-record/1"

MAX_RECORD_BYTES = 10_000_000
"""Largest record file read: a long game's record is well under 1 MB."""


def refuse_file_options(
    game: str,
    options: Mapping[str, Any],
    source: str,
    advice: str,
    typed: Collection[str] = (),
) -> None:
    """Refuse game options that came from outside (a record, a client's request) and name
    a file or folder (``GameOptions.external_options``: a ranking table, a content folder).

    Such a path would make meeple read a file its user never chose: a server's
    /etc/passwd, a device that never ends. Every path that takes options from outside
    calls this before making the game. ``typed`` are the option names whose value the
    user typed on their own command line (those are theirs to name). Raises
    FileOptionRefused naming the option and ``source``, followed by ``advice``.
    """
    options_class = game_class(game).Options
    for key, value in options.items():
        name = str(key).replace("-", "_")
        if name in typed or not options_class.names_a_file(name, value):
            continue
        raise FileOptionRefused(
            f"option {name!r} in {source} names a file ({shorten(repr(value))}); "
            f"meeple does not read files that {source} names: {advice}"
        )


def check_untrusted_options(
    game: str,
    options: Mapping[str, Any],
    source: str,
    advice: str,
    installed: Mapping[str, str] | None = None,
) -> None:
    """Check options that a stranger sent (a server's client): no option names a file
    (:func:`refuse_file_options`), and every value has its JSON type (the number 3, not
    the text "3"). ``installed``: the data options the server itself gave (an installed
    set's path for the set a client named), read with the others, so that an option
    checked against the data (a deck) is checked against the data the game will read.
    Raises FileOptionRefused, OptionError or UnknownGame."""
    cls = game_class(game)
    refuse_file_options(game, options, source, advice)
    cls.Options.parse(cls.name, {**options, **(installed or {})}, strict=True)


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly."""

    format: Literal["meeple-record/1"] = RECORD_FORMAT
    game: StrictStr
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt
    seats: list[
        Annotated[StrictStr, StringConstraints(max_length=200), AfterValidator(printable)]
    ] = Field(
        default_factory=list,
        description="who played each seat (agent specs, or a person's name), for reference: "
        "shown as it is, so printable text only",
    )
    people: list[Annotated[StrictInt, Field(ge=0, le=63)]] | None = Field(
        default=None,
        max_length=64,
        description="the seats people played, where the record says (a server's match): "
        "their seats entries are names, which may read as an agent's spec ('easy'); absent: "
        "a seat holding 'human' is a person's",
    )
    moves: list[tuple[StrictInt, StrictStr]] = Field(
        description="every (seat, action notation) in the order played"
    )
    content: dict[str, Annotated[StrictStr, StringConstraints(pattern=DIGEST_PATTERN)]] = Field(
        default_factory=dict,
        description="digest of each external file or folder an option names (the content a "
        "game read), by option name: replay refuses content that has changed since",
    )
    result: dict[str, Any] | None = Field(
        default=None, description="the outcome when the record was written, for reference"
    )
    start: StrictStr | None = Field(
        default=None,
        description="the position the game started from (state.position()), if it did not "
        "start from the seed's setup; the moves replay from it",
    )

    def same_game(self, other: GameRecord) -> bool:
        """Whether ``other`` records the same game: the same game, options, seed and start
        (its moves aside: further on, or none)."""
        return (self.game, self.options, self.seed, self.start) == (
            other.game,
            other.options,
            other.seed,
            other.start,
        )

    def leads_to(self, other: GameRecord) -> bool:
        """Whether ``other`` is this very game, as far as this record or further on: the same
        game (:meth:`same_game`), this record's moves the first of its own."""
        mine = [tuple(m) for m in self.moves]
        return self.same_game(other) and mine == [tuple(m) for m in other.moves[: len(mine)]]

    def make_game(self) -> Game[Any, Any, Any]:
        """The game with the record's options; RecordError if they no longer make a game
        or the content files they name have changed since the record was made."""
        try:
            game = make(self.game, **self.options)
        except MeepleError as exc:
            raise RecordError(f"the record's game cannot be made: {exc}") from None
        # An option the record pins no digest for (made before they were kept) is not
        # compared.
        try:
            changed = game.options.content_changed(self.content)
        except MeepleError as exc:
            raise RecordError(str(exc)) from None
        if changed:
            option, now = next(iter(changed.items()))
            named = ", ".join(str(f) for f in game.options.external_files()[option])
            raise RecordError(
                f"the content {named} (option {option!r}) changed since this record "
                f"was made (digest {now} != {self.content[option]}); restore it to replay "
                "this record"
            )
        if self.seats and len(self.seats) != game.num_players:
            raise RecordError(
                f"the record names {len(self.seats)} seats but {game.title} with these "
                f"options has {game.num_players}"
            )
        if self.people is not None:
            strange = [p for p in self.people if p >= game.num_players]
            if strange or len(set(self.people)) != len(self.people):
                raise RecordError(
                    f"the record's people {self.people} are not distinct seats of "
                    f"{game.title} with these options (0 to {game.num_players - 1})"
                )
        return game

    def states(self) -> list[State[Any]]:
        """Every state of the game, from the initial one to the last, by replaying the moves.

        Raises RecordError naming the move that does not replay.
        """
        game = self.make_game()
        if self.start is None:
            state = game.new_game(self.seed)
        else:
            try:
                state = game.from_position(self.start)
            except MeepleError as exc:
                raise RecordError(f"the record's start position does not read: {exc}") from None
        out = [state]
        for number, (player, text) in enumerate(self.moves, start=1):
            try:
                state = state.apply_text(player, text)
            except MeepleError as exc:
                seat = f"seat {shorten(repr(player))}"
                if 0 <= player < game.num_players:
                    seat = f"{game.seat_name(player)}, {seat}"
                raise RecordError(
                    f"move {number} ({seat}: {shorten(repr(text))}) does not replay: {exc}"
                ) from None
            out.append(state)
        return out

    def replay(self) -> State[Any]:
        """The final state of the record."""
        return self.states()[-1]

    def ended_early(self) -> bool:
        """Whether the record's result says its match is over, where its game may not be:
        a game server's match ends when one of two seats resigns, or when the server calls
        it off or lets it expire (its moves then stop short of the game's end)."""
        return bool(self.result and self.result.get("over"))

    def save(
        self, path: str | Path, remedy: str = "choose a file in a folder you can write to"
    ) -> None:
        """Write the record as JSON atomically: an old file is replaced only once all is written.

        RecordError if it cannot be written (the folder is a file, or not writable), ending
        with ``remedy``: what the person can do, who may not have chosen ``path``.
        """
        try:
            atomic_write(path, self.model_dump_json(indent=2) + "\n")
        except OSError as exc:
            raise RecordError(
                f"cannot save the record to {path}: {exc.strerror or exc}; {remedy}"
            ) from None

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record; raises RecordError saying what is wrong with the file."""
        path = Path(path)
        try:
            with path.open("rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.from_json(data, source=str(path))

    @classmethod
    def from_json(
        cls, text: str | bytes, source: str = "record", exact: bool = False
    ) -> GameRecord:
        """Parse a record from JSON text (or UTF-8 bytes); raises RecordError on malformed
        content: not UTF-8, not JSON, nested too deep, over 10 MB, or missing fields; with
        ``exact`` (a record from a client), a field records do not have too."""
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(
                f"{source} is larger than a game record may be "
                f"(at most {MAX_RECORD_BYTES // 1_000_000} MB)"
            )
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"{source} is not UTF-8 text (byte {exc.start}); a record is JSON in UTF-8"
                ) from None
        try:
            data = parse_json(text)
        except Unreadable as exc:
            # "w.py is not JSON: Expecting value: ..." said what it was not, not what was asked.
            raise RecordError(
                f"{source} is {exc}; a game record is the JSON of a saved game"
            ) from None
        if (
            exact
            and isinstance(data, dict)
            and (extra := sorted(set(data) - set(cls.model_fields)))
        ):
            raise RecordError(
                f"{source} has a field records do not have, {extra[0]!r}; their fields are: "
                f"{', '.join(cls.model_fields)}"
            )
        return cls.from_data(data, source)

    @classmethod
    def from_data(cls, data: Any, source: str = "record") -> GameRecord:
        """A record from JSON already parsed (``json.loads``); RecordError on missing or
        mistyped fields."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'record'}: {problem_words(e)}"
                for e in exc.errors()[:5]
            )
            raise RecordError(f"{source} is not a meeple game record: {problems}") from None
        except RecursionError:
            raise RecordError(f"{source} is nested too deeply to be a game record") from None


class Playthrough:
    """A game being played: the current state plus the record of how it got there."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seed: int,
        seats: list[str] | None = None,
        start: str | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.seats = list(seats or [])
        self.start = start
        """The position the game started from (PositionError if it does not read), or None
        for the seed's setup."""
        self.state: State[Any] = game.new_game(seed) if start is None else game.from_position(start)
        self.moves: list[tuple[Player, str]] = []
        self.secret_from = 0
        """The first move (numbered from 0) of the simultaneous decision under way, whose
        moves are still secret; ``len(moves)`` when none is."""
        # Pinned as the game starts: the content the game read is what the record vouches for.
        try:
            self.content = game.options.content_digests()
        except MeepleError as exc:
            raise RecordError(f"cannot pin the game's content: {exc}") from None

    @classmethod
    def from_record(cls, record: GameRecord, states: list[State[Any]] | None = None) -> Playthrough:
        """Resume a saved game at its last state; ``states``, where the caller has them
        already, are the record's own (``record.states()``), so it is not replayed again."""
        states = record.states() if states is None else states
        play = cls(states[0].game, record.seed, record.seats, start=record.start)
        play.state = states[-1]
        play.moves = list(record.moves)
        play.secret_from = secret_moves(states).start - 1
        return play

    def pending(self) -> int:
        """How many of the last moves are the still secret moves of a simultaneous decision
        that is not complete yet (0 when none is under way): its submissions, and a
        Triangle Clock mulligan made in it (:func:`~meeple.core.simultaneous.settles`)."""
        return len(self.moves) - self.secret_from

    def check_save_target(self, path: str | Path) -> None:
        """Refuse to overwrite ``path`` unless it is missing or holds this very game so far
        (same game, options and seed; its moves the start of ours): RecordError otherwise."""
        path = Path(path)
        if not path.exists():
            return
        advice = "resume it with --resume, or save to another file"
        try:
            old = GameRecord.load(path)
        except RecordError as exc:
            raise RecordError(
                f"{path} exists and is not a game record to continue ({exc}); save to another file"
            ) from None
        mine = self.record(pending=True)
        if not old.same_game(mine):
            raise RecordError(
                f"{path} holds another game ({counted(len(old.moves), 'move')}); {advice}"
            )
        if not old.leads_to(mine):
            # The same game from its start (a command run again): said so, not "another".
            raise RecordError(
                f"{path} already holds this game, {counted(len(old.moves), 'move')} into it; "
                f"{advice}"
            )

    def play(self, player: Player, action: Action) -> State[Any]:
        """Apply an action and record it; an illegal one raises and changes nothing."""
        before = self.state
        self.state = before.apply(player, action)
        self.moves.append((player, str(action)))
        if settles(before, self.state):
            self.secret_from = len(self.moves)
        return self.state

    def record(self, pending: bool = False) -> GameRecord:
        """The record so far (with the result once the game is over).

        By default it leaves out the :meth:`pending` submissions of a simultaneous decision
        still under way: a saved file must not hold one seat's secret choice while another
        seat is still choosing. Resuming such a record asks those seats again. ``pending=True``
        keeps every move (for a record that never leaves the engine).
        """
        drop = 0 if pending else self.pending()
        return GameRecord(
            game=self.game.name,
            options=self.game.options.changed(),
            seed=self.seed,
            seats=self.seats,
            moves=list(self.moves[: len(self.moves) - drop]),
            content=dict(self.content),
            result=self.state.result if self.state.is_over else None,
            start=self.start,
        )


def final_result(
    state: State[Any], resigned: Collection[Player] = (), left: Collection[Player] = ()
) -> dict[str, Any]:
    """A finished game's result as the server keeps it with a match: the game's own, with
    each seat's return and the seats that won (none in a draw).

    A seat whose person ``resigned`` or ``left`` (the computer played it on, in a match of
    three or more) has lost whatever the computer made of it: the winners are the best of
    the others, the game's own winner is dropped (it may be such a seat), and the reason
    names them.
    """
    returns = list(state.returns)
    gave_up = {*resigned, *left}
    rest = [p for p in range(len(returns)) if p not in gave_up]
    scores = state.result.get("scores")
    if not gave_up or not isinstance(scores, list) or len(scores) != len(returns):
        scores = [0] * len(returns)
    # Among the others, their returns and then their scores where the game keeps them: a
    # game won by a seat given up leaves the rest level at a loss (Erosion's -1), and the
    # points they made tell them apart.
    best = max(((returns[p], scores[p]) for p in rest), default=(0, 0))
    # With everyone still playing, equal returns are a draw; a seat given up loses to all.
    tied = not gave_up and min(returns, default=best[0]) == best[0]
    winners = [] if tied else [p for p in rest if (returns[p], scores[p]) == best]
    result = {**state.result, "returns": returns, "winners": winners}
    if not gave_up:
        return result
    result.pop("winner", None)
    result.pop("winner_name", None)
    words = [str(state.result.get("reason") or "the game is over")]
    if resigned:
        words.append(f"{seats_text(state.game, sorted(resigned))} resigned")
        result["resigned"] = sorted(resigned)
    if left:
        words.append(f"{seats_text(state.game, sorted(left))} left the match")
        result["abandoned"] = sorted(left)
    result["reason"] = "; ".join(words)
    return result


def result_agrees(stored: Mapping[str, Any] | None, state: State[Any]) -> bool:
    """Whether a record's stored result is the one its moves reach in ``state``: as a game
    states it (``meeple play``) or as the server keeps it (:func:`final_result`, with the
    seats the record says were given up). Its ``reason`` is not compared: the sentence a
    game ends with is reworded from version to version, and a record kept before would be
    disbelieved for its wording (what is shown is always the replay's own)."""
    replayed = state.result if state.is_over else None
    if stored is None or replayed is None:
        return stored == replayed
    resigned, left = (_seats_given_up(stored.get(k, []), state) for k in ("resigned", "abandoned"))
    if resigned is None or left is None:  # a file's lists that name no seats agree with nothing
        return _outcome(stored) == _outcome(replayed)
    agreed = (replayed, final_result(state, resigned, left))
    return _outcome(stored) in [_outcome(result) for result in agreed]


def _outcome(result: Mapping[str, Any]) -> dict[str, Any]:
    """A result less its sentence (``reason``): what the game's end was, not how it is said."""
    return {key: value for key, value in result.items() if key != "reason"}


def _seats_given_up(value: Any, state: State[Any]) -> list[Player] | None:
    """A record's list of seats given up, if it is one: seat numbers of its game (a record
    is a file from outside), else None."""
    seats = range(state.game.num_players)
    if isinstance(value, list) and all(type(p) is int and p in seats for p in value):
        return value
    return None
