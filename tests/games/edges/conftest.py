"""Helpers for building Edges positions move by move."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.edges import EdgesGame, EdgesState


def play(state: EdgesState, *moves: str) -> EdgesState:
    """Apply moves in notation, each by whoever is to act."""
    for text in moves:
        state = state.apply_text(state.to_act[0], text)
    return state


@pytest.fixture
def standard() -> EdgesGame:
    """3x4 with Red (seat 0) moving first, pie rule on."""
    game = meeple.make("edges", first=0)
    assert isinstance(game, EdgesGame)
    return game
