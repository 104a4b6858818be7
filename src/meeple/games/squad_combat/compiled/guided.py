"""Squad Combat's guided rollout: the heuristic's knowledge, compiled, for search.

Search (``ismcts:rollout=guided``) rolls out from a determinized state with this policy
instead of uniformly random actions. It only *chooses* among the compiled rules' legal
actions (:func:`.reading.legal`) and applies them with the compiled rules
(:func:`.transitions.act` and ``settle``), which a differential test proves equal to the
engine; nothing here changes a rule.

The policy mirrors :class:`meeple.games.squad_combat.agents.HeuristicAgent` on the arrays:
attack where a hit is likely and hurts (a kill first), pay with the smallest die, defend
with the smallest die that saves the wound, play an edge only when it turns the attack, heal
real wounds, refresh empty or blocked dice, discard what the squad cannot use. With
probability :data:`EPSILON` a decision is uniformly random instead, so that rollouts from
one position vary.

A rollout stops at the end of the game (each seat's real return) or once :data:`CUT_TURNS`
turns have ended, and then returns an evaluation in the same scale: ``tanh`` of
:data:`SCALE` times the material difference, where a seat's material is, over its living
characters, :data:`ALIVE_WEIGHT` plus the share of Life left. Random rollouts in this game
are long (many small steps per attack) and say little; a short guided look ahead with a
material count says more per microsecond.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled import rules, transitions
from meeple.games.squad_combat.compiled.reading import compiled

if TYPE_CHECKING:
    from meeple.games.squad_combat.actions import SquadAction
    from meeple.games.squad_combat.rules import SquadCombatState

EPSILON = 0.1
"""Chance that a rollout decision is uniformly random rather than the heuristic's."""
CUT_TURNS = 2
"""Turns a rollout plays (counting the one it starts in) before it evaluates."""
SCALE = 0.6
"""How sharply the material difference maps to a return: ``tanh(SCALE * difference)``."""
ALIVE_WEIGHT = 1.0
"""Material of a living character besides its share of Life left (which is 0 to 1)."""
MAX_STEPS = 5000
"""Decisions a rollout takes at most before it evaluates (a guard; no game comes near)."""
FIELD_CUT_TURNS = 1
"""Turns the ``field`` rollout plays: to the end of the turn it starts in."""
"""Decisions a rollout takes at most before it evaluates (a guard; no game comes near)."""

PASS_VALUE = 0.25
"""As the heuristic: an action must be worth more than this to be taken instead of passing."""
ATTACK_USEFULNESS = 3.0
"""As the heuristic: what keeping an attack card is worth (other cards rank below)."""


# -- reading the arrays ---------------------------------------------------------------------
@compiled
def _max_die(s: np.ndarray, c: int) -> int:
    """The highest die on the character at ``c`` (0 with none)."""
    n = s[c + fr.CH_NDICE]
    return s[c + fr.CH_DICE + n - 1] if n > 0 else 0


@compiled
def _life_left(s: np.ndarray, g: np.ndarray, seat: int, slot: int) -> int:
    who = s[fr.ch(seat, slot) + fr.CH_CARD]
    return g[fr.G_CHARACTERS + who * fr.CHARACTER_SIZE + fr.LIFE] - fr.damage(s, g, seat, slot)


@compiled
def _best_after_paying(s: np.ndarray, g: np.ndarray, seat: int, slot: int, k: int) -> int:
    """The highest die left after paying card ``k``'s die costs with the smallest dice that
    do (the heuristic's ``_after_paying``)."""
    c = fr.ch(seat, slot)
    n = s[c + fr.CH_NDICE]
    used = np.zeros(fr.MAX_DICE, dtype=np.bool_)
    row = fr.card_at(k)
    for i in range(g[row + fr.C_NDICE]):
        need = g[row + fr.C_DICE + i]
        for j in range(n):
            if not used[j] and s[c + fr.CH_DICE + j] >= need:
                used[j] = True
                break
    for j in range(n - 1, -1, -1):
        if not used[j]:
            return s[c + fr.CH_DICE + j]
    return 0


