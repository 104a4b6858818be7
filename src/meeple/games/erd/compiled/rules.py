"""Erd compiled: the same rules as ``../rules.py`` (and ``../rounds.py``), on one small
integer array.

:mod:`meeple.games.erd.rules` is the reference; this module is a second writing of the same
rules that numba compiles, for the batched environment (:mod:`.batch`) and for random
playouts. A differential test plays thousands of random matches through both, with every
rules version and option, and compares every state, every list of legal actions and every
outcome (``tests/games/erd/test_fast.py``).

Erd has no chance, and a state is a whole match (best of ``best_of`` games). A position is
one ``int16`` array of :func:`size` values:

* the round of the current game, the games over so far, each seat's games won, the drawn
  games, and 1 once the match is over;
* for each seat, :data:`SEAT_SIZE` values: its Reserve (Heavies, Lights, Decoys), its
  discard pile (the same), its Turrets standing, and its pending allocation (an action id,
  -1 for none);
* the last combat revealed (:data:`LAST_SIZE` values, the readable rules' ``Combat``): 1
  when there is one, its game and round, both allocations, the Turrets standing in it, each
  Rush and Defense value, what it decided (:data:`OUTCOMES`), the Turrets made, the Decoys
  and Lights recovered, the Escalation and what it gave back, and 1 when it ended a game;
* for each game over, :data:`RECORD` values: the winner (-1 for a draw), how it ended
  (:data:`REASONS`), its last round, and the three numbers its sentence is written from
  (:func:`meeple.games.erd.rounds.game_end`). Room is kept for the most games a match of
  the configuration can have: ``best_of``, or twice that when drawn games are replayed.

Actions are the rules engine's ids (:meth:`ErdGame.action_id`), and legal actions come in
the engine's order, so a uniformly random index into them picks the same action in both.

Every option is served (``rules``, ``best_of``, ``turret_lifetime``, ``escalation_lights``,
``rush_tiebreak``, ``match_draws``, ``reserve``, ``mercy``, ``round_limit``, and
``auto_steps``, which no Erd rule reads), but a ``round_limit`` above 32,767 is refused: a
round must fit the array's ``int16``. :func:`tables` refuses an option it does not know in
one line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from meeple.core.kernels import encoder, kernel, per_game
from meeple.core.options import unserved_refusal
from meeple.core.simultaneous import Submissions
from meeple.games.erd.pieces import (
    CONVERSION_STEP,
    PILE_SIZE,
    Allocate,
    Cards,
    Side,
)
from meeple.games.erd.rounds import Combat, EndReason, GameEnd, Outcome, game_end
from meeple.games.erd.rules import ErdGame, ErdState

compiled = kernel(nogil=True)

# -- the layout of a position -------------------------------------------------------------
ROUND, GAMES, WINS, DRAWS, OVER = 0, 1, 2, 4, 5
SEATS_AT = 6
SEAT_SIZE = 8
"""Values per seat: Reserve (3), discard (3), Turrets, pending allocation."""
RESERVE, DISCARD, TURRETS, PENDING = 0, 3, 6, 7
LAST = SEATS_AT + 2 * SEAT_SIZE
L_ON, L_GAME, L_ROUND, L_ALLOC, L_TURRETS, L_RUSH, L_DEFENSE, L_OUTCOME = 0, 1, 2, 3, 5, 7, 9, 11
L_MADE, L_DECOYS, L_LIGHTS, L_ESCALATION, L_ESC_HEAVIES, L_ESC_LIGHTS, L_ENDED = (
    12,
    14,
    16,
    18,
    19,
    21,
    23,
)
LAST_SIZE = 24
HISTORY = LAST + LAST_SIZE
RECORD = 6
"""Values per game over: winner, reason, round, three numbers."""
R_WINNER, R_REASON, R_ROUND, R_NUMBERS = 0, 1, 2, 3

OUTCOMES: tuple[Outcome, ...] = ("one_rush", "both_total", "both_rush", "exact_tie", "held")
ONE_RUSH, BOTH_TOTAL, BOTH_RUSH, EXACT_TIE, HELD = range(5)
REASONS: tuple[EndReason, ...] = (
    "rush",
    "both_rushes",
    "pre_escalation",
    "mercy",
    "mercy_draw",
    "round_limit",
)
RUSH, BOTH_RUSHES, PRE_ESCALATION, MERCY, MERCY_DRAW, ROUND_LIMIT = range(6)
MERCY_RULES = (None, "0.01", "0.02", "empty")

# -- the configuration, as numbers ----------------------------------------------------------
G_EXACT, G_REFILL, G_MERCY, G_PRE, G_ONE_COMBAT, G_OWN_LIGHTS, G_CARDS, G_REPLAY = range(8)
G_BEST_OF, G_LIMIT, G_START, G_MAX_GAMES = 8, 9, 10, 13
RULES_SIZE = 14
# the columns of the action table
A_RUSH, A_DEFENSE, A_RUSH_CARDS, A_DEFENSE_CARDS, A_RUSH_VALUE, A_DEFENSE_VALUE = 0, 3, 6, 7, 8, 9
ACTION_COLUMNS = 10
MAX_ROUND = np.iinfo(np.int16).max

_SERVED = frozenset(
    {
        "rules",
        "best_of",
        "turret_lifetime",
        "escalation_lights",
        "rush_tiebreak",
        "match_draws",
        "reserve",
        "mercy",
        "round_limit",
        "auto_steps",  # no Erd rule reads it: the game never takes a step for a player
    }
)


class Tables(NamedTuple):
    """A configuration's rules as arrays, passed to every compiled function."""

    actions: np.ndarray
    """``(num_actions, 10)``: each allocation's Rush pile and Defense pile (Heavies, Lights,
    Decoys), their cards, the Rush's value and the Defense pile's value."""
    rules: np.ndarray
    """The options as numbers (the ``G_*`` indices)."""


