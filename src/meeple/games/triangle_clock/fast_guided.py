"""The Triangle Clock's guided rollout: a greedy hand planner, compiled, for search.

Search (``ismcts:rollout=guided``) rolls out from a determinized state with this policy
instead of uniformly random picks. It only *chooses* among the compiled rules' legal
actions (:func:`.fast.legal_actions`) and applies them with the compiled rules
(:func:`.fast.apply`), which a differential test proves equal to the engine; nothing here
changes a rule.

At each pick a seat plans as the heuristic agent does, against one opponent hand: of every
hand it can still finish this round (a full card and one symbol of another, consistent with
the picks it has revealed, with Palette Swap and Right Angle where it holds uses), it takes
the next pick of the one that scores best against the opponent's strongest finishable hand
in the rollout's (sampled) state: the opponent's strength when it ranks higher, minus its
own strength when it ranks lower (a hand that will lose is best kept weak), less
:data:`ITEM_COST` per item spent. With probability :data:`EPSILON` a pick is uniformly
random instead, so that rollouts from one position vary. Rollouts never take a Mulligan.
Planning for one's own strongest hand instead (:data:`REPLY` off) is far weaker: played as
an agent against the heuristic agent, it lost by some 50 points a game where the answer lost
by about 3 (a probe of six games each).

A rollout stops at the end of the game (each seat's real return) or once :data:`CUT_ROUNDS`
rounds have ended after the one it starts in, and then returns ``tanh`` of the points margin
won since the round before the rollout's, plus :data:`ITEM_VALUE` per use of Palette Swap or
Right Angle left and :data:`MULLIGAN_VALUE` per Mulligan left, over :data:`SCALE`. A
search's leaves for one decision all lie in the decision's round or the next, so the older
rounds are the same for all of them and are left out (they would only flatten ``tanh``).
Random rollouts to the end of 32 rounds say almost nothing about the round being played; a
planned round says much more per microsecond.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeple.games.triangle_clock import fast
from meeple.games.triangle_clock.fast import (
    FIRST,
    HAND,
    HISTORY,
    MAX_ACTIONS,
    MULL,
    MULLIGAN_ID,
    NO_CHANCE,
    ORDERS,
    OVER,
    PALETTE,
    PHASE,
    PICKS,
    RECORD,
    RIGHT,
    ROUND,
    SEAT_SIZE,
    SEATS_AT,
    USES,
    apply,
    compiled,
    legal_actions,
    outcome,
    to_act,
)

if TYPE_CHECKING:
    from meeple.games.triangle_clock.rules import TriangleClockState

EPSILON = 0.1
"""Chance that a rollout pick is uniformly random (Mulligan aside) rather than planned."""
ITEM_COST = 1.5
"""Strength a use of Palette Swap or Right Angle must gain to be spent in a rollout."""
REPLY = True
"""Plan against the opponent's strongest finishable hand in the rollout's (sampled) state,
rather than for one's own strongest hand."""
CUT_ROUNDS = 0
"""Rounds a rollout plays after the one it starts in before it evaluates (0: it stops when
the current round ends)."""
SCALE = 5.0
"""Points of margin that make a return of ``tanh(1)``, about 0.76."""
ITEM_VALUE = 1.0
"""Points a use of Palette Swap or Right Angle left is worth to the evaluation."""
MULLIGAN_VALUE = 1.0
"""Points a Mulligan left is worth to the evaluation."""


def settings() -> np.ndarray:
    """The module's constants as the array the compiled rollout reads (read at every
    playout, so that an experiment may change them)."""
    return np.array(
        [EPSILON, ITEM_COST, float(REPLY), CUT_ROUNDS, SCALE, ITEM_VALUE, MULLIGAN_VALUE]
    )


_EPSILON, _ITEM_COST, _REPLY, _CUT, _SCALE, _ITEM_VALUE, _MULLIGAN_VALUE = range(7)

# The orders in which a plan's three letters (full card's two, then the other card's one)
# can be revealed: the other card's symbol first, or one of the full card's first; the
# second pick must come from the other card than the first.
REPLY = True
"""Plan against the opponent's strongest finishable hand in the rollout's (sampled) state
rather than for the strongest hand of one's own."""

_ORDERS = np.array([[2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 2, 0]], dtype=np.int64)


@compiled
def _shown(symbol: int, palette: bool, right: bool) -> int:
    """The symbol revealed after Palette Swap (colour) then Right Angle (90° clockwise)."""
    if palette:
        symbol ^= 1
    if right:
        symbol = (symbol + 4) & 15
    return symbol