@compiled
def _attack_value(s: np.ndarray, g: np.ndarray, k: int, best: int, tseat: int, tslot: int) -> float:
    """Damage weighted by the chance to beat the defender's best die, plus a kill bonus."""
    row = fr.card_at(k)
    life = _life_left(s, g, tseat, tslot)
    defense = _max_die(s, fr.ch(tseat, tslot))
    chance = 1.0 if best + g[row + fr.C_HIT] >= defense else 0.35
    hurt = g[row + fr.C_DAMAGE]
    kill = 3.0 if hurt >= life else 0.0
    return chance * (hurt + kill) + 0.1 * (10 - life)


@compiled
def _healable(s: np.ndarray, g: np.ndarray, seat: int, slot: int, amount: int) -> int:
    """The largest wound on the character that a heal of ``amount`` removes (0: none)."""
    c = fr.ch(seat, slot)
    best = 0
    for i in range(s[c + fr.CH_NWOUNDS]):
        hurt = g[fr.card_at(s[c + fr.CH_WOUNDS + 2 * i]) + fr.C_DAMAGE]
        if hurt <= amount and hurt > best:
            best = hurt
    return best


@compiled
def _play_value(s: np.ndarray, g: np.ndarray, seat: int, k: int, slot: int) -> float:
    """Expected worth of announcing card ``k`` with this performer (``play_value``)."""
    row = fr.card_at(k)
    effect = g[row + fr.C_EFFECT]
    if g[row + fr.C_KIND] == fr.ATTACK:
        best = _best_after_paying(s, g, seat, slot, k)
        value = -1e9
        for other in range(g[fr.G_PLAYERS]):
            if other == seat:
                continue
            for t in range(3):
                if s[fr.ch(other, t) + fr.CH_REMOVED] == 0:
                    value = max(value, _attack_value(s, g, k, best, other, t))
        return value - 0.15 * g[row + fr.C_NDICE]
    if effect == fr.E_HEAL:
        best = 0
        for t in range(3):
            if s[fr.ch(seat, t) + fr.CH_REMOVED] == 0:
                best = max(best, _healable(s, g, seat, t, g[row + fr.C_AMOUNT]))
        return best * 0.9
    if effect == fr.E_DRAW:
        return 0.6 if s[fr.S_HANDN + seat] <= 3 else 0.3
    if effect == fr.E_ENERGY:
        for t in range(3):
            c = fr.ch(seat, t)
            if s[c + fr.CH_REMOVED] == 0 and s[c + fr.CH_SPENT] >= 2:
                return 0.4
        return 0.0
    if effect == fr.E_BOOST:
        return 0.3
    return 0.0


@compiled
def _refresh_value(s: np.ndarray, g: np.ndarray, seat: int, slot: int) -> float:
    """Short of dice, low dice, or an attack in hand the dice cannot pay for."""
    c = fr.ch(seat, slot)
    who = s[c + fr.CH_CARD]
    n = s[c + fr.CH_NDICE]
    missing = g[fr.G_CHARACTERS + who * fr.CHARACTER_SIZE + fr.POOL] - n
    low = 0
    for j in range(n):
        if s[c + fr.CH_DICE + j] <= 2:
            low += 1
    blocked = False
    hand = fr.S_HANDS + seat * fr.MAX_KINDS
    for k in range(g[fr.G_KINDS]):
        row = fr.card_at(k)
        if (
            s[hand + k] == 0
            or g[row + fr.C_KIND] != fr.ATTACK
            or g[fr.G_MATCHES + who * fr.MAX_KINDS + k] == 0
        ):
            continue
        needs = g[row + fr.C_NDICE]
        covered = needs <= n
        if covered:
            for i in range(needs):
                if s[c + fr.CH_DICE + n - 1 - i] < g[row + fr.C_DICE + i]:
                    covered = False
                    break
        if not covered:
            blocked = True
            break
    return 0.3 * missing + 0.15 * low + (0.8 if blocked else 0.0)