@per_game
def tables(game: ErdGame) -> Tables:
    """The arrays of ``game``'s rules; ValueError naming an option this module does not
    serve. Kept per game (:func:`meeple.core.kernels.per_game`), since a search asks at
    every rollout."""
    refusal = unserved_refusal(game.options, _SERVED, "compiled Erd rules")
    if refusal is not None:
        raise ValueError(refusal)
    options, version = game.options, game.version
    if options.round_limit > MAX_ROUND:
        raise ValueError(
            f"the compiled Erd rules serve round_limit up to {MAX_ROUND} (a round is an "
            f"int16), not {options.round_limit}"
        )
    actions = np.array(
        [
            [
                *a.rush,
                *a.defense,
                a.rush.total,
                a.defense.total,
                a.rush.rush_value,
                a.defense.defense_value,
            ]
            for a in game.all_actions
        ],
        dtype=np.int16,
    ).reshape(-1, ACTION_COLUMNS)
    rules = np.zeros(RULES_SIZE, dtype=np.int64)
    rules[G_EXACT] = version.exactly_three
    rules[G_REFILL] = -1 if version.decoy_refill is None else version.decoy_refill
    rules[G_MERCY] = MERCY_RULES.index(version.mercy)
    rules[G_PRE] = version.pre_escalation_win
    rules[G_ONE_COMBAT] = options.turret_lifetime == "one_combat"
    rules[G_OWN_LIGHTS] = options.escalation_lights == "own"
    rules[G_CARDS] = options.rush_tiebreak == "cards"
    rules[G_REPLAY] = options.match_draws == "replay"
    rules[G_BEST_OF] = options.best_of
    rules[G_LIMIT] = options.round_limit
    rules[G_START : G_START + 3] = version.starting_reserve
    rules[G_MAX_GAMES] = max_games(game)
    return Tables(actions, rules)


def max_games(game: ErdGame) -> int:
    """The most games a match of ``game`` can have: ``best_of``, and as many replays again
    under ``match_draws=replay``."""
    best_of = game.options.best_of
    return 2 * best_of if game.options.match_draws == "replay" else best_of


def size(game: ErdGame) -> int:
    """Length of a position's array for ``game``'s configuration."""
    return HISTORY + RECORD * max_games(game)


