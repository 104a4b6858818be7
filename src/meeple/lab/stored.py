"""A stored game's row, checked as it is read back from the results database.

A results database is a file like any other: a disk, a bad restore or a hand in a SQLite
browser may have changed a row. Its figures feed every table and report of the run, its
moves a replay, so a row is believed only when it has the shape :func:`play_job` writes and
is the game of its job (the run's game, options, seats and seed at its index). A row is a
pure function of its job, so a run's command plays a damaged game again rather than losing
it (:func:`meeple.lab.run.execute`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
)

from meeple.core.files import Unreadable
from meeple.lab.simulate import GameJob, margin_of, winners_of

Number = StrictInt | Annotated[StrictFloat, Field(allow_inf_nan=False)]
Count = Annotated[StrictInt, Field(ge=0)]


class StoredGame(BaseModel):
    """The fields of a row that the lab reads (:func:`~meeple.lab.simulate.play_job` writes
    them), with their types; a field added by a later version is kept as it is."""

    model_config = ConfigDict(extra="allow")

    index: Count
    seed: StrictInt
    game: StrictStr
    options: dict[str, Any]
    seats: list[StrictStr]
    first_player: Count | None
    length: Count
    branching: Annotated[Number, Field(ge=0)]
    returns: list[Number]
    winners: list[Count]
    scores: list[Number] | None
    margin: Number | None
    reason: StrictStr | None
    lead_changes: Count | None
    decided_at: Number | None
    moves: list[tuple[Count, StrictStr]]
    units: dict[StrictStr, Count] | None = None
    content: dict[StrictStr, StrictStr] | None = None


def row_problem(index: Any, row: Any, job: GameJob | None) -> str | None:
    """Why the row stored as game ``index`` is not that game of its run (None when it is):
    ``row`` as the database gave it (an :class:`~meeple.core.files.Unreadable` for text that
    is not JSON), ``job`` the run's job at ``index`` (None where the index is no game's)."""
    if isinstance(row, Unreadable):
        return f"its row is {row}"
    if job is None:
        return f"it is stored as game {index!r}, which is no game's number"
    try:
        game = StoredGame.model_validate(row)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "the row"
        return f"{where}: {first['msg'].lower()}"
    except RecursionError:
        return "its row is nested too deeply"
    stated = [
        ("index", game.index, job.index),
        ("game", game.game, job.game),
        ("options", game.options, job.options),
        ("seats", game.seats, job.seats),
        ("seed", game.seed, job.seed),
        ("length", game.length, len(game.moves)),
        ("winners", game.winners, winners_of(game.returns)),
        ("margin", game.margin, margin_of(game.scores)),
    ]
    for name, stored, expected in stated:
        if stored != expected:
            return f"{name} is {_short(stored)}, where its run has {_short(expected)}"
    players = len(job.seats)
    if len(game.returns) != players:
        return f"it has {len(game.returns)} returns for {players} seats"
    if game.first_player is not None and game.first_player >= players:
        return f"its first player is seat {game.first_player} of {players}"
    if any(seat >= players for seat, _ in game.moves):
        return f"a move is made by a seat past the {players} seats"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
