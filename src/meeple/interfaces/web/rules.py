"""The rules a player needs at hand, for the pages' Rules panel: ``Game.player_rules()``
as Markdown and as HTML rendered here, on the server, so that the pages need no Markdown
library. Raw HTML in the text is shown as text, never passed through, and links may only
be http(s) or relative (markdown-it's own check)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

from meeple.core.files import Unreadable, parse_json
from meeple.core.game import Game
from meeple.core.registry import make
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import ServerError
from meeple.interfaces.web.lobby import ONLINE_CONTENT, check_options_size


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    # CommonMark with tables, and html off: a "<script>" in a designer's card name is text.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


@lru_cache(maxsize=64)
def _html(markdown: str) -> str:
    # The lobby asks for a game's rules as a person picks its variants, most often with the
    # same text; rendering is most of a request's cost (tens of milliseconds).
    return _renderer().render(markdown)


def rules_reply(game: Game[Any, Any, Any]) -> dict[str, Any]:
    """``{"game", "title", "markdown", "html", "notes"}``: the player's rules for this game's
    options, and what is noted about them (:meth:`Game.configuration_notes`: an option the
    others make moot, decks of different sizes)."""
    text = game.player_rules()
    return {
        "game": game.name,
        "title": game.title,
        "markdown": text,
        "html": _html(text),
        "notes": game.configuration_notes(),
    }


def game_from_query(
    name: str, options: str | None, content: ContentSets, source: str, limits: ServerLimits
) -> Game[Any, Any, Any]:
    """The game ``name`` with the options of a query's JSON object (none: the defaults),
    an installed content set named as a match names it (``"set:<name>"``) read from its
    folder. ``source`` names the request in a refusal ("the rules request").

    Refused with a one-line error: text that is not a JSON object, and options that name
    files on the server (as a new match refuses them); bad options get the game's own
    message."""
    chosen: dict[str, Any] = {}
    if options is not None and options.strip():
        # As a match's options are (a match's fit: its page asks for its rules), counted
        # before they are read: written compactly they are no longer than this text.
        check_options_size(len(options.encode()), limits)
        try:
            chosen = parse_json(options)
        except Unreadable as exc:
            raise ServerError(
                f'options must be a JSON object, e.g. {{"rules": "0.01"}}; this is {exc}'
            ) from None
        if not isinstance(chosen, dict):
            raise ServerError('options must be a JSON object, e.g. {"rules": "0.01"}')
    # As a new match does: no option may name a file, each value has its JSON type, and a
    # set is one the operator installed (a page of a match played with one asks for it).
    _, sets = content.check(name, chosen, source, ONLINE_CONTENT)
    with content.naming(sets):
        return make(name, **content.resolve(name, chosen))