# -- between the engine's states and arrays -------------------------------------------------
@encoder
def encode(state: ErdState) -> np.ndarray:
    """The array of a rules-engine state."""
    game = state.game
    out = np.zeros(size(game), dtype=np.int16)
    score = state.score
    out[ROUND] = state.round
    out[GAMES] = len(state.games)
    out[WINS : WINS + 2] = score
    out[DRAWS] = len(state.games) - sum(score)
    out[OVER] = state.match_over
    for p, side in enumerate(state.sides):
        base = SEATS_AT + p * SEAT_SIZE
        out[base + RESERVE : base + RESERVE + 3] = side.reserve
        out[base + DISCARD : base + DISCARD + 3] = side.discard
        out[base + TURRETS] = side.turrets
        chosen = state.pending.of(p)
        out[base + PENDING] = -1 if chosen is None else game.action_id(chosen)
    last = state.last
    if last is not None:
        values = [1, last.game_number, last.round]
        values += [game.action_id(a) for a in last.allocations]
        values += [*last.turrets, *last.rush, *last.defense, OUTCOMES.index(last.outcome)]
        values += [*last.turrets_made, *last.decoys_back, *last.lights_back]
        values += [last.escalation, *last.escalation_heavies, *last.escalation_lights]
        values += [last.ending is not None]
        out[LAST : LAST + LAST_SIZE] = values
    for k, end in enumerate(state.games):
        at = HISTORY + k * RECORD
        winner = -1 if end.winner is None else end.winner
        out[at : at + RECORD] = [winner, REASONS.index(end.reason), end.round, *_numbers(end)]
    return out


_INTEGER = re.compile(r"\d+")
_CARDS = re.compile(r"(\d+) (Heav|Light|Decoy)")


def _numbers(end: GameEnd) -> tuple[int, int, int]:
    """The three numbers ``end``'s sentence was written from (see :func:`game_end`)."""
    if end.reason == "rush":  # "...Rush (4) broke through ...Defense (3) in round 2"
        figures = [int(x) for x in _INTEGER.findall(end.detail)]
        return figures[0], figures[1], 0
    if end.reason == "both_rushes":  # "...in round 3; Red wins on ... 9 against 7"
        figures = [int(x) for x in _INTEGER.findall(end.detail)]
        return figures[-2], figures[-1], int("tied" in end.detail)
    if end.reason == "mercy":  # "Blue ended round 5 with 2 Lights, 1 Decoy in Reserve ..."
        counts = {kind: int(n) for n, kind in _CARDS.findall(end.detail)}
        return counts.get("Heav", 0), counts.get("Light", 0), counts.get("Decoy", 0)
    return 0, 0, 0


def decode(game: ErdGame, array: np.ndarray) -> ErdState:
    """The rules-engine state of an array (the inverse of :func:`encode`)."""
    v = [int(x) for x in array]
    sides = []
    chosen: list[Allocate | None] = []
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        sides.append(
            Side(
                Cards(*v[base + RESERVE : base + RESERVE + 3]),
                Cards(*v[base + DISCARD : base + DISCARD + 3]),
                v[base + TURRETS],
            )
        )
        pending = v[base + PENDING]
        chosen.append(None if pending < 0 else game.action_from_id(pending))
    games = []
    for k in range(v[GAMES]):
        at = HISTORY + k * RECORD
        reason = REASONS[v[at + R_REASON]]
        numbers = tuple(v[at + R_NUMBERS : at + R_NUMBERS + 3])
        figures = numbers[:2] if reason == "rush" else numbers
        if reason not in ("rush", "both_rushes", "mercy"):
            figures = ()
        winner = None if v[at + R_WINNER] < 0 else v[at + R_WINNER]
        games.append(game_end(game, reason, winner, v[at + R_ROUND], figures))
    last = None
    if v[LAST + L_ON]:
        x = v[LAST : LAST + LAST_SIZE]

        def pair(at: int) -> tuple[int, int]:
            return x[at], x[at + 1]

        rush, defense = pair(L_RUSH), pair(L_DEFENSE)
        last = Combat(
            game_number=x[L_GAME],
            round=x[L_ROUND],
            allocations=(game.action_from_id(x[L_ALLOC]), game.action_from_id(x[L_ALLOC + 1])),
            turrets=pair(L_TURRETS),
            rush=rush,
            defense=defense,
            broke_through=(rush[0] > defense[1], rush[1] > defense[0]),
            outcome=OUTCOMES[x[L_OUTCOME]],
            turrets_made=pair(L_MADE),
            decoys_back=pair(L_DECOYS),
            lights_back=pair(L_LIGHTS),
            escalation=bool(x[L_ESCALATION]),
            escalation_heavies=pair(L_ESC_HEAVIES),
            escalation_lights=pair(L_ESC_LIGHTS),
            ending=games[-1] if x[L_ENDED] else None,
        )
    return ErdState(
        game=game,
        sides=(sides[0], sides[1]),
        pending=Submissions((0, 1), (chosen[0], chosen[1])),
        round=v[ROUND],
        games=tuple(games),
        last=last,
    )


