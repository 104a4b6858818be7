"""Agent specs: a seat is described by a string such as ``random``, ``greedy:seed=3``.

``name`` picks an agent (a generic one from :data:`GENERIC_AGENTS` or one the game offers);
``key=value`` pairs after a colon are its parameters, checked against its signature.
``human`` is a seat played at a prompt; interfaces handle it, so it is not built here.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from meeple.agents.careless import CarelessAgent
from meeple.agents.flat import FlatAgent
from meeple.agents.levels import DESIGNER_LEVEL, LEVEL_NAMES, SEAT_WORDS, seat_spec
from meeple.agents.mcts import ISMCTSAgent, MCTSAgent
from meeple.agents.policy import PolicyAgent, policy_agents
from meeple.agents.random_agent import RandomAgent
from meeple.core.agent import Agent
from meeple.core.errors import AgentPackageError, AgentSpecError, did_you_mean
from meeple.core.game import AgentFactory, Game
from meeple.core.options import BOOL_SYNONYMS
from meeple.core.registry import defined_at, game_agents

HUMAN = "human"


def careless(game: Game, seed: int = 0, slip: float = 0.3) -> CarelessAgent:
    """Plays as the game's hand-written agent, except that at each decision, at a chance
    of slip, it plays a random legal move instead: a weak opponent that still plays like
    one."""
    inner = make_agent(game.heuristic_agent or RandomAgent.name, game, seed)
    return CarelessAgent(game, inner, seed=seed, slip=slip)


GENERIC_AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "careless": careless,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
    "flat": FlatAgent,
}
"""Agents that play any game, by name."""


__all__ = ["AgentSpecError"]  # defined in core so that agents can raise it too


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent's name and its parameters as written."""

    name: str
    params: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())

    @property
    def is_human(self) -> bool:
        """True for a seat played by a person at a prompt."""
        return self.name == HUMAN


def parse_spec(text: str) -> AgentSpec:
    """Read ``name`` or ``name:key=value,key=value``."""
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise AgentSpecError(f"{text!r} is not an agent spec; write a name like random or greedy")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(
                f"{part!r} in agent spec {text!r} is not key=value (e.g. {name}:seed=3)"
            )
        key = key.strip().replace("-", "_")
        if key in params:
            # the later value would silently win, and a run's record keep only it
            raise AgentSpecError(
                f"{key!r} is given twice in agent spec {text!r}; give each parameter once"
            )
        params[key] = value.strip()
    return AgentSpec(name, params)


def available_agents(game: Game) -> dict[str, AgentFactory]:
    """Every agent that can play ``game``: the generic ones (``policy`` where the game has a
    compiled policy to play), then those registered for it with
    :func:`meeple.core.registry.register_agent`: the game's own (from its package) and other
    packages' (solvers, installed agent packages).

    A registered name that is meeple's own (a generic agent, ``policy``, ``human``, a level)
    is AgentPackageError: it would otherwise replace meeple's agent in silence, or never be
    reached (a level's word is read as the level before any agent)."""
    registered = game_agents(game.name)
    ours = {HUMAN, *SEAT_WORDS, *GENERIC_AGENTS, PolicyAgent.name}
    if clash := sorted(registered.keys() & ours):
        name = clash[0]
        raise AgentPackageError(
            f"the agent {name!r} registered for {game.name} by {defined_at(registered[name])} "
            f"takes a name meeple gives its own agents and levels ({', '.join(sorted(ours))}); "
            "register it under another name"
        )
    return {**GENERIC_AGENTS, **policy_agents(game), **registered}


def agent_names(game: Game) -> list[str]:
    """Names a seat may be given for ``game``, ``human`` included."""
    return [HUMAN, *available_agents(game)]


def make_agent(spec: str | AgentSpec, game: Game, seed: int = 0) -> Agent:
    """Build the agent a spec describes; ``seed`` is used unless the spec sets one."""
    return agent_builder(spec, game)(seed)


def agent_builder(spec: str | AgentSpec, game: Game) -> Callable[[int], Agent]:
    """Check a spec once and return ``build(seed)``, which makes its agent as
    :func:`make_agent` would: for callers that seat the same spec in many games (the lab),
    where reading the agent's signature again for every game would cost more than the game.
    """
    spec, factory, kwargs = agent_parameters(spec, game)
    if "seed" in spec.params:
        return lambda _seed: factory(game, **kwargs)
    return lambda seed: factory(game, **{**kwargs, "seed": seed})


def agent_parameters(
    spec: str | AgentSpec, game: Game
) -> tuple[AgentSpec, AgentFactory, dict[str, Any]]:
    """A spec read for ``game``: the spec, its agent's factory and the parameters as the
    factory takes them (a seed of 0 unless the spec sets one); AgentSpecError naming what
    is wrong. :func:`agent_builder` makes agents of them; a server checks them without."""
    spec = parse_spec(seat_spec(game, spec)) if isinstance(spec, str) else spec
    agents = available_agents(game)
    factory = agents.get(spec.name)
    if factory is None and spec.is_human:
        raise AgentSpecError(
            f"{HUMAN!r} is a person at a prompt, not an agent that plays by itself; choose a "
            f"level ({', '.join(LEVEL_NAMES)}) or an agent: {', '.join(agents)}"
        )
    if factory is None:
        names = agent_names(game)
        near = did_you_mean(spec.name, [*SEAT_WORDS, *names])
        raise AgentSpecError(
            f"no agent called {spec.name!r}{near} for {game.name}; choose a level "
            f"({', '.join(LEVEL_NAMES)}), {DESIGNER_LEVEL} (the lab's agent to balance with) "
            f"or an agent: {', '.join(names)}"
        )
    return spec, factory, coerce_params(spec, factory, {"seed": 0, **spec.params})


def coerce_params(spec: AgentSpec, factory: AgentFactory, raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw`` parameters of ``spec`` as ``factory`` takes them (each value read as its
    parameter's type); AgentSpecError naming the parameter for an unknown one or a bad value."""
    try:
        signature = inspect.signature(factory, eval_str=True)
    except NameError:
        signature = inspect.signature(factory)
    params = {
        name: p
        for name, p in list(signature.parameters.items())[1:]
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in params:
            raise AgentSpecError(
                f"agent {spec.name!r} has no parameter {key!r}{did_you_mean(key, params)}; "
                f"its parameters are: {', '.join(params) or '(none)'}"
            )
        annotation = params[key].annotation
        if annotation is inspect.Parameter.empty or isinstance(annotation, str):
            annotation = _annotation_from_default(params[key].default)
        try:
            out[key] = TypeAdapter(
                annotation, config=ConfigDict(arbitrary_types_allowed=True)
            ).validate_python(value)
        except ValidationError as exc:
            error = exc.errors()[0]
            # What is allowed, where pydantic's words say only what was not.
            allowed = PARSING.get(error["type"])
            said = f"allowed: {allowed}" if allowed else error["msg"]
            raise AgentSpecError(
                f"agent {spec.name!r}: bad value {value!r} for {key}: {said}"
            ) from None
        if isinstance(out[key], float) and not math.isfinite(out[key]):
            # No agent parameter means anything at infinity or NaN (a search would never end).
            raise AgentSpecError(
                f"agent {spec.name!r}: {key} must be a finite number, not {value!r}"
            )
    return out


PARSING = {
    "bool_parsing": BOOL_SYNONYMS,
    "int_parsing": "a whole number",
    "float_parsing": "a number",
}
"""What a parameter of each type takes, by pydantic's error for text it cannot read."""


def _annotation_from_default(default: Any) -> Any:
    if default is inspect.Parameter.empty or default is None:
        return Any
    return type(default)