@compiled
def _usefulness(s: np.ndarray, g: np.ndarray, seat: int, k: int) -> float:
    """What keeping card ``k`` is worth to the seat (0: no living character can play it)."""
    usable = False
    for t in range(3):
        c = fr.ch(seat, t)
        if s[c + fr.CH_REMOVED] == 0 and g[fr.G_MATCHES + s[c + fr.CH_CARD] * fr.MAX_KINDS + k]:
            usable = True
            break
    if not usable:
        return 0.0
    row = fr.card_at(k)
    if g[row + fr.C_KIND] == fr.ATTACK:
        return ATTACK_USEFULNESS + g[row + fr.C_DAMAGE] / 10
    if g[row + fr.C_EFFECT] in (fr.E_HEAL, fr.E_BOOST, fr.E_ENERGY):
        return 2.0
    return 1.0


@compiled
def _edge_bonus(s: np.ndarray, g: np.ndarray, seat: int) -> int:
    """The largest defence one edge in hand could add, if a character can pay for it."""
    hand = fr.S_HANDS + seat * fr.MAX_KINDS
    after = s[fr.S_HANDN + seat] - 1
    best = 0
    for k in range(g[fr.G_KINDS]):
        row = fr.card_at(k)
        if (
            s[hand + k] == 0
            or g[row + fr.C_KIND] != fr.EDGE
            or g[row + fr.C_TIMING] != fr.T_DEFENDING
        ):
            continue
        for t in range(3):
            if fr.can_perform(s, g, seat, t, k, after):
                best = max(best, g[row + fr.C_AMOUNT])
                break
    return best


# -- choosing -------------------------------------------------------------------------------
@compiled
def seed(value: int) -> None:
    """Seed numba's generator, which :func:`pick` (and the rules' chance) draw from."""
    np.random.seed(value)


@compiled
def _pick_best(values: np.ndarray, moves: np.ndarray, n: int) -> int:
    """The move with the highest value, ties broken at random."""
    best, ties, pick = -1e18, 0, moves[0]
    for i in range(n):
        v = values[i]
        if v > best + 1e-9:
            best, ties, pick = v, 1, moves[i]
        elif v > best - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                pick = moves[i]
    return pick