# -- the rules, compiled --------------------------------------------------------------------
@compiled
def acting(state: np.ndarray, player: int) -> bool:
    """Whether ``player`` is yet to allocate in the open round (never once the match is
    over)."""
    return state[OVER] == 0 and state[SEATS_AT + player * SEAT_SIZE + PENDING] < 0


@compiled
def to_act(state: np.ndarray) -> int:
    """The first seat yet to allocate in the open round; -1 once the match is over."""
    for p in range(2):
        if acting(state, p):
            return p
    return -1


@compiled
def allowed(
    state: np.ndarray, player: int, action: int, actions: np.ndarray, rules: np.ndarray
) -> bool:
    """Whether ``player``'s Reserve allows ``action`` (``ErdGame.allocation_problem``)."""
    base = SEATS_AT + player * SEAT_SIZE
    held = 0
    need = 0
    for k in range(3):
        count = actions[action, A_RUSH + k] + actions[action, A_DEFENSE + k]
        if count > state[base + RESERVE + k]:
            return False
        held += state[base + RESERVE + k]
        need += count
    if rules[G_EXACT]:
        total = min(2 * PILE_SIZE, held)
        if total == 2 * PILE_SIZE:
            return (
                actions[action, A_RUSH_CARDS] == PILE_SIZE
                and actions[action, A_DEFENSE_CARDS] == PILE_SIZE
            )
        return need == total
    return True


@compiled
def legal_actions(
    state: np.ndarray, player: int, actions: np.ndarray, rules: np.ndarray, out: np.ndarray
) -> int:
    """Write ``player``'s legal action ids into ``out`` in the engine's order; return how
    many (0 when the seat is not to act)."""
    if not acting(state, player):
        return 0
    count = 0
    for a in range(actions.shape[0]):
        if allowed(state, player, a, actions, rules):
            out[count] = a
            count += 1
    return count


@compiled
def _end_game(
    state: np.ndarray,
    winner: int,
    reason: int,
    rnd: int,
    n0: int,
    n1: int,
    n2: int,
    rules: np.ndarray,
) -> None:
    """Record a game over; the next game starts from full Reserves unless the match is
    over (then the table stays as it is)."""
    games = state[GAMES]
    at = HISTORY + games * RECORD
    state[at + R_WINNER] = winner
    state[at + R_REASON] = reason
    state[at + R_ROUND] = rnd
    state[at + R_NUMBERS] = n0
    state[at + R_NUMBERS + 1] = n1
    state[at + R_NUMBERS + 2] = n2
    games += 1
    state[GAMES] = games
    if winner < 0:
        state[DRAWS] += 1
    else:
        state[WINS + winner] += 1
    state[LAST + L_ENDED] = 1
    best_of = rules[G_BEST_OF]
    counted = games
    if rules[G_REPLAY]:
        draws = state[DRAWS]
        counted = games - draws + max(0, draws - best_of)
    left = best_of - counted
    if left <= 0 or abs(state[WINS] - state[WINS + 1]) > left:
        state[OVER] = 1
        return
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        for k in range(3):
            state[base + RESERVE + k] = rules[G_START + k]
            state[base + DISCARD + k] = 0
        state[base + TURRETS] = 0
    state[ROUND] = 1


@compiled
def _caught(state: np.ndarray, p: int, mercy: int) -> bool:
    """Whether the mercy rule (:data:`MERCY_RULES` ``[mercy]``) catches seat ``p``."""
    base = SEATS_AT + p * SEAT_SIZE
    heavy, light = state[base + RESERVE], state[base + RESERVE + 1]
    if mercy == 1:
        return heavy == 0 and light <= 1
    if mercy == 3:
        return heavy == 0 and light == 0
    return heavy == 0 and light <= 2 and state[SEATS_AT + (1 - p) * SEAT_SIZE + RESERVE] > 0


