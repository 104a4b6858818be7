"""The game server's messages: what clients may send, and the lobby's request bodies.

Every message a client sends is validated here before the server acts on it; anything
else is answered with an ``error`` message and changes nothing. The server's own messages
are plain dicts built in :mod:`~meeple.interfaces.web.live`, :mod:`~meeple.interfaces.web.hub`
and :mod:`~meeple.interfaces.web.lobby`, and documented in docs/api.md.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from meeple.core.errors import problem_words
from meeple.core.text import BLANK_CHARACTERS, printable, shows

MAX_MESSAGE_BYTES = 16_384
"""The largest client message the server reads; a move is a few dozen bytes."""

MAX_ACTION_CHARS = 200
"""The longest move text accepted (every game's notation is far shorter)."""


_LOOKALIKES = str.maketrans(
    # Letters of other scripts drawn as Latin ones (Cyrillic, Greek, Armenian, Latin small
    # capitals): compared as the letters they pass for, for the computer's and tutor's
    # words and for another person's name ("Аnn" with a Cyrillic A is "Ann").
    "сСοОοΟоОᴏрРρΡᴘϲϹᴄмМΜᴍτΤтТᴛеЕεΕᴇυսᴜʀаАΑαвВΒнНΗкКΚκхХΧχуУΥіІΙιјЈѕЅΖΝν",
    "ccooooooopppppcccmmmmttttteeeeeuuuraaaabbbhhhkkkkxxxxyyyiiiijjsszny",
)


def name_skeleton(name: str) -> str:
    """A name as it reads: compatibility forms and case folded, marks and characters drawn
    as nothing left out (U+200B, a soft hyphen, a Hangul filler), lookalikes of other
    scripts read as the letters they pass for."""
    text = unicodedata.normalize("NFKD", name)
    shown = (
        c
        for c in text
        if unicodedata.category(c) not in ("Mn", "Me", "Cf") and c not in BLANK_CHARACTERS
    )
    # Capitals first (a Greek capital Nu reads as N, its small letter as v), then small.
    return "".join(shown).translate(_LOOKALIKES).casefold().translate(_LOOKALIKES)


def reads_as_computer(name: str) -> bool:
    """Whether a person's name would read as the computer's or the tutor's seat: the pages
    call them "Computer (hard)" and "Tutor (scripted)", and a person so named passed for the
    computer to the others. A name that holds the word anywhere is one ("Blue · Computer
    (hard)" beside a seat's name)."""
    skeleton = name_skeleton(name)
    return "computer" in skeleton or skeleton.startswith("tutor")


def _not_the_computer(name: str) -> str:
    if reads_as_computer(name):
        raise ValueError(
            "a person's name may not hold the word 'Computer' or begin with 'Tutor': the "
            "pages call the computer's seats so ('Computer (hard)', 'Tutor (scripted)'), "
            "and the others would take the person for it"
        )
    return name


Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(printable),  # shown to the others, on their pages and in records
    AfterValidator(shows),
    AfterValidator(_not_the_computer),
]
Token = Annotated[str, StringConstraints(min_length=16, max_length=100)]

_NAME = TypeAdapter(Name)


def person_name(text: str) -> str:
    """``text`` as a person's name (:data:`Name`); ValueError saying what a name must be."""
    try:
        return str(_NAME.validate_python(text))
    except ValidationError as exc:
        raise ValueError(problem_words(exc.errors()[0])) from None


class _Message(BaseModel):
    # Strict: a client's JSON must carry the right types (seq 0, not "0" or true); a
    # value coerced here would be a message the client never meant. Python's JSON reader
    # takes NaN and Infinity, which JSON has not: a clock of NaN seconds was refused as
    # past its largest value, in words that did not say why.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class Hello(_Message):
    """The first message on a connection: a seat's token, or none to watch. A seat's link
    not yet taken takes the seat, and the welcome carries the seat's own token."""

    type: Literal["hello"]
    token: Token | None = None
    # Checked as a name only where it names a seat taken now (person_name): a page sends
    # the name its browser keeps with every hello, and one refused there refused the whole
    # hello, the browser's seat lost with it.
    name: str | None = Field(
        default=None, max_length=200, description="shown to the others (joining a seat)"
    )


