"""Erosion's Advanced Rules compiled with numba: Montane Architecture and the Atmospheric
Triggers (the kernels of :mod:`.rules`; read :mod:`.transitions` first).

Each card's architecture is three numbers of the game's table (:func:`.rules.layout`):
its kind (``R_EFFECT``, :data:`.state.EFFECT_NAMES`), a first number ``A`` that selects
(the deck of an Aquifer, the icon a Batholith resists, the process a Caprock lets through,
the extra rocks of a Glacier; where an 'upon uplift' trigger's ages start in
``R_AGE_LIST``) and a second ``B`` that counts (points, cards, rocks; the trigger's ages).
Every kernel answers as the basic rules do when ``R_ADVANCED`` is 0.
"""

from __future__ import annotations

import numpy as np

from meeple.games.erosion.compiled.state import (
    A_FAULT,
    A_TRIGGER,
    AGE_ANY,
    E_COUNTS_AS_HIGH,
    E_RESISTS_EXCEPT,
    E_RESISTS_ICON,
    E_UPLIFT_HILLSLOPE,
    E_UPLIFT_TRIGGER,
    K_FAULT,
    K_TRIGGER,
    R_ADVANCED,
    R_AGE_LIST,
    R_AGED,
    R_AGENDA,
    R_ATM_AGE,
    R_ATMS,
    R_BELOW,
    R_EFFECT,
    R_EFFECT_A,
    R_EFFECT_B,
    R_HIGH,
    R_ICON,
    R_ONCE,
    R_PLAYERS,
    R_PROCESS,
    R_SCALARS,
    R_TRIGGERED,
    R_WEATHERED,
    S_TRIGGERED_N,
    action_id,
    agenda_pop,
    agenda_push_front,
    base,
    compiled,
    fired,
    holds,
    insert,
    mountain,
    size,
)


@compiled
def in_force(s: np.ndarray, R: np.ndarray, p: int, kind: int, a: int) -> int:
    """Red architecture of ``kind`` (with first number ``a``) in force on seat ``p``'s
    mountain: the sum of its second numbers over the unweathered rocks
    (``ErosionState._architecture``); 0 outside the Advanced Rules."""
    if not R[R_ADVANCED]:
        return 0
    b = base(R, mountain(R, p))
    total = 0
    for i in range(s[R[R_WEATHERED] + p], s[b]):
        rock = s[b + 1 + i]
        if s[R[R_BELOW] + rock] == 1:
            continue  # weathered below an unweathered rock (pass-over)
        if R[R[R_EFFECT] + rock] == kind and R[R[R_EFFECT_A] + rock] == a:
            total += R[R[R_EFFECT_B] + rock]
    return total


@compiled
def counts_as_high(s: np.ndarray, R: np.ndarray, m: int) -> bool:
    """4000 m or more for elevation icons, or a Caldera in force (``counts_as_high``)."""
    if size(s, R, mountain(R, m)) >= R[R_HIGH]:
        return True
    return in_force(s, R, m, E_COUNTS_AS_HIGH, 0) > 0


@compiled
def weatherable_by(R: np.ndarray, rock: int, card: int) -> bool:
    """Whether a rock's red architecture lets this WX card weather it
    (``ErosionState._weatherable_by``; ask only under the Advanced Rules)."""
    kind = R[R[R_EFFECT] + rock]
    if kind == E_RESISTS_ICON:
        return R[R[R_ICON] + card] != R[R[R_EFFECT_A] + rock]
    if kind == E_RESISTS_EXCEPT:
        return R[R[R_PROCESS] + card] == R[R[R_EFFECT_A] + rock]
    return True


@compiled
def uplifted(s: np.ndarray, R: np.ndarray, p: int, card: int) -> None:
    """A card uplifted to seat ``p``'s mountain resolves its 'upon uplift' architecture at
    once (the end of ``ErosionState._uplift``): a trigger step per listed age, or a fault
    step per rock, before what is left of the turn; under ``uplift_architecture=once`` only
    the first time in the game (the ``fired`` pile)."""
    if not R[R_ADVANCED]:
        return
    kind = R[R[R_EFFECT] + card]
    if kind != E_UPLIFT_TRIGGER and kind != E_UPLIFT_HILLSLOPE:
        return
    if R[R_ONCE]:
        if holds(s, R, fired(R), card):
            return
        insert(s, R, fired(R), card)
    first, steps = R[R[R_EFFECT_A] + card], R[R[R_EFFECT_B] + card]
    # each goes to the front: the last first, so that they come in the card's order
    for i in range(steps - 1, -1, -1):
        if kind == E_UPLIFT_TRIGGER:
            agenda_push_front(s, R, K_TRIGGER, p, 0, R[R[R_AGE_LIST] + first + i])
        else:
            agenda_push_front(s, R, K_FAULT, p, 0, -1)


@compiled
def triggered(s: np.ndarray, R: np.ndarray, atm: int) -> bool:
    """Whether an Atmosphere card was triggered this turn."""
    at, k = R[R_TRIGGERED], s[R[R_SCALARS] + S_TRIGGERED_N]
    for i in range(k):  # noqa: SIM110 -- numba compiles no generator
        if s[at + i] == atm:
            return True
    return False


@compiled
def trigger_actions(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> int:
    """The front trigger step's choices: each Atmosphere of its age (or any) not yet
    triggered this turn (``_step_actions``, ``_triggerable``)."""
    age = s[R[R_AGENDA] + 3]
    count = 0
    for i in range(R[R_ATMS]):
        if (age == AGE_ANY or R[R[R_ATM_AGE] + i] == age) and not triggered(s, R, i):
            out[count] = action_id(R, A_TRIGGER, i, 0, 0)
            count += 1
    return count


@compiled
def fault_actions(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> int:
    """The front fault step's choices: each mountain with a weathered rock
    (``_step_actions``)."""
    count = 0
    for m in range(R[R_PLAYERS]):
        if s[R[R_WEATHERED] + m]:
            out[count] = action_id(R, A_FAULT, m, 0, 0)
            count += 1
    return count


@compiled
def trigger(s: np.ndarray, R: np.ndarray, atm: int) -> None:
    """An Atmosphere card is rotated, which changes its draw limit at once, and is triggered
    for the rest of the turn (the ``Trigger`` branch of ``_act``)."""
    agenda_pop(s, R)
    s[R[R_AGED] + atm] = 1 - s[R[R_AGED] + atm]
    k = R[R_SCALARS] + S_TRIGGERED_N
    s[R[R_TRIGGERED] + s[k]] = atm
    s[k] += 1


@compiled
def clear_triggered(s: np.ndarray, R: np.ndarray) -> None:
    """A new turn (or era): no Atmosphere triggered yet."""
    k = R[R_SCALARS] + S_TRIGGERED_N
    for i in range(s[k]):
        s[R[R_TRIGGERED] + i] = -1
    s[k] = 0
