"""Hints in a server's matches: who may ask, and the judge's suggestion computed in an agent
worker from the asking seat's view only (:func:`meeple.lab.hints.hint`), the newest kept."""

from __future__ import annotations

from typing import Any

from meeple.core.game import Player
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import LiveMatch, ServerError
from meeple.interfaces.web.pool import AgentOverrun, AgentPool
from meeple.interfaces.web.preparing import Preparer

HINTS_KEPT = 256
"""Hints kept in memory (the newest): asking twice at one decision computes it once."""


class Hints:
    """The hints of one server process's matches."""

    def __init__(
        self, pool: AgentPool, preparer: Preparer, content: ContentSets, limits: ServerLimits
    ) -> None:
        self.pool = pool
        self.preparer = preparer
        self.content = content
        self.limits = limits
        self._kept: dict[tuple[str, int, int], dict[str, Any]] = {}

    def check(self, match: LiveMatch, seat: Player) -> None:
        """Refuse a hint (ServerError) unless ``match`` is played against the computer (one
        person, every other seat an agent), is going on and waits on ``seat``'s decision."""
        if match.tutorial is not None:
            raise ServerError(
                "a tutorial shows the move it teaches; hints are for games against the computer",
                403,
                "hints_off",
            )
        if len(match.people()) != 1:
            raise ServerError(
                "hints are for games against the computer: this match has more than one "
                "person in it",
                403,
                "hints_off",
            )
        if match.stored.status != "playing":
            raise ServerError("a hint is for a match being played", 409, "not_playing")
        if seat not in match.state.to_act or not match.state.legal_actions(seat):
            raise ServerError(
                "a hint is for your own decision: it is not your turn", 409, "not_your_turn"
            )

    async def hint(self, match: LiveMatch, seat: Player) -> dict[str, Any]:
        """The judge's suggestion for ``seat`` now; cached per match, decision and seat."""
        self.check(match, seat)
        stored = match.stored
        seq = match.seq
        # From the decision's start: other seats' choices to a simultaneous decision are
        # hidden from this seat and change nothing it may choose, so the hint never sees them.
        base = match.decision_base
        key = (match.id, base, seat)
        found = self._kept.get(key)
        if found is None:
            # The game's best judge may need what its strongest agent needs (Erd's solved
            # rules): made off the request path, for the variants this server prepares.
            self.preparer.prepare_for_judge(match.game)
            await self.preparer.ready(match.game, self.preparer.compile_hints(match.game))
            try:
                found = await self.pool.hint(
                    stored.game,
                    self.content.resolve(stored.game, stored.options),
                    stored.seed,
                    list(stored.moves[:base]),
                    seat,
                    self.limits.max_hint_iterations,
                    self.limits.max_agent_exact,
                    allowance=self.limits.hint_seconds,
                    owner=match.owner,
                )
            except AgentOverrun:
                raise ServerError(
                    f"the hint took longer than this server allows ({self.limits.hint_seconds:g}"
                    " s); try again later",
                    503,
                    "hint_timeout",
                ) from None
            self._kept[key] = found
            while len(self._kept) > HINTS_KEPT:
                self._kept.pop(next(iter(self._kept)))
        return {"match": match.id, "seq": seq, **found}
