"""Erd batched: many matches stepped at once on the compiled rules (:mod:`.rules`), for the
research environments (:mod:`meeple.core.batch` says what each array holds; Erd's
allocations are simultaneous, so its arrays are per seat).

**Both seats act in one step.** ``actions`` is ``(B, 2)``: each seat's allocation id, taken
only from a seat still to allocate in the open round (``acting``); the other entry is
ignored. The two are applied in seat order, as the readable rules take them one by one; an
allocation stays hidden until both are in, so the order changes nothing. A game of Erd is a
whole match (best of ``best_of``): a game of the match that ends starts the next one inside
the same row, and the reward comes when the match ends.

**No chance.** Erd deals nothing, so every row starts as the readable rules'
``new_game(seed)`` for any seed, and a row is the compiled position alone.

**The observation** of seat ``p`` is what that seat may know and nothing else, 66 numbers
in [0, 1], ``+0`` meaning the seat itself and ``+1`` the other seat, and ``<k>`` the kinds
of card ``H``, ``L``, ``D`` (:meth:`ErdBatch.observation_slots` names each):

* ``round``: the round of the current game over 32 (capped); ``rounds_left``: the rounds
  before the round limit draws the game, over 32 (capped);
* ``waiting[+k]``: 1 while seat ``+k`` is yet to allocate in the open round;
* ``pending.rush.<k>``, ``pending.defense.<k>``: the seat's own hidden allocation while it
  waits for the other, cards of each kind over 3;
* ``reserve[+k].<k>``, ``discard[+k].<k>``: the cards of each kind, over the starting
  Reserve's count of that kind (0 for a kind the Reserve lacks); ``turrets[+k]``: Turrets
  standing, over the starting Heavies;
* ``wins[+k]``: games of the match won, over the wins that decide it; ``draws``: drawn
  games over ``best_of`` (capped); ``games_left``: games still to count, over ``best_of``;
  ``over``: 1 once the match is over;
* ``last.shown``: 1 once a combat has been revealed in the match; ``last.this_game``: 1
  when it is of the game being played (else it ended the game before);
* ``last[+k].rush.<k>``, ``last[+k].defense.<k>``: its revealed piles, over 3;
  ``last[+k].rush_value`` over 6, ``last[+k].defense_value`` (Turrets counted) over 9 plus
  the starting Heavies; ``last[+k].broke``: 1 when that seat's Rush broke through;
* ``last.outcome.one_rush`` ... ``last.outcome.held``: what it decided, one-hot;
* ``last[+k].turrets_made``, ``last[+k].decoys_back``, ``last[+k].lights_back``: what
  followed, over the starting count of that kind; ``last.escalation``: 1 if an Escalation
  followed, ``last[+k].escalation_heavies``, ``last[+k].escalation_lights`` what it gave
  back, likewise; ``last.ended``: 1 when that combat's round ended a game.

Never in it: the other seat's pending allocation. :func:`observation_of_view` computes the
same numbers from a seat's view of the readable rules (``state.view(seat)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.games.erd.compiled.rules import (
    A_DEFENSE,
    A_RUSH,
    DISCARD,
    DRAWS,
    G_BEST_OF,
    G_LIMIT,
    G_REPLAY,
    G_START,
    GAMES,
    L_ALLOC,
    L_DECOYS,
    L_DEFENSE,
    L_ENDED,
    L_ESC_HEAVIES,
    L_ESC_LIGHTS,
    L_ESCALATION,
    L_GAME,
    L_LIGHTS,
    L_MADE,
    L_ON,
    L_OUTCOME,
    L_RUSH,
    LAST,
    OUTCOMES,
    OVER,
    PENDING,
    RESERVE,
    ROUND,
    SEAT_SIZE,
    SEATS_AT,
    TURRETS,
    WINS,
    acting,
    allowed,
    apply,
    decode,
    encode,
    size,
    tables,
    winner,
)
from meeple.games.erd.pieces import HEAVY_ON_DEFENSE, HEAVY_ON_RUSH, LETTERS, PILE_SIZE
from meeple.games.erd.rules import ErdGame, ErdState

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)

PLAYERS = 2
ROUND_SCALE = 32
MAX_RUSH = HEAVY_ON_RUSH * PILE_SIZE
MAX_DEFENSE_PILE = HEAVY_ON_DEFENSE * PILE_SIZE

# -- the observation's slots ----------------------------------------------------------------
O_ROUND = 0
O_ROUNDS_LEFT = 1
O_WAITING = 2
O_PENDING = O_WAITING + 2
O_RESERVE = O_PENDING + 6
O_DISCARD = O_RESERVE + 6
O_TURRETS = O_DISCARD + 6
O_WINS = O_TURRETS + 2
O_DRAWS = O_WINS + 2
O_GAMES_LEFT = O_DRAWS + 1
O_OVER = O_GAMES_LEFT + 1
O_LAST_SHOWN = O_OVER + 1
O_LAST_THIS_GAME = O_LAST_SHOWN + 1
O_LAST_PILES = O_LAST_THIS_GAME + 1
O_LAST_RUSH_VALUE = O_LAST_PILES + 12
O_LAST_DEFENSE_VALUE = O_LAST_RUSH_VALUE + 2
O_LAST_BROKE = O_LAST_DEFENSE_VALUE + 2
O_LAST_OUTCOME = O_LAST_BROKE + 2
O_LAST_MADE = O_LAST_OUTCOME + len(OUTCOMES)
O_LAST_DECOYS = O_LAST_MADE + 2
O_LAST_LIGHTS = O_LAST_DECOYS + 2
O_LAST_ESCALATION = O_LAST_LIGHTS + 2
O_LAST_ESC_HEAVIES = O_LAST_ESCALATION + 1
O_LAST_ESC_LIGHTS = O_LAST_ESC_HEAVIES + 2
O_LAST_ENDED = O_LAST_ESC_LIGHTS + 2
OBSERVATION_SIZE = O_LAST_ENDED + 1
"""66 numbers per seat."""


def scales(game: ErdGame) -> np.ndarray:
    """What each count is divided by: the starting count of each kind (1 where there is
    none), the wins that decide a match, ``best_of`` and the largest Defense."""
    start = game.version.starting_reserve
    best_of = game.options.best_of
    return np.array(
        [
            max(1, start.heavy),
            max(1, start.light),
            max(1, start.decoy),
            (best_of + 1) // 2,
            best_of,
            MAX_DEFENSE_PILE + start.heavy,
        ],
        dtype=np.float64,
    )


S_KIND, S_WINS, S_BEST_OF, S_DEFENSE = 0, 3, 4, 5


@compiled
def _observe(
    state: np.ndarray,
    p: int,
    actions: np.ndarray,
    rules: np.ndarray,
    scale: np.ndarray,
    out: np.ndarray,
) -> None:
    out[:] = 0.0
    over = state[OVER] != 0
    out[O_ROUND] = min(state[ROUND], ROUND_SCALE) / ROUND_SCALE
    out[O_ROUNDS_LEFT] = min(rules[G_LIMIT] - state[ROUND], ROUND_SCALE) / ROUND_SCALE
    for k in range(PLAYERS):
        if acting(state, (p + k) % PLAYERS):
            out[O_WAITING + k] = 1.0
    own = state[SEATS_AT + p * SEAT_SIZE + PENDING]
    if own >= 0:
        for i in range(3):
            out[O_PENDING + i] = actions[own, A_RUSH + i] / PILE_SIZE
            out[O_PENDING + 3 + i] = actions[own, A_DEFENSE + i] / PILE_SIZE
    for k in range(PLAYERS):
        q = (p + k) % PLAYERS
        base = SEATS_AT + q * SEAT_SIZE
        for i in range(3):
            out[O_RESERVE + 3 * k + i] = state[base + RESERVE + i] / scale[S_KIND + i]
            out[O_DISCARD + 3 * k + i] = state[base + DISCARD + i] / scale[S_KIND + i]
        out[O_TURRETS + k] = state[base + TURRETS] / scale[S_KIND]
        out[O_WINS + k] = state[WINS + q] / scale[S_WINS]
    best_of = rules[G_BEST_OF]
    draws = state[DRAWS]
    counted = state[GAMES]
    if rules[G_REPLAY]:
        counted = counted - draws + max(0, draws - best_of)
    out[O_DRAWS] = min(draws, best_of) / scale[S_BEST_OF]
    out[O_GAMES_LEFT] = max(0, best_of - counted) / scale[S_BEST_OF]
    out[O_OVER] = 1.0 if over else 0.0
    if state[LAST + L_ON] == 0:
        return
    out[O_LAST_SHOWN] = 1.0
    playing = state[GAMES] if over else state[GAMES] + 1
    out[O_LAST_THIS_GAME] = 1.0 if state[LAST + L_GAME] == playing else 0.0
    for k in range(PLAYERS):
        q = (p + k) % PLAYERS
        a = state[LAST + L_ALLOC + q]
        for i in range(3):
            out[O_LAST_PILES + 6 * k + i] = actions[a, A_RUSH + i] / PILE_SIZE
            out[O_LAST_PILES + 6 * k + 3 + i] = actions[a, A_DEFENSE + i] / PILE_SIZE
        rush = state[LAST + L_RUSH + q]
        out[O_LAST_RUSH_VALUE + k] = rush / MAX_RUSH
        out[O_LAST_DEFENSE_VALUE + k] = state[LAST + L_DEFENSE + q] / scale[S_DEFENSE]
        out[O_LAST_BROKE + k] = 1.0 if rush > state[LAST + L_DEFENSE + 1 - q] else 0.0
        out[O_LAST_MADE + k] = state[LAST + L_MADE + q] / scale[S_KIND]
        out[O_LAST_DECOYS + k] = state[LAST + L_DECOYS + q] / scale[S_KIND + 2]
        out[O_LAST_LIGHTS + k] = state[LAST + L_LIGHTS + q] / scale[S_KIND + 1]
        out[O_LAST_ESC_HEAVIES + k] = state[LAST + L_ESC_HEAVIES + q] / scale[S_KIND]
        out[O_LAST_ESC_LIGHTS + k] = state[LAST + L_ESC_LIGHTS + q] / scale[S_KIND + 1]
    out[O_LAST_OUTCOME + state[LAST + L_OUTCOME]] = 1.0
    out[O_LAST_ESCALATION] = state[LAST + L_ESCALATION]
    out[O_LAST_ENDED] = state[LAST + L_ENDED]


@compiled
def _legal_table(actions: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """``(reserves, A)``: the allocations each Reserve allows, a row per Reserve a seat can
    hold (:func:`_reserve_row`): legality reads nothing else, so a mask is one row copied."""
    lights, decoys = rules[G_START + 1] + 1, rules[G_START + 2] + 1
    table = np.zeros(((rules[G_START] + 1) * lights * decoys, actions.shape[0]), np.bool_)
    state = np.zeros(SEATS_AT + SEAT_SIZE, dtype=np.int16)
    state[SEATS_AT + PENDING] = -1
    for row in range(table.shape[0]):
        state[SEATS_AT + RESERVE] = row // (lights * decoys)
        state[SEATS_AT + RESERVE + 1] = (row // decoys) % lights
        state[SEATS_AT + RESERVE + 2] = row % decoys
        for a in range(actions.shape[0]):
            table[row, a] = allowed(state, 0, a, actions, rules)
    return table


@compiled
def _reserve_row(state: np.ndarray, p: int, rules: np.ndarray) -> int:
    """The row of :func:`_legal_table` for seat ``p``'s Reserve."""
    base = SEATS_AT + p * SEAT_SIZE + RESERVE
    lights, decoys = rules[G_START + 1] + 1, rules[G_START + 2] + 1
    return (state[base] * lights + state[base + 1]) * decoys + state[base + 2]


