"""The policy agent: a game's compiled rollout policy, played as an opponent.

Search rolls out with a game's compiled policy and, where the game registers one
(``register_playout(..., choose=)``), also models the other seats with it. Played on its
own, the policy is a fast opponent of its own: at each decision the agent samples one state
consistent with what its seat sees (``observation.determinize``, with what a memorise step
showed put back, as search does) and plays the policy's choice there. It is offered only for
games with such a policy.
"""

from __future__ import annotations

from meeple.core.agent import Observation, SeatMemory
from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game
from meeple.core.registry import compiled_choice, opponent_policies
from meeple.core.rng import make_rng


class PolicyAgent:
    """Plays the game's compiled rollout policy on a state sampled from what its seat sees.

    ``policy``: which compiled policy (``guided`` where the game has one). ``recall``:
    remember what a memorise step shows (perfect memory), as search does.
    """

    name = "policy"

    def __init__(
        self, game: Game, seed: int = 0, policy: str = "guided", recall: bool = True
    ) -> None:
        choose = compiled_choice(game, policy)
        if choose is None:
            offered = ", ".join(opponent_policies(game.name)) or "none"
            raise AgentSpecError(
                f"policy: {game.name} has no compiled policy {policy!r} that chooses one "
                f"action with these options; offered: {offered}"
            )
        self.game = game
        self._choose = choose
        self.rng = make_rng(seed, "policy-agent")
        self.recall = recall
        self._memory = SeatMemory(recall)

    def remember(self, observation: Observation, action: Action) -> None:
        """A decision made elsewhere (see ``core.agent.catch_up``): made again, which costs
        little and moves the agent's stream on as the decision itself did."""
        self.act(observation)

    def act(self, observation: Observation) -> Action:
        """The policy's choice in one sampled state consistent with the seat's view."""
        self._memory.see(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        sample = self._memory.sample(observation, self.rng)
        action = self._choose(sample, observation.player, self.rng.randrange(1 << 31))
        if action not in legal:  # a policy bug must not become an illegal move
            raise AssertionError(f"policy chose {action}, not a legal action")
        return action


def policy_agents(game: Game) -> dict[str, type[PolicyAgent]]:
    """``{"policy": PolicyAgent}`` where ``game`` registers a compiled policy that chooses
    one action, else nothing.

    Only the registration is read here: every agent spec is checked through this listing,
    and whether the compiled rules serve the game's options means building their tables
    (0.2 s for The Triangle Clock), which a game played without the policy never needs.
    :class:`PolicyAgent` checks the options when it is built and says why it cannot play."""
    return {"policy": PolicyAgent} if opponent_policies(game.name) else {}
