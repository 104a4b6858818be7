"""meeple.core.conformance.check_game, the whole contract suite a game added from outside
runs (docs/new-game.md), holds for every built-in game too."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.conformance import check_game

# Small options keep each game to a few seconds; the games' own tests play many more seeds.
SMALL = {
    "edges": {"board": "2x3", "stash": "3/3/2"},
    "erd": {"best_of": 1},
    "erosion": {},
    "triangle-clock": {},
    "squad-combat": {"turn_limit": 2},
}


@pytest.mark.parametrize("name", list(SMALL))
def test_every_built_in_game_passes_check_game(name: str) -> None:
    assert check_game(meeple.make(name, **SMALL[name]), seeds=range(2)) > 4
