"""Game records: the game, its options, the seed and every (player, action), as JSON.

A record replays to the identical final state, because all randomness flows from the seed.
:class:`Playthrough` is a game in progress that keeps its record as it goes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from meeple.core.errors import MeepleError, RecordError
from meeple.core.files import atomic_write
from meeple.core.game import Action, Game, Player, State
from meeple.core.registry import make

RECORD_FORMAT = "meeple-record/1"


class GameRecord(BaseModel):
    """Everything needed to replay a game exactly."""

    format: Literal["meeple-record/1"] = RECORD_FORMAT
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[str] = Field(
        default_factory=list, description="who played each seat (agent specs), for reference"
    )
    moves: list[tuple[int, str]] = Field(default_factory=list)
    result: dict[str, Any] | None = Field(
        default=None, description="the outcome when the record was written, for reference"
    )

    def make_game(self) -> Game[Any, Any, Any]:
        """The game with the record's options."""
        return make(self.game, **self.options)

    def states(self) -> list[State[Any]]:
        """Every state of the game, from the initial one to the last, by replaying the moves.

        Raises RecordError naming the move that does not replay.
        """
        game = self.make_game()
        state = game.new_game(self.seed)
        out = [state]
        for number, (player, text) in enumerate(self.moves, start=1):
            try:
                state = state.apply_text(player, text)
            except MeepleError as exc:
                raise RecordError(
                    f"move {number} ({game.seat_name(player)}, seat {player}: {text!r}) "
                    f"does not replay: {exc}"
                ) from None
            out.append(state)
        return out

    def replay(self) -> State[Any]:
        """The final state of the record."""
        return self.states()[-1]

    def save(self, path: str | Path) -> None:
        """Write the record as JSON atomically: an old file is replaced only once all is written."""
        atomic_write(path, self.model_dump_json(indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record; raises RecordError saying what is wrong with the file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.from_json(text, source=str(path))

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> GameRecord:
        """Parse a record from JSON text; raises RecordError on malformed content."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{source} is not JSON: {exc}") from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['msg']}" for e in exc.errors()
            )
            raise RecordError(f"{source} is not a meeple game record: {problems}") from None


class Playthrough:
    """A game being played: the current state plus the record of how it got there."""

    def __init__(self, game: Game[Any, Any, Any], seed: int, seats: list[str] | None = None):
        self.game = game
        self.seed = seed
        self.seats = list(seats or [])
        self.state: State[Any] = game.new_game(seed)
        self.moves: list[tuple[Player, str]] = []

    @classmethod
    def from_record(cls, record: GameRecord) -> Playthrough:
        """Resume a saved game at its last state."""
        play = cls(record.make_game(), record.seed, record.seats)
        play.state = record.replay()
        play.moves = list(record.moves)
        return play

    def play(self, player: Player, action: Action) -> State[Any]:
        """Apply an action and record it; an illegal one raises and changes nothing."""
        self.state = self.state.apply(player, action)
        self.moves.append((player, str(action)))
        return self.state

    def record(self) -> GameRecord:
        """The record so far (with the result once the game is over)."""
        return GameRecord(
            game=self.game.name,
            options=self.game.options.changed(),
            seed=self.seed,
            seats=self.seats,
            moves=list(self.moves),
            result=self.state.result if self.state.is_over else None,
        )