@compiled
def _resolve(state: np.ndarray, actions: np.ndarray, rules: np.ndarray) -> None:
    """Both allocations are in: combat, Turrets and discards, Recovery, the checks that end
    a game and the Escalation (``rounds.resolve_round``), then the next round or game."""
    # the combat's figures are read back from the last-combat block, not kept in arrays:
    # an array made per round costs more than the whole round in a batch
    rnd = state[ROUND]
    last = LAST
    alloc = state[last + L_ALLOC : last + L_ALLOC + 2]
    rush = state[last + L_RUSH : last + L_RUSH + 2]
    defense = state[last + L_DEFENSE : last + L_DEFENSE + 2]
    state[last : last + LAST_SIZE] = 0
    state[last + L_ON] = 1
    state[last + L_GAME] = state[GAMES] + 1
    state[last + L_ROUND] = rnd
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        a = state[base + PENDING]
        state[base + PENDING] = -1
        state[last + L_ALLOC + p] = a
        state[last + L_TURRETS + p] = state[base + TURRETS]
        state[last + L_RUSH + p] = actions[a, A_RUSH_VALUE]
        state[last + L_DEFENSE + p] = actions[a, A_DEFENSE_VALUE] + state[base + TURRETS]
    broke0 = rush[0] > defense[1]
    broke1 = rush[1] > defense[0]
    winner = -1
    n0, n1, n2 = 0, 0, 0
    if broke0 != broke1:
        outcome = ONE_RUSH
        winner = 0 if broke0 else 1
        n0, n1 = rush[winner], defense[1 - winner]
    elif not broke0:
        outcome = HELD
    elif rush[0] + defense[0] != rush[1] + defense[1]:
        outcome = BOTH_TOTAL
        winner = 0 if rush[0] + defense[0] > rush[1] + defense[1] else 1
        n0, n1 = rush[winner] + defense[winner], rush[1 - winner] + defense[1 - winner]
    else:
        column = A_RUSH_CARDS if rules[G_CARDS] else A_RUSH_VALUE
        size0, size1 = actions[alloc[0], column], actions[alloc[1], column]
        if size0 != size1:
            outcome = BOTH_RUSH
            winner = 0 if size0 > size1 else 1
            n0, n1, n2 = (size0, size1, 1) if winner == 0 else (size1, size0, 1)
        else:
            outcome = EXACT_TIE
    state[last + L_OUTCOME] = outcome
    if winner >= 0:  # the piles stay on the table
        reason = RUSH if outcome == ONE_RUSH else BOTH_RUSHES
        _end_game(state, winner, reason, rnd, n0, n1, n2, rules)
        return

    # Turrets (only when both Defenses held) and discards, then Recovery
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        a = alloc[p]
        made = 0
        if outcome == HELD:
            over = max(0, defense[p] - rush[1 - p]) // CONVERSION_STEP
            made = min(actions[a, A_DEFENSE], over)
        for k in range(3):
            count = actions[a, A_RUSH + k] + actions[a, A_DEFENSE + k]
            state[base + RESERVE + k] -= count
            state[base + DISCARD + k] += count
        state[base + DISCARD] -= made
        standing = state[base + TURRETS]
        if rules[G_ONE_COMBAT]:
            state[base + DISCARD] += standing
            standing = 0
        state[base + TURRETS] = standing + made
        state[last + L_MADE + p] = made
        held = state[base + RESERVE] + state[base + RESERVE + 1] + state[base + RESERVE + 2]
        decoys = state[base + DISCARD + 2]
        if rules[G_REFILL] >= 0:
            decoys = min(decoys, max(0, rules[G_REFILL] - held))
        state[base + RESERVE + 2] += decoys
        state[base + DISCARD + 2] -= decoys
        lights = min(state[base + RESERVE], state[base + DISCARD + 1])
        state[base + RESERVE + 1] += lights
        state[base + DISCARD + 1] -= lights
        state[last + L_DECOYS + p] = decoys
        state[last + L_LIGHTS + p] = lights

    # the checks after Recovery (``rounds.end_of_round``)
    reason = -1
    winner = -1
    escalation = False
    s0, s1 = SEATS_AT, SEATS_AT + SEAT_SIZE
    # Every Heavy lies in a Reserve or a discard pile here, so 'all Heavies discarded' is
    # no Heavy in either Reserve (whatever number the ``reserve`` option starts with).
    discarded = state[s0 + DISCARD] + state[s0 + TURRETS]
    discarded += state[s1 + DISCARD] + state[s1 + TURRETS]
    if state[s0 + RESERVE] + state[s1 + RESERVE] == 0 and discarded > 0:
        holds0 = state[s0 + RESERVE] + state[s0 + RESERVE + 1] > 0
        holds1 = state[s1 + RESERVE] + state[s1 + RESERVE + 1] > 0
        if rules[G_PRE] and holds0 != holds1:
            reason = PRE_ESCALATION
            winner = 0 if holds0 else 1
        else:
            escalation = True
    elif rules[G_MERCY] > 0:
        caught0 = _caught(state, 0, rules[G_MERCY])
        caught1 = _caught(state, 1, rules[G_MERCY])
        if caught0 and caught1:
            reason = MERCY_DRAW
        elif caught0 or caught1:
            loser = 0 if caught0 else 1
            reason = MERCY
            winner = 1 - loser
            base = SEATS_AT + loser * SEAT_SIZE
            n0 = state[base + RESERVE]
            n1 = state[base + RESERVE + 1]
            n2 = state[base + RESERVE + 2]
    if reason < 0 and rnd >= rules[G_LIMIT]:
        reason = ROUND_LIMIT

    if escalation:  # Heavies back (plain discarded ones before Turrets), then every Light
        state[last + L_ESCALATION] = 1
        none_left = state[s0 + RESERVE + 1] == 0 and state[s1 + RESERVE + 1] == 0
        for p in range(2):
            base = SEATS_AT + p * SEAT_SIZE
            # what a seat asks for reads its own Lights, which only its own turn changes
            light = state[base + RESERVE + 1]
            want = max(1, light) if rules[G_OWN_LIGHTS] else (1 if none_left else light)
            back = min(want, state[base + DISCARD] + state[base + TURRETS])
            from_discard = min(back, state[base + DISCARD])
            state[base + DISCARD] -= from_discard
            state[base + TURRETS] -= back - from_discard
            state[base + RESERVE] += back
            lights = state[base + DISCARD + 1]
            state[base + RESERVE + 1] += lights
            state[base + DISCARD + 1] = 0
            state[last + L_ESC_HEAVIES + p] = back
            state[last + L_ESC_LIGHTS + p] = lights

    if reason >= 0:
        _end_game(state, winner, reason, rnd, n0, n1, n2, rules)
    else:
        state[ROUND] = rnd + 1


