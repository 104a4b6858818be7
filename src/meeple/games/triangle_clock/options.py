"""The Triangle Clock's options: the seed's Final Match items, the ranking table, the
readings of its gaps (``rules.md``) and the clocks a person plays under."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from meeple.core.options import GameOptions, no_steps
from meeple.games.triangle_clock.hands import RankingTableError, load_ranking_table
from meeple.games.triangle_clock.pieces import SEED_ITEMS, items_text, parse_items


class TriangleClockOptions(GameOptions):
    """Options of The Triangle Clock."""

    auto_steps: bool = no_steps()

    items: str = Field(
        title="Final Match items",
        default=SEED_ITEMS,
        description="the Final Match items each seat holds, seat 0 / seat 1 "
        "(the rulebook's final: palette-swap+right-angle/mulligan)",
        json_schema_extra={
            "allowed": "ITEMS/ITEMS, ITEMS = none, all, or palette-swap, "
            "right-angle, mulligan joined by +",
            "suggested": [
                [SEED_ITEMS, "the rulebook's: Tick Palette Swap and Right Angle, Tock Mulligan"],
                [
                    "mulligan/palette-swap+right-angle",
                    "swapped: Tick Mulligan, Tock Palette Swap and Right Angle",
                ],
                ["all/all", "every item to each seat"],
                ["none/none", "no items"],
            ],
        },
    )
    ranking: str | None = Field(
        title="Ranking table (a file on the server)",
        default=None,
        description="path of a TOML ranking table to use instead of the shipped one; "
        "default (or the word default): the shipped table",
        json_schema_extra={
            "allowed": "default | a path to a .toml ranking table",
            "default_words": "shipped",
            "external": True,
            "shipped": "ranking.toml",
        },
    )
    tie_break: Literal["rank-first", "whole-hand"] = Field(
        title="Equal ranks are broken by",
        default="rank-first",
        description="equal ranks: compare the symbols that make the rank first, or the "
        "whole hands, symbol closest to 12 o'clock clockwise first",
    )
    mulligan_order: Literal["new-first", "literal"] = Field(
        title="Mulligan order",
        default="new-first",
        description="Mulligan: draw the 4 new cards first, then shuffle the old ones into the "
        "deck (new-first); or, as the rulebook orders it, put the old cards back, shuffle, then "
        "draw 4, so an old card can come back (literal)",
    )
    notes: Literal["allowed", "forbidden"] = Field(
        title="Notes",
        default="allowed",
        description="'You may not take written notes': forbidden hides from a person's "
        "screen what the rulebook expects them to remember (earlier rounds' reveals once the "
        "next round is under way, the discard pile, earlier shared symbols); agents see "
        "their whole view either way",
    )
    memorise_seconds: float = Field(
        title="Seconds to memorise the order",
        default=120,
        ge=0,
        le=86_400,  # a day, as a game server's move clock: 1e308 was taken and sent
        description="how long a person sees the order of shared symbols before it is hidden",
    )
    choice_seconds: float = Field(
        title="Seconds per choice between people",
        default=60,
        ge=0,
        le=86_400,  # a day, as a game server's move clock: 1e308 was taken and sent
        description="time per choice (the rulebook: 1 minute; 0: none); the game server "
        "enforces it, the terminal does not",
    )

    @field_validator("items")
    @classmethod
    def _items(cls, value: str) -> str:
        return items_text(parse_items(value))

    @field_validator("ranking")
    @classmethod
    def _ranking(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                load_ranking_table(value)
            except RankingTableError as exc:
                raise ValueError(str(exc)) from None
        return value
