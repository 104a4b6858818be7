"""Text from outside that a person will read: a name a player chose, a seat in a record.

Such text reaches terminals and pages. A control character in it can do more than be
shown: ``ESC [`` starts a terminal command (colours, the window's title, a cleared
screen), a line break forges a line of output or of a log, and a bidirectional override
(U+202E) reverses the text that follows it on a page. A lone surrogate (``"\\ud800"`` in
JSON) is no character at all: printing it fails. So such text is refused where it comes
in, naming the character, rather than cleaned where it goes out.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from pydantic import BaseModel, field_validator

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""The characters that change the direction of the text around them (Unicode's explicit
directional formatting characters and marks)."""

_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a lone surrogate, not a character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def unprintable(text: str) -> str | None:
    """What is wrong with ``text`` as a line a person reads (its first character that is
    a control character, a lone surrogate, a line or paragraph separator or a direction
    control, named with its code point), or None if nothing is."""
    for char in text:
        what = _refused(char)
        if what is not None:
            return f"U+{ord(char):04X} is {what}"
    return None


def _refused(char: str) -> str | None:
    what = _REFUSED_CATEGORIES.get(unicodedata.category(char))
    if what is None and char in BIDI_CONTROLS:
        what = "a control of the text's direction"
    if what is None and _is_noncharacter(char):
        what = "a noncharacter, which Unicode keeps out of text"
    return what


def _is_noncharacter(char: str) -> bool:
    """One of Unicode's 66 noncharacters: U+FDD0 to U+FDEF and the last two code points of
    every plane (U+FFFE, U+FFFF, U+1FFFE ...)."""
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def printable(text: str) -> str:
    """``text`` itself if a person may read it as it is; else ValueError saying which
    character is not allowed (a pydantic validator: ``AfterValidator(printable)``)."""
    problem = unprintable(text)
    if problem is not None:
        raise ValueError(f"{problem}; only printable text is allowed on one line")
    return text


_UNSEEN_CATEGORIES = {
    "Cf": "a format character, not drawn",
    "Mn": "a combining mark, drawn only on a character before it",
    "Mc": "a combining mark, drawn only on a character before it",
    "Me": "an enclosing mark, drawn only around a character before it",
    "Zs": "a space",
    "Co": "a private-use character, which no font is sure to draw",
    "Cn": "a code point this server's Unicode does not name, which no font is sure to draw",
}

BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and a symbol that fonts draw as empty space: the Hangul fillers and the blank
Braille pattern."""


def shows(text: str) -> str:
    """``text`` itself if a person sees something of it; else ValueError saying what a name
    must have. A name of zero-width or combining characters only passes
    :func:`printable` yet shows as blank in a list of seats (a pydantic validator, after
    ``printable``)."""
    unseen = [_unseen(char) for char in text]
    if text and all(unseen):
        raise ValueError(
            f"nothing of it shows (U+{ord(text[0]):04X} is {unseen[0]}); a name needs at "
            "least one visible character: a letter, digit, punctuation mark or symbol"
        )
    return text


def _unseen(char: str) -> str | None:
    if char in BLANK_CHARACTERS:
        return "drawn as empty space"
    return _UNSEEN_CATEGORIES.get(unicodedata.category(char))


def printable_within(value: Any) -> Any:
    """``value`` itself if every text in it (in lists, tuples and dicts too) is
    :func:`printable`; else its ValueError. A validator for every field of a model whose
    text is all shown (``field_validator("*")``)."""
    if isinstance(value, str):
        printable(value)
    elif isinstance(value, list | tuple | frozenset | set):
        for item in value:
            printable_within(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            printable_within(key)
            printable_within(item)
    return value


def visible(text: str) -> str:
    """``text`` with every character :func:`unprintable` refuses, line breaks aside,
    written as its escape (``\\x1b``, ``\\u202e``): a message that quotes what came from
    outside shows it, and the terminal does not act on it."""
    return "".join(
        char if char == "\n" or _refused(char) is None else _escape(char) for char in text
    )


def one_line(text: str) -> str:
    """:func:`visible`, line breaks escaped too: text from outside quoted in one line of a
    log, which an operator may read in a terminal."""
    return visible(text).replace("\n", "\\n")


def json_words(value: Any, most: int = 40) -> str:
    """A value read from JSON as a message tells it back, its JSON type plain: ``the text
    '7'``, ``7``, ``true``, ``null``; a long text or a list cut to about ``most``
    characters, and every character shown (:func:`one_line`)."""
    if isinstance(value, str):
        quoted = repr(value if len(value) <= most else value[:most] + "…")
        return f"the text {one_line(quoted)}"
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    kind = "a list" if isinstance(value, list) else "an object"
    return kind


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class ShownText(BaseModel):
    """A model whose text is all shown to people (a card's name and its words, read from a
    designer's file): every text field, in lists and tuples too, must be printable."""

    @field_validator("*")
    @classmethod
    def _printable(cls, value: Any) -> Any:
        return printable_within(value)