@compiled
def planned_pick(
    state: np.ndarray,
    seat: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    orders: np.ndarray,
    item_cost: float,
    against: np.ndarray,
) -> int:
    """The next pick (an action id) of ``seat``'s best plan for this round, or -1 outside a
    pick; the plan's power and strength go into ``against[2:4]``.

    With ``against[0] < 0`` the best plan is the finishable hand of highest strength less
    ``item_cost`` per item (ties to the higher power). Otherwise ``against`` holds the power
    and strength of the opponent's expected hand, and a plan is worth what it scores
    against it (the opponent's strength when higher, minus its own when lower), less the
    items: a hand that will lose is best kept weak, as the heuristic agent plays."""
    phase = state[PHASE]
    if phase < FIRST or phase == OVER:
        return -1
    their_power, their_strength = against[0], against[1]
    base = SEATS_AT + seat * SEAT_SIZE
    done = phase - 1
    shared = state[ORDERS + state[ROUND] - 1]
    may_swap = state[base + USES + PALETTE] > 0
    may_turn = state[base + USES + RIGHT] > 0
    for k in range(done):
        if state[base + PICKS + k] & 1:
            may_swap = False
        if state[base + PICKS + k] & 2:
            may_turn = False
    letters = np.empty(3, dtype=np.int64)
    printed = np.empty(3, dtype=np.int64)
    fixed = np.empty(3, dtype=np.int64)  # the pick revealed at that letter, -1 if free
    best_value, best_power, best_strength, best_pick = -1e9, -1, 0, -1
    for full in range(4):
        for other in range(4):
            if other == full:
                continue
            for side in range(2):
                letters[0] = 2 * full
                letters[1] = 2 * full + 1
                letters[2] = 2 * other + side
                order = -1  # the first order consistent with the picks revealed
                for o in range(4):
                    ok = True
                    for k in range(done):
                        if letters[orders[o, k]] != state[base + PICKS + k] >> 2:
                            ok = False
                    if ok:
                        order = o
                        break
                if order < 0:
                    continue
                for j in range(3):
                    x = letters[j]
                    printed[j] = cards[state[base + HAND + (x >> 1)], x & 1]
                    fixed[j] = -1
                    for k in range(done):
                        if state[base + PICKS + k] >> 2 == x:
                            fixed[j] = state[base + PICKS + k]
                nxt = orders[order, done]
                # -1: no item; 0-2: the item goes on that letter (a free one)
                for swap in range(-1, 3 if may_swap else 0):
                    if swap >= 0 and fixed[swap] >= 0:
                        continue
                    for turn in range(-1, 3 if may_turn else 0):
                        if turn >= 0 and fixed[turn] >= 0:
                            continue
                        code = shared
                        for j in range(3):
                            if fixed[j] >= 0:
                                s = _shown(printed[j], fixed[j] & 1 == 1, fixed[j] & 2 == 2)
                            else:
                                s = _shown(printed[j], swap == j, turn == j)
                            code = code << 4 | s
                        spent = (swap >= 0) + (turn >= 0)
                        mine = power[code]
                        if their_power < 0:
                            value = strength[code] - item_cost * spent
                        elif mine > their_power:
                            value = their_strength - item_cost * spent
                        elif mine < their_power:
                            value = -strength[code] - item_cost * spent
                        else:
                            value = -item_cost * spent
                        if value > best_value or (value == best_value and mine > best_power):
                            best_value, best_power = value, mine
                            best_strength = strength[code]
                            best_pick = 4 * letters[nxt] + (swap == nxt) + 2 * (turn == nxt)
    against[2] = best_power
    against[3] = best_strength
    return best_pick


@compiled
def _choose(
    state: np.ndarray,
    seat: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    moves: np.ndarray,
    params: np.ndarray,
) -> int:
    """The rollout's action for ``seat``: the planned pick, or with chance ``EPSILON`` (or
    where no plan is legal) a uniformly random legal action other than a Mulligan."""
    count = legal_actions(state, seat, moves)
    if count == 1:
        return moves[0]
    plain = count
    if moves[count - 1] == MULLIGAN_ID:
        plain -= 1
    if np.random.random() >= params[_EPSILON]:
        item_cost = params[_ITEM_COST]
        against = np.full(4, -1, dtype=np.int64)
        if params[_REPLY]:  # the opponent's strongest hand first, then the best answer to it
            planned_pick(state, 1 - seat, cards, power, strength, _ORDERS, item_cost, against)
            against[0], against[1] = against[2], against[3]
        pick = planned_pick(state, seat, cards, power, strength, _ORDERS, item_cost, against)
        for i in range(plain):
            if moves[i] == pick:
                return pick
    return moves[np.random.randint(0, plain)]