@compiled
def apply(
    state: np.ndarray, player: int, action: int, actions: np.ndarray, rules: np.ndarray
) -> None:
    """``player`` allocates ``action`` (legal), in place; the round is resolved once both
    allocations are in."""
    state[SEATS_AT + player * SEAT_SIZE + PENDING] = action
    if state[SEATS_AT + PENDING] >= 0 and state[SEATS_AT + SEAT_SIZE + PENDING] >= 0:
        _resolve(state, actions, rules)


@compiled
def winner(state: np.ndarray) -> int:
    """The seat that won the match (once it is over); -1 for a draw."""
    a, b = state[WINS], state[WINS + 1]
    if a == b:
        return -1
    return 0 if a > b else 1


@compiled
def rollout(state: np.ndarray, actions: np.ndarray, rules: np.ndarray, moves: np.ndarray) -> None:
    """Uniformly random legal allocations to the end of the match, in place (numba's
    generator); the first seat yet to allocate acts first."""
    seat = to_act(state)
    while seat >= 0:
        count = legal_actions(state, seat, actions, rules, moves)
        apply(state, seat, moves[np.random.randint(0, count)], actions, rules)
        seat = to_act(state)


@compiled
def random_games(
    start: np.ndarray, actions: np.ndarray, rules: np.ndarray, games: int, seed: int
) -> np.ndarray:
    """How ``games`` uniformly random matches from ``start`` end: Red's wins, draws, Blue's
    wins."""
    np.random.seed(seed)
    results = np.zeros(3, dtype=np.int64)
    scratch = start.copy()
    moves = np.empty(actions.shape[0], dtype=np.int16)
    for _ in range(games):
        scratch[:] = start
        rollout(scratch, actions, rules, moves)
        w = winner(scratch)
        results[0 if w == 0 else (2 if w == 1 else 1)] += 1
    return results


def playouts(state: ErdState, games: int, seed: int = 0) -> tuple[int, int, int]:
    """How ``games`` uniformly random matches from ``state`` (the true state: play it from
    a determinized one in a search) end: Red's wins, draws, Blue's wins. Not offered to
    search (``register_playout``) yet: that would change the rollouts Erd's searching
    agents play today."""
    t = tables(state.game)
    won, drawn, lost = random_games(encode(state), t.actions, t.rules, games, seed)
    return int(won), int(drawn), int(lost)


__all__ = [
    "OUTCOMES",
    "REASONS",
    "Tables",
    "acting",
    "allowed",
    "apply",
    "decode",
    "encode",
    "legal_actions",
    "max_games",
    "playouts",
    "random_games",
    "rollout",
    "size",
    "tables",
    "to_act",
    "winner",
]
