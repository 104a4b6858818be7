"""The rules for players: a short Markdown text per game that follows the match's options.

Each game ships ``player_rules.md`` beside its module: the rules a person who has never
played needs at hand (goal, setup, a turn, scoring, the end, the tables used in play), as
opposed to ``rules.md``, the full reference with every interpretation. The text is a
template, filled by :func:`fill` from :meth:`meeple.core.game.Game.player_rules_values`:

- ``{{name}}`` is replaced by that value;
- ``<!-- if name=a|b -->`` ... ``<!-- else -->`` ... ``<!-- end -->`` keeps the first part
  when the value of ``name`` is one of the listed words (``name!=a|b``: is none of them),
  else the part after ``else`` (optional). Blocks may nest; each marker is a line of its
  own.

An unknown name or a marker out of place is a :class:`PlayerRulesError` naming the line, so
a template mistake fails the tests instead of showing a reader ``{{board}}``.
"""

from __future__ import annotations

import re

from meeple.core.errors import MeepleError

_IF = re.compile(r"<!--\s*if\s+([a-z_][a-z0-9_]*)\s*(!?=)\s*([^>]*?)\s*-->")
_ELSE = re.compile(r"<!--\s*else\s*-->")
_END = re.compile(r"<!--\s*end\s*-->")
_FIELD = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


class PlayerRulesError(MeepleError):
    """A player's rules template that cannot be filled (unknown name, unbalanced block)."""


def fill(template: str, values: dict[str, str], source: str = "player_rules.md") -> str:
    """The template with its blocks chosen and its ``{{fields}}`` filled from ``values``."""
    out: list[str] = []
    open_blocks: list[tuple[int, bool]] = []  # (line of each open if, whether its part is kept)
    for number, line in enumerate(template.splitlines(), 1):
        stripped = line.strip()
        if match := _IF.fullmatch(stripped):
            name, sign, words = match.groups()
            held = _value(values, name, source, number) in {w.strip() for w in words.split("|")}
            open_blocks.append((number, held if sign == "=" else not held))
            continue
        if _ELSE.fullmatch(stripped) or _END.fullmatch(stripped):
            if not open_blocks:
                raise PlayerRulesError(f"{source} line {number}: {stripped} without an if")
            start, kept = open_blocks.pop()
            if _ELSE.fullmatch(stripped):
                open_blocks.append((start, not kept))
            continue
        if all(kept for _, kept in open_blocks):

            def field(m: re.Match[str], n: int = number) -> str:
                return _value(values, m.group(1), source, n)

            out.append(_FIELD.sub(field, line))
    if open_blocks:
        raise PlayerRulesError(f"{source} line {open_blocks[-1][0]}: the if has no end")
    text = "\n".join(out)
    # A block dropped between two blank lines leaves three; one blank line is enough.
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def _value(values: dict[str, str], name: str, source: str, number: int) -> str:
    if name not in values:
        known = ", ".join(sorted(values))
        raise PlayerRulesError(f"{source} line {number}: no value called {name!r} ({known})")
    return values[name]
