"""The options of Squad Combat (``rules.md``, "Options"): the players and their decks, the
content folder, the hand size, who starts and leads, and the readings a table may choose
(reaction order and prompts, edge windows, end-of-turn draws, the turn limit)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from meeple.core.options import GameOptions
from meeple.games.squad_combat.content import FILES, Content, ContentError, load_content


class SquadCombatOptions(GameOptions):
    """Options of Squad Combat."""

    players: int = Field(title="Players", default=2, ge=2, le=4, description="number of players")
    decks: str | None = Field(
        title="Decks",
        default=None,
        description="deck ids for the seats in order, joined by '/' (or ','); a shorter list "
        "repeats; default: the content's decks in file order, alternating",
        json_schema_extra={
            "allowed": "deck ids joined by '/', e.g. iron-line/shadow-circle",
            "default_words": "alternating",
            # The shipped decks' ids: a card set of a designer's names its own.
            "suggested": [
                ["iron-line/shadow-circle", "the shipped decks in turn, Iron Line first"],
                ["shadow-circle/iron-line", "the shipped decks in turn, Shadow Circle first"],
                ["iron-line", "Iron Line at every seat"],
                ["shadow-circle", "Shadow Circle at every seat"],
            ],
        },
    )
    content: str | None = Field(
        title="Card set (a folder on the server)",
        default=None,
        description="folder holding characters.toml, cards.toml and decks.toml; "
        "default (or the word default): the demo content shipped with the game",
        json_schema_extra={
            "allowed": "default | a folder path (./default for a folder called default)",
            "default_words": "shipped",
            "external": list(FILES.values()),
            "shipped": "data",
        },
    )
    hand_size: int = Field(
        title="Hand size", default=5, ge=1, le=12, description="cards drawn up to (the rulebook: 5)"
    )
    first: int | Literal["random"] = Field(
        title="Who starts",
        default="random",
        description="seat that takes the first turn; random: drawn at random as the match starts",
        json_schema_extra={"allowed": "random | a seat number"},
    )
    lead: Literal["fixed", "rotate"] = Field(
        title="Who opens each turn",
        default="fixed",
        description="who opens each turn: fixed = the first player every turn (as written); "
        "rotate = the next player to the left each turn",
    )
    reactions: Literal["defender-first", "attacker-first"] = Field(
        title="Who reacts first to an attack",
        default="defender-first",
        description="order of the reaction windows of an attack, after the dice are chosen",
    )
    reaction_prompts: Literal["playable", "always"] = Field(
        title="Ask for reactions",
        default="playable",
        description="playable: a reaction window opens, and an action phase asks, only when "
        "the player has something to play; always: every time (hides what a hand holds)",
    )
    edge_windows: Literal["anytime", "own"] = Field(
        title="When edges may be played",
        default="anytime",
        description="anytime: an unrestricted edge may be played before any action resolves, "
        "by every seat after an attack's dice, and at the end of a turn (the rulebook: 'it may be "
        "played at anytime'); own: only in its owner's action phase and when its owner's "
        "character attacks or is attacked",
    )
    end_draws: Literal["seat-by-seat", "all-at-once"] = Field(
        title="End-of-turn draws",
        default="seat-by-seat",
        description="end of turn: each player discards then draws before the next (seat-by-"
        "seat), or every player discards first and then every player draws (all-at-once)",
    )
    turn_limit: int = Field(
        title="Turns before the game is drawn",
        default=100,
        ge=1,
        le=100_000,
        description="safeguard: after this many turns the game ends as a draw, and says so",
    )

    @model_validator(mode="after")
    def _fits(self) -> SquadCombatOptions:
        if self.first != "random" and not 0 <= self.first < self.players:
            raise ValueError(
                f"first must be random or a seat from 0 to {self.players - 1}, not {self.first}"
            )
        try:
            content = load_content(self.content)
            resolve_decks(self, content)
        except ContentError as exc:
            raise ValueError(str(exc)) from None
        return self


def resolve_decks(options: SquadCombatOptions, content: Content) -> tuple[str, ...]:
    """The deck id of every seat: the ``decks`` list (repeated), else the content's decks."""
    keys = content.deck_ids(options.decks)
    return tuple(keys[p % len(keys)] for p in range(options.players))