@compiled
def pick(
    s: np.ndarray,
    g: np.ndarray,
    kind: int,
    seat: int,
    moves: np.ndarray,
    n: int,
    values: np.ndarray,
    epsilon: float,
) -> int:
    """The guided policy's action among the ``n`` legal ``moves`` (``values`` is scratch)."""
    if n == 1:
        return moves[0]
    if epsilon > 0 and np.random.random() < epsilon:
        return moves[np.random.randint(0, n)]
    plays = fr.A_TARGET + 3 * g[fr.G_PLAYERS]
    discards = plays + 3 * g[fr.G_KINDS]
    if kind in (fr.PAY_DIE, fr.DROP):
        return moves[0]  # the smallest die (the list is ascending)
    if kind == fr.BOOST_DIE:
        return moves[n - 1]
    if kind == fr.PHASE or kind == fr.END_WINDOW:
        for i in range(n):
            a = moves[i]
            if plays <= a < discards:
                k, slot = (a - plays) // 3, (a - plays) % 3
                if kind == fr.END_WINDOW and g[fr.card_at(k) + fr.C_EFFECT] == fr.E_ENERGY:
                    values[i] = -1.0
                else:
                    values[i] = _play_value(s, g, seat, k, slot)
            elif fr.A_REFRESH <= a < fr.A_TARGET:
                values[i] = _refresh_value(s, g, seat, a - fr.A_REFRESH)
            else:  # pass or done
                values[i] = PASS_VALUE
        return _pick_best(values, moves, n)
    if kind == fr.PAY_CARD or kind == fr.END_DISCARD:
        for i in range(n):
            a = moves[i]
            values[i] = -_usefulness(s, g, seat, a - discards) if a >= discards else -99.0
        if kind == fr.END_DISCARD:
            best_keep, worst = -1e9, 1e9
            for i in range(n):
                if moves[i] >= discards:
                    worst = min(worst, -values[i])
                    best_keep = max(best_keep, -values[i])
            if worst > 0 and best_keep >= ATTACK_USEFULNESS:
                return fr.A_DONE
        return _pick_best(values, moves, n)
    p = fr.top(s)
    k = s[p + fr.P_CARD]
    row = fr.card_at(k)
    if kind == fr.TARGET:
        effect = g[row + fr.C_EFFECT]
        attacker = fr.ch(seat, s[p + fr.P_SLOT])
        for i in range(n):
            tseat, tslot = (moves[i] - fr.A_TARGET) // 3, (moves[i] - fr.A_TARGET) % 3
            c = fr.ch(tseat, tslot)
            if g[row + fr.C_KIND] == fr.ATTACK:
                values[i] = _attack_value(s, g, k, _max_die(s, attacker), tseat, tslot)
            elif effect == fr.E_HEAL:
                values[i] = fr.damage(s, g, tseat, tslot)
            elif effect == fr.E_ENERGY:
                values[i] = s[c + fr.CH_SPENT]
            else:
                top_die = 0
                for j in range(s[c + fr.CH_NDICE]):
                    if s[c + fr.CH_DICE + j] < fr.FACES:
                        top_die = s[c + fr.CH_DICE + j]
                values[i] = top_die
        return _pick_best(values, moves, n)
    if kind == fr.ATTACK_DIE:
        defender = fr.ch(s[p + fr.P_TSEAT], s[p + fr.P_TSLOT])
        need = _max_die(s, defender) - g[row + fr.C_HIT] - s[p + fr.P_ABONUS]
        if need <= 0:
            return fr.A_NO_DIE
        for i in range(n):  # no die first, then the dice ascending
            if moves[i] != fr.A_NO_DIE and moves[i] - fr.A_DIE >= need:
                return moves[i]
        top_die = moves[n - 1] - fr.A_DIE
        return moves[n - 1] if moves[n - 1] != fr.A_NO_DIE and need - top_die <= 2 else fr.A_NO_DIE
    if kind == fr.DEFENSE_DIE:
        attack = s[p + fr.P_ADIE] + g[row + fr.C_HIT] + s[p + fr.P_ABONUS]
        extra = _edge_bonus(s, g, seat)
        for i in range(n):
            if moves[i] != fr.A_NO_DIE and moves[i] - fr.A_DIE > attack - extra:
                return moves[i]
        return fr.A_NO_DIE
    # A reaction window: an edge only when it turns the attack, the cheapest such.
    if g[row + fr.C_KIND] != fr.ATTACK or s[p + fr.P_TSEAT] < 0:
        return fr.A_DONE
    attack = s[p + fr.P_ADIE] + g[row + fr.C_HIT] + s[p + fr.P_ABONUS]
    defense = s[p + fr.P_DDIE] + s[p + fr.P_DBONUS]
    defending = seat == s[p + fr.P_TSEAT]
    pick, cheapest = fr.A_DONE, 1e9
    for i in range(n):
        a = moves[i]
        if not plays <= a < discards:
            continue
        edge = fr.card_at((a - plays) // 3)
        amount = g[edge + fr.C_AMOUNT]
        effect = g[edge + fr.C_EFFECT]
        saves = defending and effect == fr.E_DEFENSE and attack >= defense > attack - amount
        lands = not defending and effect == fr.E_ATTACK and defense > attack >= defense - amount
        if saves or lands:
            cost = g[edge + fr.C_ENERGY] + 1.5 * g[edge + fr.C_NDICE] + 2 * g[edge + fr.C_CARDS]
            if cost < cheapest:
                pick, cheapest = a, cost
    return pick


# -- evaluating -----------------------------------------------------------------------------
@compiled
def material(s: np.ndarray, g: np.ndarray, seat: int, alive_weight: float) -> float:
    """The seat's living characters: each ``alive_weight`` plus its share of Life left."""
    total = 0.0
    for slot in range(3):
        c = fr.ch(seat, slot)
        if s[c + fr.CH_REMOVED] != 0:
            continue
        life = g[fr.G_CHARACTERS + s[c + fr.CH_CARD] * fr.CHARACTER_SIZE + fr.LIFE]
        total += alive_weight + _life_left(s, g, seat, slot) / life
    return total


@compiled
def evaluate(s: np.ndarray, g: np.ndarray, out: np.ndarray, scale: float, alive: float) -> None:
    """Each seat's return: the real one if the game is over, else ``tanh(scale * (own
    material - the best other seat's))``, which is zero-sum between two players."""
    _evaluate(s, g, out, scale, alive, False)


@compiled
def _evaluate(
    s: np.ndarray, g: np.ndarray, out: np.ndarray, scale: float, alive: float, field: bool
) -> None:
    """:func:`evaluate`, or with ``field`` the other seats' mean material in place of the
    best other seat's (:data:`FIELD_CUT_TURNS`)."""
    p = g[fr.G_PLAYERS]
    if s[fr.S_ENDED] != fr.END_NONE:
        for seat in range(p):
            winner = s[fr.S_WINNER]
            out[seat] = 0.0 if winner < 0 else (1.0 if seat == winner else -1.0)
        return
    mine = np.empty(p, dtype=np.float64)
    total = 0.0
    for seat in range(p):
        mine[seat] = material(s, g, seat, alive)
        total += mine[seat]
    for seat in range(p):
        if field:
            rival = (total - mine[seat]) / (p - 1)
        else:
            rival = -1e9
            for other in range(p):
                if other != seat:
                    rival = max(rival, mine[other])
        out[seat] = np.tanh(scale * (mine[seat] - rival))


@compiled
def guided_rollout(
    s: np.ndarray,
    g: np.ndarray,
    seed: int,
    epsilon: float,
    cut_turns: int,
    scale: float,
    alive: float,
    out: np.ndarray,
) -> int:
    """Play the guided policy from ``s`` (in place) for ``cut_turns`` turns or to the end,
    write each seat's return into ``out``, and return the number of decisions taken."""
    np.random.seed(seed)
    return _play_on(s, g, epsilon, cut_turns, scale, alive, False, out)


@compiled
def _play_on(
    s: np.ndarray,
    g: np.ndarray,
    epsilon: float,
    cut_turns: int,
    scale: float,
    alive: float,
    field: bool,
    out: np.ndarray,
) -> int:
    """:func:`guided_rollout` on numba's generator as it stands (not seeded here), with
    :func:`_evaluate`'s ``field``."""
    moves = np.empty(fr.MAX_ACTIONS, dtype=np.int32)
    scratch = np.empty(fr.MAX_ACTIONS, dtype=np.int32)
    values = np.empty(fr.MAX_ACTIONS, dtype=np.float64)
    tape = np.zeros(0, dtype=np.int32)
    stop_turn = s[fr.S_TURN] + cut_turns
    steps = 0
    while steps < MAX_STEPS and s[fr.S_TURN] < stop_turn:
        kind, seat = fr.find_step(s, g)
        if seat < 0:
            break
        n = fr.legal_for(s, g, kind, seat, moves)
        if n == 0:
            break
        action = pick(s, g, kind, seat, moves, n, values, epsilon)
        # int32, as settle passes a legal-move buffer's entry: act compiles once
        transitions.act(s, g, seat, np.int32(action), kind, tape)
        transitions.settle(s, g, tape, scratch)
        steps += 1
    _evaluate(s, g, out, scale, alive, field)
    return steps


def playout(state: SquadCombatState, seed: int) -> tuple[float, ...]:
    """Each seat's return (-1 to 1) after a guided rollout from ``state`` (seeded): the
    registered ``guided`` rollout. ``state`` is a determinization for a searching seat."""
    out = np.zeros(state.game.num_players, dtype=np.float64)
    guided_rollout(
        rules.encode(state),
        rules.game_array(state.game),
        seed,
        EPSILON,
        CUT_TURNS,
        SCALE,
        ALIVE_WEIGHT,
        out,
    )
    return tuple(float(v) for v in out)


@compiled
def _policy_action(s: np.ndarray, g: np.ndarray, seat: int, seed: int) -> int:
    np.random.seed(seed)
    moves = np.empty(fr.MAX_ACTIONS, dtype=np.int32)
    values = np.empty(fr.MAX_ACTIONS, dtype=np.float64)
    kind, _ = fr.find_step(s, g)
    n = fr.legal_for(s, g, kind, seat, moves)
    return pick(s, g, kind, seat, moves, n, values, 0.0)


def choose(state: SquadCombatState, seat: int, seed: int) -> object:
    """The guided policy's action for ``seat`` in ``state`` (seeded; ties are broken at
    random), as an engine action, never a random pick: the registered ``guided`` choice that
    search plays for the seats it does not search for (``opponent=guided``) and asks for the
    moves its root considers (``candidates``). Like :func:`playout` it reads the whole state
    (every hand), so it must be given a determinization, never the true state."""
    action = _policy_action(rules.encode(state), rules.game_array(state.game), seat, seed)
    return state.game.action_from_id(int(action))


# -- the field rollout (rollout=field) -------------------------------------------------------
# Against the best other seat, a seat gains nothing by wounding a seat that is not ahead, so
# at three and four players searching seats refresh and pass where the hand-written agent
# attacks, and their games run three times as many turns. Measured against the other seats'
# mean, every wound counts; rolled out to the end of the turn only, and with every
# candidate of a world valued in one compiled call (the world encoded once), a decision
# costs a fraction of ``guided``'s.
def playout_field(state: SquadCombatState, seed: int) -> tuple[float, ...]:
    """Each seat's return (-1 to 1) after the guided policy plays ``state`` (seeded) to the
    end of the turn: ``tanh(SCALE * (own material - the other seats' mean))``, or the real
    return if the game ends. The registered ``field`` rollout."""
    out = np.zeros(state.game.num_players, dtype=np.float64)
    _field_playout(rules.encode(state), rules.game_array(state.game), seed, out)
    return tuple(float(v) for v in out)


@compiled
def _field_playout(s: np.ndarray, g: np.ndarray, seed: int, out: np.ndarray) -> None:
    # Seeded here: numba's generator is not NumPy's, which Python code would seed.
    np.random.seed(seed)
    _play_on(s, g, EPSILON, FIELD_CUT_TURNS, SCALE, ALIVE_WEIGHT, True, out)


@compiled
def _field_values(
    s: np.ndarray, g: np.ndarray, player: int, actions: np.ndarray, seed: int, out: np.ndarray
) -> None:
    """``out[i]``: ``player``'s return after ``actions[i]`` in ``s`` and then the field
    rollout, every candidate on the same random numbers (``seed``)."""
    kind, _ = fr.find_step(s, g)
    scratch = np.empty(fr.MAX_ACTIONS, dtype=np.int32)
    tape = np.zeros(0, dtype=np.int32)
    returns = np.empty(g[fr.G_PLAYERS], dtype=np.float64)
    work = np.empty_like(s)
    for i in range(actions.shape[0]):
        work[:] = s
        np.random.seed(seed)
        transitions.act(work, g, player, actions[i], kind, tape)
        transitions.settle(work, g, tape, scratch)
        _play_on(work, g, EPSILON, FIELD_CUT_TURNS, SCALE, ALIVE_WEIGHT, True, returns)
        out[i] = returns[player]


def values_field(
    state: SquadCombatState, player: int, actions: list[SquadAction], seed: int
) -> list[float]:
    """``player``'s return after each of its legal ``actions`` in ``state`` (a
    determinization where only ``player`` acts) and then the field rollout with ``seed``,
    the same for every action: what ``flat`` asks of the ``field`` rollout per world."""
    game = state.game
    ids = np.array([game.action_id(a) for a in actions], dtype=np.int32)
    out = np.empty(len(actions), dtype=np.float64)
    _field_values(rules.encode(state), rules.game_array(game), player, ids, seed, out)
    return [float(v) for v in out]