class Move(_Message):
    """A move, by its notation (``action``) or its integer id (``action_id``)."""

    type: Literal["move"]
    seq: int = Field(ge=0, le=10**9, description="the match's seq the move was chosen at")
    action: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ACTION_CHARS)] | None = (
        None
    )
    action_id: int | None = Field(default=None, ge=0, le=10**9)

    @model_validator(mode="after")
    def _one_action(self) -> Move:
        # Neither or both is no move of the protocol (bad_message), whatever its seq.
        if (self.action is None) == (self.action_id is None):
            raise ValueError("a move needs exactly one of action (its notation) or action_id")
        return self


class Resign(_Message):
    """Give up the match (see docs/api.md for three or more seats)."""

    type: Literal["resign"]


class Claim(_Message):
    """Claim from a person who went away while the match waits on them (docs/api.md)."""

    type: Literal["claim"]
    seat: int = Field(ge=0, le=7, description="the absent person's seat")


class Sync(_Message):
    """Ask for the whole state again (after a client lost track)."""

    type: Literal["sync"]


class BoardText(_Message):
    """Start (``show``: true) or stop sending this connection the board as text: the
    terminal's drawing for its seat (``Game.render_text``) in each state message."""

    type: Literal["board_text"]
    show: bool


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


class SetName(_Message):
    """Give one's seat a name, once: a person who took it without one (a friend's link
    opened in a browser that keeps none) goes by the seat's own ("Blue") until then."""

    type: Literal["name"]
    name: Name


ClientMessage = Annotated[
    Hello | Move | Resign | Claim | Sync | BoardText | Ping | SetName,
    Field(discriminator="type"),
]
client_message = TypeAdapter(ClientMessage)
"""Validates one decoded client message."""


# -- the lobby's REST bodies ----------------------------------------------------------------
class CreateMatch(_Message):
    """A new match: the game, its options, and who sits in each seat."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options, as `meeple rules GAME` lists them"
    )
    seats: list[Annotated[str, StringConstraints(min_length=1, max_length=100)]] = Field(
        default_factory=list,
        max_length=8,
        description="per seat: 'human' (a person, joined with the token returned for it),"
        " 'open' (a person, anyone who joins from the lobby; listed matches only), a level"
        " ('easy', 'medium', 'hard') or an agent spec ('mcts:seconds=1'); missing seats: a"
        " person in seat 0, the hard level in the others",
    )
    names: list[Name | None] = Field(
        default_factory=list, max_length=8, description="names of the people, by seat (optional)"
    )
    listed: bool = Field(default=True, description="shown in the lobby (false: private)")
    move_seconds: float | None = Field(
        default=None,
        gt=0,
        le=86_400,
        description="per-move clock for people; at time-out the game's agent moves for them",
    )
    # Below 2**53: a browser reads JSON numbers as doubles, and a record must replay there.
    seed: int | None = Field(default=None, ge=0, lt=2**53)


class SeatRequest(_Message):
    """A seat's token, to leave, resign or ask for a rematch."""

    token: Token


class ClaimRequest(_Message):
    """A seat's token, and the seat of the absent person it claims from."""

    token: Token
    seat: int = Field(ge=0, le=7, description="the absent person's seat")


class TutorialRequest(_Message):
    """Start a tutorial: the learner's name, if given (else "Learner")."""

    name: Name | None = None


class JoinRequest(_Message):
    """Take a seat: with its link's token (from the creator), or the first open one
    without. The reply's token is the seat's own from then on: a link takes its seat once."""

    token: Token | None = None
    seat: int | None = Field(default=None, ge=0, le=7)
    name: Name | None = None
