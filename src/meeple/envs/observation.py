"""The observations the one-game adapters offer: ``"view"`` or ``"designed"``.

- ``"view"`` (the default): the seat's JSON view laid out by the generic encoder
  (:mod:`meeple.envs.encoding`); serves every game and option, and is large (11,697 numbers
  for Erosion).
- ``"designed"``: the fixed-size observation of the game's batched rules
  (:mod:`meeple.envs.vector`, docs/batched.md), every slot in [0, 1], computed from the
  seat's view of the readable rules, so the one-game adapters and the batched environment
  see the same numbers. Only where the batched rules serve the configuration: elsewhere it
  is refused in one line naming the option.

Both read only ``state.view(seat)``: an observation holds nothing the seat may not know.
PettingZoo, Gymnasium and OpenSpiel take their observation from :func:`observation_for`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Literal, Protocol

import numpy as np

from meeple.core.errors import MeepleError
from meeple.core.game import Game, State
from meeple.core.registry import batch_rules, make
from meeple.envs.encoding import ViewEncoder, encoder_for

ObservationKind = Literal["view", "designed"]
OBSERVATIONS: tuple[str, ...] = ("view", "designed")
"""The observations an adapter offers; the first is the default."""


class SeatObservation(Protocol):
    """A fixed-size float32 vector of what one seat of a state may know."""

    size: int
    low: float
    high: float

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        """``seat``'s observation of ``state``, ``size`` float32 numbers."""
        ...

    def describe(self) -> list[str]:
        """The name of every slot, in order."""
        ...


class ViewObservation:
    """The seat's view laid out by the generic encoder (``observation="view"``)."""

    low, high = -1e9, 1e9

    def __init__(self, encoder: ViewEncoder) -> None:
        self.encoder = encoder
        self.size = encoder.size

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        """``seat``'s view of ``state``, encoded."""
        return self.encoder.encode(state.view(seat))

    def describe(self) -> list[str]:
        """The name of every slot (``sides[0].reserve.H``, ...)."""
        return self.encoder.describe()


class DesignedObservation:
    """The batched rules' observation of a seat (``observation="designed"``)."""

    low, high = 0.0, 1.0

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.size = int(rules.observation_size)

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        """``seat``'s designed observation of ``state``, from its view."""
        return self.rules.observation_of_view(state.view(seat), seat)

    def describe(self) -> list[str]:
        """The name of every slot, as the batched environment names them."""
        return list(self.rules.observation_slots())


def designed_observation(game: Game[Any, Any, Any]) -> DesignedObservation:
    """The designed observation of a game configuration (its options and the data files
    they name, as they are now; made once per process); MeepleError in one line naming the
    option where the batched rules refuse it."""
    return _designed(game.name, game.options.identity())


@lru_cache(maxsize=32)
def _designed(name: str, identity: str) -> DesignedObservation:
    game = make(name, **json.loads(identity)["options"])
    try:
        rules = batch_rules(game)
    except MeepleError as exc:
        raise MeepleError(
            'observation="designed" is not offered for this configuration: '
            f'{exc}; observation="view" serves every option'
        ) from None
    return DesignedObservation(rules)


def observation_for(game: Game[Any, Any, Any], observation: str = "view") -> SeatObservation:
    """The observation ``observation`` (``"view"`` or ``"designed"``) of a game
    configuration; MeepleError naming what is allowed for any other word."""
    if observation == "view":
        return ViewObservation(encoder_for(game))
    if observation == "designed":
        return designed_observation(game)
    raise MeepleError(
        f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}, not {observation!r}"
    )