@compiled
def evaluate(
    state: np.ndarray,
    rules: np.ndarray,
    since: int,
    scale: float,
    item_value: float,
    mulligan_value: float,
) -> float:
    """Tick's return estimated from the recent rounds: exact once the game is over, else
    ``tanh`` of the points margin won from round ``since`` on, plus ``item_value`` per use
    of Palette Swap or Right Angle left and ``mulligan_value`` per Mulligan left, over
    ``scale``.

    Only recent rounds count: a search compares the actions of one decision, whose leaves
    all lie in the decision's round or the next, so the rounds before are the same for all
    of them and would only push ``tanh`` towards its flat ends."""
    if state[PHASE] == OVER:
        winner = outcome(state, rules)
        return 0.0 if winner < 0 else (1.0 if winner == 0 else -1.0)
    diff = 0.0
    for r in range(max(since - 1, 0), state[ROUND] - 1):
        record = HISTORY + r * RECORD
        if state[record] == 0:
            diff += state[record + 1]
        elif state[record] == 1:
            diff -= state[record + 1]
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        worth = item_value * (state[base + USES + PALETTE] + state[base + USES + RIGHT])
        worth += mulligan_value * state[base + USES + MULL]
        diff += worth if p == 0 else -worth
    return np.tanh(diff / scale)


@compiled
def guided_rollout(
    state: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    moves: np.ndarray,
    params: np.ndarray,
) -> None:
    """Guided picks, in place, until the game ends or ``CUT_ROUNDS`` rounds after the
    current one have ended (numba's generator for choices and chance)."""
    last = state[ROUND] + int(params[_CUT])
    seat = to_act(state)
    while seat >= 0 and state[ROUND] <= last:
        action = _choose(state, seat, cards, power, strength, moves, params)
        apply(state, seat, action, cards, power, strength, rules, NO_CHANCE)
        seat = to_act(state)


@compiled
def guided_play(
    start: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    seed: int,
    params: np.ndarray,
) -> np.ndarray:
    """The position where one guided rollout from ``start`` (seeded) stops."""
    np.random.seed(seed)
    scratch = start.copy()
    moves = np.empty(MAX_ACTIONS, dtype=np.int16)
    guided_rollout(scratch, cards, power, strength, rules, moves, params)
    return scratch


@compiled
def guided_value(
    start: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    seed: int,
    params: np.ndarray,
) -> float:
    """Tick's return (-1 to 1) after one guided rollout from ``start``, seeded."""
    end = guided_play(start, cards, power, strength, rules, seed, params)
    # the round before the rollout's: a decision's leaves lie in its round or the next
    since = start[ROUND] - 1
    return evaluate(end, rules, since, params[_SCALE], params[_ITEM_VALUE], params[_MULLIGAN_VALUE])


def playout(state: TriangleClockState, seed: int) -> tuple[float, ...]:
    """Each seat's return after one guided rollout from ``state`` (seeded): the real
    returns if it reaches the end, else the score estimate of :func:`evaluate`. A search
    plays it from a determinized state (``observation.determinize``), never the true one."""
    t = fast.tables(state.game)
    value = guided_value(
        fast.encode(state),
        t.cards,
        t.power,
        t.strength,
        t.rules,
        seed,
        settings(),
    )
    return (value, -value)


@compiled
def _policy_action(
    start: np.ndarray,
    seat: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    seed: int,
    params: np.ndarray,
) -> int:
    np.random.seed(seed)
    moves = np.empty(MAX_ACTIONS, dtype=np.int16)
    return _choose(start, seat, cards, power, strength, moves, params)


def choose(state: TriangleClockState, seat: int, seed: int) -> object:
    """The rollout policy's action for ``seat`` in ``state`` (seeded), as an engine action.

    Search uses it for the seats it does not search for (``opponent=guided``) and to propose
    the moves its root considers (``candidates``). Like the rollouts it never takes a
    Mulligan: letting it take one when its plan loses badly (as the heuristic's threshold)
    measured worse, 7 / 0 / 13 against 10 / 0 / 10 at 250 iterations on seeds 0-19, and no
    seat-1 win in ten. Like :func:`playout`, it reads the whole state it is given, so it
    must be a determinization, never the true state."""
    t = fast.tables(state.game)
    action = _policy_action(
        fast.encode(state), seat, t.cards, t.power, t.strength, seed, settings()
    )
    return state.game.action_from_id(int(action))


__all__ = [
    "CUT_ROUNDS",
    "EPSILON",
    "ITEM_COST",
    "ITEM_VALUE",
    "MULLIGAN_VALUE",
    "REPLY",
    "SCALE",
    "choose",
    "evaluate",
    "guided_play",
    "guided_rollout",
    "guided_value",
    "planned_pick",
    "playout",
    "settings",
]
