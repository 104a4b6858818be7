"""How games ended: the reasons counted, and the games that a safety limit decided.

A game may end by its rules (a Rush broke through, all pyramids are placed) or by a
*safeguard*: a limit the implementation adds so that a game which cycles still ends (Erd's
``round_limit``, Squad Combat's ``turn_limit``). A safeguard ending says nothing about the
rules, so a run whose draws all come from one must say so. A game declares a safeguard as an
option whose description starts with "safeguard"; an ending is a safeguard ending when its
words name that option ("draw by round limit", "turn limit of 100 reached"). A game the
rules decided in the last round the safeguard allows (``Game.at_safeguard``) is counted
too: an agent that sees the limit's draw coming may have played for it.

Rows keep the game's ``reason``. A game whose result lists the games of a match (Erd:
``result["games"]``, each with a ``reason_text``) ends once per game of the match, and the
row's reason tells only of the last one; such rows are replayed from their moves so that
every game of the match is counted. A row that carries ``endings`` (a list of words, one per
game) is believed as it is.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.registry import make

NOT_GIVEN = "no reason given"


class Endings(BaseModel):
    """How the games of a run ended."""

    counts: dict[str, int]
    """Games by the words of their ending, most common first."""
    games: int
    """Games counted: one per row, or one per game of each match."""
    per_match: bool
    """Whether rows are matches whose games were counted one by one."""
    safeguard: dict[str, int]
    """The endings that a safety limit decided, with their counts (empty: none)."""
    limits: list[str]
    """The options that set those limits, as flags (``--round-limit``)."""
    at_limit: int = 0
    """Games the rules decided in the last round (turn) a safety limit allows: played, it
    may be, for the limit (:meth:`meeple.core.game.Game.at_safeguard`)."""

    @property
    def safeguard_games(self) -> int:
        """Games a safety limit ended."""
        return sum(self.safeguard.values())

    def text(self) -> str:
        """``all pyramids are placed 200 (100%)``; several endings joined by ``; ``."""
        return "; ".join(
            f"{words} {n} ({_percent(n, self.games)})" for words, n in self.counts.items()
        )

    def warning(self) -> str | None:
        """A sentence for the person reading the results, when a safety limit ended games
        or games were decided in the last round it allows."""
        if not self.safeguard and not self.at_limit:
            return None
        unit = "games of the matches" if self.per_match else "games"
        raise_it = f"raise {' or '.join(self.limits)} " if self.limits else ""
        said = []
        if self.safeguard:
            which = ", ".join(f"{words}: {n}" for words, n in self.safeguard.items())
            said.append(
                f"a safety limit, not the rules, ended {self.safeguard_games} of {self.games} "
                f"{unit} ({which}): those results come from the limit, not from the game"
            )
        if self.at_limit:
            said.append(
                f"{self.at_limit} of {self.games} {unit} were decided in the last round (or "
                "turn) a safety limit allows, where the agents may have played for the limit "
                "(waiting to strike until it)"
            )
        return "; ".join(said) + f"; {raise_it}or change the agents"


def _percent(n: int, total: int) -> str:
    share = 100 * n / total if total else 0.0
    return f"{share:.0f}%" if share >= 1 or share == 0 else "<1%"


def safeguard_options(game: Game) -> dict[str, str]:
    """The game's safeguard options: the words an ending uses for each, and its flag."""
    out = {}
    for name, field in type(game.options).model_fields.items():
        if (field.description or "").lower().startswith("safeguard"):
            out[name.replace("_", " ")] = "--" + name.replace("_", "-")
    return out


def _words(game: Game | None, reason: Any) -> str:
    """A reason in words shared by every game that ended the same way: seat names, which
    differ from game to game, become "a player"."""
    if not isinstance(reason, str) or not reason.strip():
        return NOT_GIVEN
    text = reason.strip()
    if game is not None:
        # Longest names first, so that no name is replaced inside a longer one.
        names = sorted(set(game.seat_names()), key=len, reverse=True)
        for name in names:
            text = text.replace(name, "a player")
    return text


def match_endings(result: dict[str, Any]) -> list[str] | None:
    """The ending of each game of a match, when ``result`` lists them (Erd's ``games``);
    None for a result of one game. What a row could keep as ``endings``."""
    games = result.get("games")
    if isinstance(games, list) and games and all(isinstance(g, dict) for g in games):
        return [str(g.get("reason_text") or g.get("reason") or NOT_GIVEN) for g in games]
    return None


def _replayed_result(game: Game, row: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        state = game.new_game(int(row["seed"]))
        for player, text in row["moves"]:
            state = state.apply_text(int(player), str(text))
    except (MeepleError, KeyError, TypeError, ValueError):
        return None  # a row that does not replay keeps the reason it carries
    return state.result if state.is_over else None


class _Setting:
    """The game of a group of rows and whether its results are matches (found once)."""

    def __init__(self, row: Mapping[str, Any]) -> None:
        try:
            self.game: Game | None = make(row["game"], **row.get("options", {}))
        except (MeepleError, KeyError, TypeError):
            self.game = None
        self.matches: bool | None = None  # unknown until a row of the group is replayed


def count_endings(rows: Sequence[Mapping[str, Any]]) -> Endings | None:
    """Count how the games of ``rows`` ended; None when no row says."""
    if not any("reason" in r or "endings" in r for r in rows):
        return None
    settings: dict[str, _Setting] = {}
    counts: Counter[str] = Counter()
    per_match = False
    safeguards: dict[str, str] = {}
    at_limit = 0
    for row in rows:
        key = json.dumps([row.get("game"), row.get("options", {})], sort_keys=True, default=str)
        setting = settings.get(key)
        if setting is None:
            setting = settings[key] = _Setting(row)
            if setting.game is not None:
                safeguards.update(safeguard_options(setting.game))
        endings = row.get("endings")
        result = None
        if not (isinstance(endings, list) and endings):
            endings = None
            if setting.game is not None and setting.matches is not False and "moves" in row:
                result = _replayed_result(setting.game, row)
                if result is not None:
                    endings = match_endings(result)
                    setting.matches = endings is not None
        if endings is None:
            endings = [row.get("reason")]
        per_match = per_match or bool(setting.matches) or len(endings) > 1
        words = [_words(setting.game, e) for e in endings]
        counts.update(words)
        if setting.game is not None:
            reached = setting.game.at_safeguard(result, row.get("units") or {})
            ended_by_it = sum(_is_safeguard(w, safeguards) for w in words)
            at_limit += max(0, reached - ended_by_it)
    limited = {words: n for words, n in counts.items() if _is_safeguard(words, safeguards)}
    flags = sorted({f for s, f in safeguards.items() if any(s in w.lower() for w in limited)})
    if at_limit and not flags:
        flags = sorted(set(safeguards.values()))
    return Endings(
        counts=dict(counts.most_common()),
        games=sum(counts.values()),
        per_match=per_match,
        safeguard=limited,
        limits=flags,
        at_limit=at_limit,
    )


def _is_safeguard(words: str, safeguards: Mapping[str, str]) -> bool:
    """Whether an ending's words are a safeguard's (they name its option)."""
    return "safeguard" in words.lower() or any(s in words.lower() for s in safeguards)