@batched
def _look_all(
    states: np.ndarray,
    actions: np.ndarray,
    rules: np.ndarray,
    legal: np.ndarray,
    scale: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    seats: np.ndarray,
) -> None:
    # Masks, observations and who acts, in one pass over the batch.
    for b in prange(states.shape[0]):
        state = states[b]
        for p in range(PLAYERS):
            on = acting(state, p)
            seats[b, p] = on
            if on:
                masks[b, p, :] = legal[_reserve_row(state, p, rules)]
            else:
                masks[b, p, :] = False
            _observe(state, p, actions, rules, scale, observations[b, p])


@batched
def _observe_all(
    states: np.ndarray, actions: np.ndarray, rules: np.ndarray, scale: np.ndarray, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        for p in range(PLAYERS):
            _observe(states[b], p, actions, rules, scale, out[b, p])


@batched
def _step_all(
    states: np.ndarray,
    chosen: np.ndarray,
    actions: np.ndarray,
    rules: np.ndarray,
    legal: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
) -> None:
    count = actions.shape[0]
    for b in prange(states.shape[0]):
        rewards[b, :] = 0.0
        done[b] = False
        state = states[b]
        any_acting = False
        bad = False
        for p in range(PLAYERS):
            if acting(state, p):
                any_acting = True
                a = chosen[b, p]
                if a < 0 or a >= count or not legal[_reserve_row(state, p, rules), a]:
                    bad = True
        illegal[b] = bad or not any_acting
        if illegal[b]:
            continue
        for p in range(PLAYERS):
            if acting(state, p):
                apply(state, p, chosen[b, p], actions, rules)
        if state[OVER]:
            done[b] = True
            w = winner(state)
            if w >= 0:
                rewards[b, w] = 1.0
                rewards[b, 1 - w] = -1.0


class ErdBatch:
    """:class:`meeple.core.batch.BatchRules` for one Erd configuration: every option the
    compiled rules serve (the module says what each array holds)."""

    simultaneous = True

    def __init__(self, game: ErdGame) -> None:
        if not isinstance(game, ErdGame):
            raise MeepleError(f"ErdBatch takes Erd, not {game.title}")
        try:
            self._tables = tables(game)
        except ValueError as exc:
            raise MeepleError(str(exc)) from None
        self.game = game
        self.num_players = PLAYERS
        self.num_actions = game.num_actions
        self.state_size = size(game)
        self.observation_size = OBSERVATION_SIZE
        self._scale = scales(game)
        self._template = encode(game.new_game(0))
        self._legal = _legal_table(self._tables.actions, self._tables.rules)

    def initial(self, seed: int) -> np.ndarray:
        """The row of the readable rules' ``new_game(seed)`` (the same for every seed: Erd
        has no chance)."""
        return self._template.copy()

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """``(len(seeds), state_size)``: :meth:`initial` of each seed."""
        return np.tile(self._template, (len(seeds), 1))

    def decode(self, row: np.ndarray) -> ErdState:
        """The readable rules' state of one row."""
        return decode(self.game, row)

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """``(B, 2)`` booleans: the seats yet to allocate in each match's open round."""
        pending = states[:, SEATS_AT + PENDING : SEATS_AT + PLAYERS * SEAT_SIZE : SEAT_SIZE]
        return (pending < 0) & (states[:, OVER] == 0)[:, None]

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, 2, A)``: each seat's legal action ids (none for a seat not to act)."""
        obs = np.empty((states.shape[0], PLAYERS, OBSERVATION_SIZE), dtype=np.float32)
        self.look(states, out, obs)

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each acting seat's action of ``actions`` ``(B, 2)`` in place; ``(B,)`` True
        where one was not legal (that match is left as it was)."""
        illegal = np.empty(states.shape[0], dtype=np.bool_)
        t = self._tables
        chosen = np.asarray(actions, dtype=np.int64)
        _step_all(states, chosen, t.actions, t.rules, self._legal, rewards, done, illegal)
        return illegal

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, 2, observation_size)``: each seat's observation (the module names the slots)."""
        t = self._tables
        _observe_all(states, t.actions, t.rules, self._scale, out)

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` in one pass; returns :meth:`to_act`."""
        seats = np.empty((states.shape[0], PLAYERS), dtype=np.bool_)
        t = self._tables
        _look_all(states, t.actions, t.rules, self._legal, self._scale, masks, observations, seats)
        return seats

    def observation_slots(self) -> list[str]:
        """The name of every slot (the module docstring says what each holds)."""
        return observation_slots()

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation from its view of the readable rules (``state.view(seat)``):
        what :meth:`observe` gives that seat, for the one-game adapters."""
        return observation_of_view(self.game, view, seat)


def observation_slots() -> list[str]:
    """The name of every slot of a seat's observation, in order."""
    seats = ("[+0]", "[+1]")
    slots = ["round", "rounds_left", *(f"waiting{s}" for s in seats)]
    slots += [f"pending.{pile}.{k}" for pile in ("rush", "defense") for k in LETTERS]
    for part in ("reserve", "discard"):
        slots += [f"{part}{s}.{k}" for s in seats for k in LETTERS]
    slots += [f"turrets{s}" for s in seats] + [f"wins{s}" for s in seats]
    slots += ["draws", "games_left", "over", "last.shown", "last.this_game"]
    slots += [f"last{s}.{pile}.{k}" for s in seats for pile in ("rush", "defense") for k in LETTERS]
    for part in ("rush_value", "defense_value", "broke"):
        slots += [f"last{s}.{part}" for s in seats]
    slots += [f"last.outcome.{o}" for o in OUTCOMES]
    for part in ("turrets_made", "decoys_back", "lights_back"):
        slots += [f"last{s}.{part}" for s in seats]
    slots += ["last.escalation"]
    for part in ("escalation_heavies", "escalation_lights"):
        slots += [f"last{s}.{part}" for s in seats]
    return [*slots, "last.ended"]


def observation_of_view(game: ErdGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`ErdBatch` for ``seat``, computed from that seat's view of
    the readable rules (``state.view(seat)``): the same numbers, by another road."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    scale = scales(game)
    options = game.options
    result = view["result"]
    seats = (seat, 1 - seat)
    out[O_ROUND] = min(view["round"], ROUND_SCALE) / ROUND_SCALE
    out[O_ROUNDS_LEFT] = min(options.round_limit - view["round"], ROUND_SCALE) / ROUND_SCALE
    for k, s in enumerate(seats):
        out[O_WAITING + k] = 1.0 if s in view["to_act"] else 0.0
    mine = view["allocations"]["mine"]
    if mine is not None:
        action = game.parse_action(mine)
        for i in range(3):
            out[O_PENDING + i] = action.rush[i] / PILE_SIZE
            out[O_PENDING + 3 + i] = action.defense[i] / PILE_SIZE
    for k, s in enumerate(seats):
        side = view["sides"][s]
        for i, letter in enumerate(LETTERS):
            out[O_RESERVE + 3 * k + i] = side["reserve"][letter] / scale[S_KIND + i]
            out[O_DISCARD + 3 * k + i] = side["discard"][letter] / scale[S_KIND + i]
        out[O_TURRETS + k] = side["turrets"] / scale[S_KIND]
        out[O_WINS + k] = result["score"][s] / scale[S_WINS]
    draws = sum(1 for g in result["games"] if g["winner"] is None)
    counted = len(result["games"])
    if options.match_draws == "replay":
        counted = counted - draws + max(0, draws - options.best_of)
    out[O_DRAWS] = min(draws, options.best_of) / scale[S_BEST_OF]
    out[O_GAMES_LEFT] = max(0, options.best_of - counted) / scale[S_BEST_OF]
    out[O_OVER] = 1.0 if result["over"] else 0.0
    last = view["last_combat"]
    if last is None:
        return out
    out[O_LAST_SHOWN] = 1.0
    out[O_LAST_THIS_GAME] = 1.0 if last["game"] == view["game_number"] else 0.0
    for k, s in enumerate(seats):
        for j, pile in enumerate(("rush", "defense")):
            cards = last[pile][s]
            for i, letter in enumerate(LETTERS):
                out[O_LAST_PILES + 6 * k + 3 * j + i] = cards.count(letter) / PILE_SIZE
        out[O_LAST_RUSH_VALUE + k] = last["rush_value"][s] / MAX_RUSH
        out[O_LAST_DEFENSE_VALUE + k] = last["defense_value"][s] / scale[S_DEFENSE]
        out[O_LAST_BROKE + k] = 1.0 if last["broke_through"][s] else 0.0
        out[O_LAST_MADE + k] = last["turrets_made"][s] / scale[S_KIND]
        out[O_LAST_DECOYS + k] = last["decoys_back"][s] / scale[S_KIND + 2]
        out[O_LAST_LIGHTS + k] = last["lights_back"][s] / scale[S_KIND + 1]
        out[O_LAST_ESC_HEAVIES + k] = last["escalation_heavies"][s] / scale[S_KIND]
        out[O_LAST_ESC_LIGHTS + k] = last["escalation_lights"][s] / scale[S_KIND + 1]
    out[O_LAST_OUTCOME + OUTCOMES.index(last["outcome"])] = 1.0
    out[O_LAST_ESCALATION] = 1.0 if last["escalation"] else 0.0
    out[O_LAST_ENDED] = 1.0 if last["ending"] is not None else 0.0
    return out
