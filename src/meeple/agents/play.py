"""Playing a whole game with agents in every seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.core.agent import Agent, Observation
from meeple.core.game import Game, State
from meeple.core.record import Playthrough


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    seats: Sequence[str] | None = None,
    on_move: Callable[[Observation, Any, State[Any]], None] | None = None,
) -> Playthrough:
    """Play a game to its end, one agent per seat, and return it with its record.

    When several seats act at once (a simultaneous decision) each one decides from its own
    observation in turn; the state keeps earlier submissions hidden from later seats.
    ``on_move(observation, action, state_after)`` is called after every action.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    play = Playthrough(game, seed, list(seats) if seats else [a.name for a in agents])
    while not play.state.is_over:
        player = play.state.to_act[0]
        observation = Observation(play.state, player)
        action = agents[player].act(observation)
        play.play(player, action)
        if on_move is not None:
            on_move(observation, action, play.state)
    return play
