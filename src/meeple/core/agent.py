"""What an agent is given and what it must do.

An agent sees what a player sees: an :class:`Observation` holds the seat's view, its legal
actions and a way to sample full states consistent with that view (determinization). It never
hands out the true state of a hidden-information game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game, Player, State


class Observation:
    """One seat's knowledge at a decision point."""

    __slots__ = ("_legal", "_state", "_view", "game", "player")

    def __init__(self, state: State[Any], player: Player) -> None:
        self.game: Game[Any, Any, Any] = state.game
        self.player = player
        self._state = state
        self._view: dict[str, Any] | None = None
        self._legal: list[Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """What this seat may know, as in ``state.view(player)``."""
        if self._view is None:
            self._view = self._state.view(self.player)
        return self._view

    @property
    def legal_actions(self) -> list[Any]:
        """The actions this seat may take now."""
        if self._legal is None:
            self._legal = self._state.legal_actions(self.player)
        return self._legal

    def information_key(self) -> Hashable:
        """The key of this seat's information set (see ``State.information_key``)."""
        return self._state.information_key(self.player)

    def memory(self) -> Hashable | None:
        """What a seat with perfect memory keeps from this moment (``State.memory``)."""
        return self._state.memory(self.player)

    def determinize(self, rng: random.Random) -> State[Any]:
        """A full state consistent with this seat's knowledge, hidden parts sampled by ``rng``.

        For perfect-information games this is the state itself.
        """
        return self._state.determinize(self.player, rng)


class SeatMemory:
    """What a seat with perfect memory keeps from the memorise steps it was shown, and the
    samples of its view made consistent with it: an agent that forgot would play worse than
    the rules allow. ``recall`` off keeps nothing (a seat that forgets)."""

    def __init__(self, recall: bool = True) -> None:
        self.recall = recall
        self._kept: list[Hashable] = []

    def see(self, observation: Observation) -> None:
        """Keep what this moment shows that later views will not (``State.memory``)."""
        if self.recall and (memory := observation.memory()) is not None:
            self._kept.append(memory)

    def sample(self, observation: Observation, rng: random.Random) -> State[Any]:
        """A determinization of the seat's view with what it remembers put back."""
        return self.recall_into(observation.determinize(rng))

    def recall_into(self, state: State[Any]) -> State[Any]:
        """``state``, a determinization, with what this seat remembers put back. A memorise
        step shows every seat the same thing (``State.memory``), so a search may put it
        into the sample it models another seat's choice on, too."""
        return state.recalling(self._kept) if self._kept else state


class Agent(Protocol):
    """A player: chooses one of the legal actions of an observation."""

    name: str

    def act(self, observation: Observation) -> Action:
        """The action to take."""
        ...


class Remembering(Protocol):
    """An agent that keeps something from one decision to the next (what a memorise step
    showed, what the opponent revealed, a count of decisions that seeds its streams), and so
    can be told the decisions it did not make itself in this process."""

    def remember(self, observation: Observation, action: Action) -> None:
        """At ``observation`` this seat played ``action``: keep what an agent that had made
        that decision itself would have kept, as if it had."""
        ...


def catch_up(
    agent: Agent,
    player: Player,
    states: Sequence[State[Any]],
    moves: Sequence[tuple[Player, str]],
) -> None:
    """Bring an agent made in the middle of a game to where the same agent, playing
    ``player`` from the first move, would be: each move ``player`` made (``moves``, as a
    record holds them; ``states[k]`` is the state before ``moves[k]``) is told to it, in
    order, through ``remember`` where it has one (:class:`Remembering`).

    A game resumed from a file or played on the server makes its agents again; without this
    they would have forgotten everything their seat was shown before (in The Triangle Clock,
    the shared order of a memorise step) and what they had learned of their opponent.
    Agents without ``remember`` keep nothing between decisions and need nothing.
    """
    remember = getattr(agent, "remember", None)
    if remember is None:
        return
    for state, (seat, text) in zip(states, moves, strict=False):
        if seat == player:
            remember(Observation(state, player), state.game.parse_action(text))


def check_budget(agent: str, name: str, value: float, low: float, allowed: str) -> None:
    """AgentSpecError unless ``value`` is a finite number of at least ``low``: a zero,
    negative, infinite or NaN budget would search forever or not at all."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < low
    ):
        raise AgentSpecError(f"{agent}: {name} must be {allowed}, not {value!r}")
