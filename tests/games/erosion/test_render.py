"""The Erosion screen's words and symbols (issue 32, items 11 and 17)."""

from __future__ import annotations

import io
import random

from rich.console import Console

from meeple.core.registry import make


def _reach(game, seed: int, moves: int):
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
    return state


def _screen(game, state, player=None, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(game.render(state, player))
    return console.export_text()


def test_one_card_to_draw_and_one_rock_to_transport_are_singular():
    game = make("erosion")
    draw = _reach(game, 0, 1)
    assert draw.agenda[0].kind == "draw" and draw.agenda[0].number == 1
    assert "draws 1 card:" in _screen(game, draw)
    transport = _reach(game, 0, 48)
    assert transport.agenda[0].kind == "transport" and transport.agenda[0].number == 1
    assert "transports 1 more rock from the River" in _screen(game, transport)
