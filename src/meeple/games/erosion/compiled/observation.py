"""Erosion batched: the designed observation of :mod:`.batch`, written by a compiled kernel
from a position (:func:`observe`) and by :func:`observation_of_view` from a seat's view of
the readable rules (``state.view(seat)``): the same numbers by two roads.

It is the seat to act's (seat 0's once the game is over), from its own side: ``+k`` is the
seat ``k`` places after it. It holds what that seat may know and nothing else: the public
table, its own hand and challenge card, never another hand, a delta's cards, a challenge
card not yet shown or the decks' order (:func:`observation_slots` names each slot; every
one lies in [0, 1]):

* ``era``: era over eras; ``turn``: turn over 128 (capped);
* ``phase.turn|draw|uplift|transport|pay|guess|choose|over``: one-hot;
* ``step.number``: the front step's number over 6 (cards to draw, rocks left to transport),
  capped; ``step.rock.<type>``: during a payment, the River rock being paid for;
* ``deck.WX|H|F.empty``; ``deck.WX|H|F.limit``: the draw limit over the largest it can be;
* ``passes``: passes in a row over the seats; ``runout``: 1 once a deck has run out;
* ``tie.start``, ``tie.win``: what an open tie-breaker decides;
* per seat ``[+k]``: ``current``, ``acting``, ``height`` and ``weathered`` (rocks over 16,
  capped; ``weathered``: the run at the top), ``hand.WX|H|F`` (cards of each deck in its
  hand over 12, capped), ``delta`` (rocks over 16, capped), ``discards`` (cards over the
  process cards), ``score`` (recorded) and ``points`` (if the era ended now, a challenge
  card not yet shown left out) over 64 (capped), ``runout`` (passes since a deck ran out
  over 2), ``tie.in``, ``tie.mohs`` (its tie-breaker card's hardness over 10),
  ``tie.guess`` (its guess over 10);
* ``mountain[+k][i].<type>``, ``.mohs``, ``.fossil``, ``.weathered``: the ``i``-th rock
  from the top of each mountain (the top 8), its rock type one-hot, hardness over 10,
  whether it bears a fossil, whether it is in the weathered run at the top;
* ``hand.<card>``: 1 for each card of the seat's own hand;
* ``discarded.<card>``: 1 for each card on a discard pile;
* ``river.<type>``: River rocks of each type over the cards of that type.

Slots that exist only with an option, after those (the basic game has none of them):

* ``advanced=true``: ``phase.trigger``, ``phase.fault`` (one-hot with the phases above);
  ``step.age.any|hypoxic|ice|arid``: a trigger step's age; ``draw_limit.WX|H|F``: the
  seat's own draw limit (its Aquifers in force added) over the largest it can be;
  ``atmosphere.<atm>.aged`` (showing its Age end) and ``.triggered`` (this turn);
  ``mountain[+k][i].arch.<kind>``: the rock's architecture, one-hot over the kinds
  (``uplift_trigger`` ... ``transport_bonus_if_high``), and ``.arch.on``: whether it
  still applies (a red one: in force, the rock unweathered; an 'upon uplift' one: it
  fires when next uplifted, under ``uplift_architecture=once`` until it has fired); with
  ``uplift_architecture=once``, ``fired.<card>`` for each card with 'upon uplift'
  architecture: 1 once it has fired;
* ``legend=basic|advanced``: ``challenges.shown``; ``legend.<id>.open`` and
  ``legend.<id>.owner[+k]``: each legend card unclaimed, or claimed by that seat;
  per seat ``challenge[+k].<id>``: its challenge card, one-hot (the seat's own always,
  the others' once shown), ``challenge[+k].points``: its bonus if met (a card the seat
  knows) over the largest bonus, ``legends[+k]``: the points of its legends over all
  legends' points;
* ``typed_weathering=pass-over``: ``below[+k]``: weathered rocks lying below an
  unweathered one (rocks over 16, capped), ``mountain[+k][i].below``: the rock is one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.core.kernels import kernel
from meeple.games.erosion.cards import ROCK_CLASS, UPON_UPLIFT
from meeple.games.erosion.compiled.architecture import in_force, triggered
from meeple.games.erosion.compiled.eras import points
from meeple.games.erosion.compiled.legends import challenge_met
from meeple.games.erosion.compiled.state import (
    AGE_NAMES,
    E_DRAW_LIMIT_BONUS,
    E_UPLIFT_HILLSLOPE,
    E_UPLIFT_TRIGGER,
    EFFECT_NAMES,
    K_CHOOSE,
    K_DRAW,
    K_FAULT,
    K_GUESS,
    K_PAY,
    K_TRANSPORT,
    K_TRIGGER,
    K_UPLIFT,
    LEGEND_OFF,
    R_ADVANCED,
    R_AGED,
    R_AGENDA,
    R_ATMS,
    R_BELOW,
    R_CARDS,
    R_CHALLENGE_POINTS,
    R_CHALLENGES,
    R_DECK,
    R_EFFECT,
    R_ERAS,
    R_FOSSIL,
    R_LEGEND,
    R_LEGEND_POINTS,
    R_LEGENDS,
    R_LEGENDS_N,
    R_MOHS,
    R_ONCE,
    R_PLAYERS,
    R_ROCK,
    R_ROCK_TYPES,
    R_RUNOUT,
    R_SCALARS,
    R_SCORES,
    R_TIE_CARDS,
    R_TIE_GUESSES,
    R_TIE_SEATS,
    R_WEATHERED,
    S_AGENDA_N,
    S_CURRENT,
    S_ERA,
    S_OVER,
    S_PASSES,
    S_RUNOUT_ON,
    S_SHOWN,
    S_TIE_N,
    S_TIE_PURPOSE,
    S_TURN,
    base,
    delta,
    discards,
    fired,
    hand,
    holds,
    mountain,
    river,
    size,
)
from meeple.games.erosion.compiled.transitions import draw_limit, to_act
from meeple.games.erosion.pieces import HAND_SIZE, PROCESS_DECKS, ROCK_METRES
from meeple.games.erosion.rules import ErosionGame

compiled = kernel(nogil=True)

TOP = 8
"""Rocks of each mountain shown, from the top (mountains rarely pass 10 rocks)."""
PHASES = ("turn", "draw", "uplift", "transport", "pay", "guess", "choose", "over")
PHASE_OVER = len(PHASES) - 1
_PHASE_OF_KIND = np.full(16, -1, dtype=np.int64)
for _kind, _name in ((K_DRAW, 1), (K_UPLIFT, 2), (K_TRANSPORT, 3), (K_PAY, 4)):
    _PHASE_OF_KIND[_kind] = _name
_PHASE_OF_KIND[K_GUESS], _PHASE_OF_KIND[K_CHOOSE] = 5, 6
ADVANCED_PHASES = ("trigger", "fault")
"""The phases only the Advanced Rules have ('upon uplift' architecture's steps)."""
ARCHITECTURE = EFFECT_NAMES[1:]
"""The architecture kinds a rock's one-hot runs over (code 1 first)."""
TURN_SCALE = 128.0
ROCK_SCALE = 16.0
HAND_SCALE = 2.0 * HAND_SIZE
POINTS_SCALE = 64.0
MOHS_SCALE = 10.0
SEAT_FIELDS = (
    "current",
    "acting",
    "height",
    "weathered",
    *(f"hand.{d}" for d in PROCESS_DECKS),
    "delta",
    "discards",
    "score",
    "points",
    "runout",
    "tie.in",
    "tie.mohs",
    "tie.guess",
)
F_HAND, F_DELTA, F_TIED = 4, 7, 12

# -- where each part of an observation starts (``offsets``), its size last; the parts of an
# option that is off have no slots
G_ERA, G_TURN, G_PHASE, G_NUMBER, G_ROCK = 0, 1, 2, 10, 11
X_EMPTY, X_LIMIT, X_PASSES, X_RUNOUT, X_TIE, X_SEATS = range(6)
X_MOUNTAINS, X_HAND, X_DISCARDED, X_RIVER = range(6, 10)
X_STEPS, X_OWN_LIMIT, X_ATMOSPHERES, X_ARCHITECTURE, X_FIRED = range(10, 15)
X_SHOWN, X_LEGENDS, X_CHALLENGES, X_BELOW_SEATS, X_BELOW_ROCKS, X_SIZE = range(15, 21)
# -- the scales beside them (``scales``): each deck's largest limit shown, the seat's own
# largest (Aquifers added), all legends' points, the largest challenge bonus, then each
# rock type's cards
Z_LIMIT, Z_OWN_LIMIT, Z_LEGENDS, Z_CHALLENGE, Z_RIVER = 0, 3, 6, 7, 8


def _upon_uplift(game: ErosionGame) -> list[int]:
    """The process cards whose architecture fires upon uplift, in card order."""
    cat = game.catalog
    return [c for c in range(cat.num_process) if cat.effect_kind[c] in UPON_UPLIFT]


def offsets(game: ErosionGame) -> np.ndarray:
    """Where each part of the observation starts (``X_*``), and its size last."""
    cat = game.catalog
    n, cards, types = game.num_players, cat.num_process, len(set(cat.rock))
    advanced = game.options.advanced
    legend = game.options.legend != "off"
    legends, challenges = len(game.legend_cards), len(game.challenge_cards)
    once = advanced and game.options.uplift_architecture == "once"
    below = game.options.typed_weathering == "pass-over"
    widths = (
        3,
        3,
        1,
        1,
        2,
        n * len(SEAT_FIELDS),
        n * TOP * (types + 3),
        cards,
        cards,
        types,
        advanced * (len(ADVANCED_PHASES) + len(AGE_NAMES)),
        advanced * 3,
        advanced * 2 * len(cat.atmospheres),
        advanced * n * TOP * (len(ARCHITECTURE) + 1),
        once * len(_upon_uplift(game)),
        legend * 1,
        legend * legends * (1 + n),
        legend * n * (challenges + 2),
        below * n,
        below * n * TOP,
    )
    out, at = [], G_ROCK + types
    for width in widths:
        out.append(at)
        at += width
    return np.array([*out, at], dtype=np.int64)


def _limit_scales(game: ErosionGame) -> list[float]:
    """The largest draw limit each deck can show: both Atmosphere ends at their higher."""
    cat = game.catalog
    return [
        float(
            max(
                1,
                sum(
                    max(cat.normal_limit[i], cat.age_limit[i])
                    for i in range(len(cat.atmospheres))
                    if cat.under[i] == d
                ),
            )
        )
        for d in range(3)
    ]


def scales_of(game: ErosionGame) -> np.ndarray:
    """What the kernel divides by (``Z_*``)."""
    cat = game.catalog
    limits = _limit_scales(game)
    bonus = [0.0, 0.0, 0.0]
    for effect in cat.effect[: cat.num_process]:
        if effect is not None and effect.kind == "draw_limit_bonus":
            bonus[PROCESS_DECKS.index(effect.deck)] += effect.cards
    own = [limits[d] + bonus[d] for d in range(3)]
    legends = max(1, sum(card.points for card in game.legend_cards))
    challenge = max([1, *(card.points for card in game.challenge_cards)])
    rivers = [cat.rock.count(t) for t in sorted(set(cat.rock))]
    return np.array([*limits, *own, legends, challenge, *rivers], dtype=np.float64)


# -- the kernel -----------------------------------------------------------------------------
@compiled
def _shown_points(s: np.ndarray, R: np.ndarray, q: int) -> int:
    """What seat ``q`` would score now, a challenge card not yet shown left out
    (``points(hidden=False)``)."""
    total = points(s, R, q)
    if R[R_LEGEND] != LEGEND_OFF and not s[R[R_SCALARS] + S_SHOWN] and challenge_met(s, R, q):
        total -= R[R[R_CHALLENGE_POINTS] + s[R[R_CHALLENGES] + q]]
    return total


@compiled
def observe(
    s: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, out: np.ndarray
) -> int:
    """Write the observation of the seat to act (seat 0 once over); return that seat."""
    out[:] = 0.0
    sc, a = R[R_SCALARS], R[R_AGENDA]
    n, cards, types = R[R_PLAYERS], R[R_CARDS], R[R_ROCK_TYPES]
    rock, mohs, fossil = R[R_ROCK], R[R_MOHS], R[R_FOSSIL]
    acting = to_act(s, R)
    p = max(acting, 0)
    out[G_ERA] = s[sc + S_ERA] / R[R_ERAS]
    out[G_TURN] = min(s[sc + S_TURN] / TURN_SCALE, 1.0)
    phase = 0
    if s[sc + S_OVER]:
        phase = PHASE_OVER
    elif s[sc + S_AGENDA_N]:
        phase = _PHASE_OF_KIND[s[a]]
    if phase >= 0:
        out[G_PHASE + phase] = 1.0
    if s[sc + S_AGENDA_N]:
        out[G_NUMBER] = min(s[a + 2] / HAND_SIZE, 1.0)
        if s[a + 3] >= 0 and s[a] != K_TRIGGER:  # a trigger step holds its age there
            out[G_ROCK + R[rock + s[a + 3]]] = 1.0
    for d in range(3):
        out[off[X_EMPTY] + d] = 1.0 if size(s, R, d) == 0 else 0.0
        out[off[X_LIMIT] + d] = min(draw_limit(s, R, d) / scales[Z_LIMIT + d], 1.0)
    out[off[X_PASSES]] = min(s[sc + S_PASSES] / n, 1.0)
    runout = s[sc + S_RUNOUT_ON]
    out[off[X_RUNOUT]] = runout
    purpose = s[sc + S_TIE_PURPOSE]
    if purpose:
        out[off[X_TIE] + purpose - 1] = 1.0
    fields = len(SEAT_FIELDS)
    slot = types + 3
    for k in range(n):
        q = (p + k) % n
        at = off[X_SEATS] + k * fields
        out[at] = 1.0 if s[sc + S_CURRENT] == q else 0.0
        out[at + 1] = 1.0 if acting == q else 0.0
        m = base(R, mountain(R, q))
        rocks, weathered = s[m], s[R[R_WEATHERED] + q]
        out[at + 2] = min(rocks / ROCK_SCALE, 1.0)
        out[at + 3] = min(weathered / ROCK_SCALE, 1.0)
        h = base(R, hand(R, q))
        for i in range(s[h]):
            out[at + F_HAND + R[R[R_DECK] + s[h + 1 + i]]] += 1.0
        for d in range(3):
            out[at + F_HAND + d] = min(out[at + F_HAND + d] / HAND_SCALE, 1.0)
        out[at + F_DELTA] = min(size(s, R, delta(R, q)) / ROCK_SCALE, 1.0)
        out[at + F_DELTA + 1] = size(s, R, discards(R, q)) / cards
        out[at + F_DELTA + 2] = min(s[R[R_SCORES] + q] / POINTS_SCALE, 1.0)
        out[at + F_DELTA + 3] = min(_shown_points(s, R, q) / POINTS_SCALE, 1.0)
        if runout:
            out[at + F_DELTA + 4] = min(s[R[R_RUNOUT] + q] / 2.0, 1.0)
        for i in range(s[sc + S_TIE_N]):
            if s[R[R_TIE_SEATS] + i] == q:
                out[at + F_TIED] = 1.0
                card = s[R[R_TIE_CARDS] + i]
                if card >= 0:
                    out[at + F_TIED + 1] = min(R[mohs + card] / MOHS_SCALE, 1.0)
                out[at + F_TIED + 2] = min(s[R[R_TIE_GUESSES] + i] / MOHS_SCALE, 1.0)
        for i in range(min(rocks, TOP)):
            card = s[m + 1 + i]
            where = off[X_MOUNTAINS] + (k * TOP + i) * slot
            out[where + R[rock + card]] = 1.0
            out[where + types] = min(R[mohs + card] / MOHS_SCALE, 1.0)
            out[where + types + 1] = R[fossil + card]
            out[where + types + 2] = 1.0 if i < weathered else 0.0
    h = base(R, hand(R, p))
    for i in range(s[h]):
        out[off[X_HAND] + s[h + 1 + i]] = 1.0
    for q in range(n):
        d = base(R, discards(R, q))
        for i in range(s[d]):
            out[off[X_DISCARDED] + s[d + 1 + i]] = 1.0
    r = base(R, river(R))
    for i in range(s[r]):
        out[off[X_RIVER] + R[rock + s[r + 1 + i]]] += 1.0
    for t in range(types):
        out[off[X_RIVER] + t] /= scales[Z_RIVER + t]
    if R[R_ADVANCED]:
        _observe_advanced(s, R, off, scales, p, out)
    if R[R_LEGEND] != LEGEND_OFF:
        _observe_legends(s, R, off, scales, p, out)
    if off[X_BELOW_ROCKS] > off[X_BELOW_SEATS]:  # typed_weathering=pass-over's slots
        _observe_below(s, R, off, p, out)
    return acting


@compiled
def _observe_advanced(
    s: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, p: int, out: np.ndarray
) -> None:
    """The Advanced Rules' slots: trigger and fault steps, the seat's own draw limits, the
    Atmospheres, each shown rock's architecture and the cards whose architecture fired."""
    sc, a, n = R[R_SCALARS], R[R_AGENDA], R[R_PLAYERS]
    if s[sc + S_AGENDA_N] and not s[sc + S_OVER]:
        if s[a] == K_TRIGGER:
            out[off[X_STEPS]] = 1.0
            out[off[X_STEPS] + len(ADVANCED_PHASES) + s[a + 3]] = 1.0
        elif s[a] == K_FAULT:
            out[off[X_STEPS] + 1] = 1.0
    for d in range(3):
        limit = draw_limit(s, R, d) + in_force(s, R, p, E_DRAW_LIMIT_BONUS, d)
        out[off[X_OWN_LIMIT] + d] = min(limit / scales[Z_OWN_LIMIT + d], 1.0)
    for i in range(R[R_ATMS]):
        out[off[X_ATMOSPHERES] + 2 * i] = s[R[R_AGED] + i]
        out[off[X_ATMOSPHERES] + 2 * i + 1] = 1.0 if triggered(s, R, i) else 0.0
    slot = len(ARCHITECTURE) + 1
    for k in range(n):
        q = (p + k) % n
        m = base(R, mountain(R, q))
        weathered = s[R[R_WEATHERED] + q]
        for i in range(min(s[m], TOP)):
            card = s[m + 1 + i]
            kind = R[R[R_EFFECT] + card]
            if kind == 0:
                continue
            where = off[X_ARCHITECTURE] + (k * TOP + i) * slot
            out[where + kind - 1] = 1.0
            on = 1.0
            if kind in (E_UPLIFT_TRIGGER, E_UPLIFT_HILLSLOPE):
                if R[R_ONCE] and holds(s, R, fired(R), card):
                    on = 0.0
            elif i < weathered or s[R[R_BELOW] + card] == 1:
                on = 0.0
            out[where + slot - 1] = on
    if R[R_ONCE]:
        f = base(R, fired(R))
        for i in range(s[f]):
            card = s[f + 1 + i]
            j = 0
            for c in range(card):
                kind = R[R[R_EFFECT] + c]
                if kind in (E_UPLIFT_TRIGGER, E_UPLIFT_HILLSLOPE):
                    j += 1
            out[off[X_FIRED] + j] = 1.0


@compiled
def _observe_legends(
    s: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, p: int, out: np.ndarray
) -> None:
    """The Legend variant's slots: each legend's owner, the challenge cards the seat
    knows (its own; the others' once shown), their bonuses if met, each seat's legends."""
    n = R[R_PLAYERS]
    shown = s[R[R_SCALARS] + S_SHOWN]
    out[off[X_SHOWN]] = shown
    challenges = (off[X_CHALLENGES + 1] - off[X_CHALLENGES]) // n - 2
    for j in range(R[R_LEGENDS_N]):
        owner = s[R[R_LEGENDS] + j]
        at = off[X_LEGENDS] + j * (1 + n)
        if owner < 0:
            out[at] = 1.0
        else:
            out[at + 1 + (owner - p) % n] = 1.0
    for k in range(n):
        q = (p + k) % n
        at = off[X_CHALLENGES] + k * (challenges + 2)
        if k == 0 or shown:
            card = s[R[R_CHALLENGES] + q]
            out[at + card] = 1.0
            if challenge_met(s, R, q):
                out[at + challenges] = R[R[R_CHALLENGE_POINTS] + card] / scales[Z_CHALLENGE]
        total = 0
        for j in range(R[R_LEGENDS_N]):
            if s[R[R_LEGENDS] + j] == q:
                total += R[R[R_LEGEND_POINTS] + j]
        out[at + challenges + 1] = total / scales[Z_LEGENDS]


@compiled
def _observe_below(s: np.ndarray, R: np.ndarray, off: np.ndarray, p: int, out: np.ndarray) -> None:
    """``typed_weathering=pass-over``'s slots: weathered rocks below an unweathered one."""
    n = R[R_PLAYERS]
    for k in range(n):
        m = base(R, mountain(R, (p + k) % n))
        count = 0
        for i in range(s[m]):
            if s[R[R_BELOW] + s[m + 1 + i]] == 1:
                count += 1
                if i < TOP:
                    out[off[X_BELOW_ROCKS] + k * TOP + i] = 1.0
        out[off[X_BELOW_SEATS] + k] = min(count / ROCK_SCALE, 1.0)


# -- the names, and the same numbers from a view --------------------------------------------
def observation_slots(game: ErosionGame) -> list[str]:
    """The name of every slot of a seat's observation, in order."""
    cat = game.catalog
    rocks = sorted(set(cat.rock))
    ids = cat.ids[: cat.num_process]
    slots = ["era", "turn", *(f"phase.{p}" for p in PHASES), "step.number"]
    slots += [f"step.rock.{t}" for t in rocks]
    slots += [f"deck.{d}.empty" for d in PROCESS_DECKS]
    slots += [f"deck.{d}.limit" for d in PROCESS_DECKS]
    slots += ["passes", "runout", "tie.start", "tie.win"]
    seats = range(game.num_players)
    for k in seats:
        for field in SEAT_FIELDS:
            head, dot, rest = field.partition(".")
            slots.append(f"{head}[+{k}]{dot}{rest}")
    for k in seats:
        for i in range(TOP):
            at = f"mountain[+{k}][{i}]"
            slots += [f"{at}.{t}" for t in rocks] + [
                f"{at}.mohs",
                f"{at}.fossil",
                f"{at}.weathered",
            ]
    slots += [f"hand.{c}" for c in ids] + [f"discarded.{c}" for c in ids]
    slots += [f"river.{t}" for t in rocks]
    if game.options.advanced:
        slots += [f"phase.{p}" for p in ADVANCED_PHASES]
        slots += [f"step.age.{age}" for age in AGE_NAMES]
        slots += [f"draw_limit.{d}" for d in PROCESS_DECKS]
        for atm in cat.atmospheres:
            slots += [f"atmosphere.{atm.id}.aged", f"atmosphere.{atm.id}.triggered"]
        for k in seats:
            for i in range(TOP):
                at = f"mountain[+{k}][{i}].arch"
                slots += [f"{at}.{kind}" for kind in ARCHITECTURE] + [f"{at}.on"]
        if game.options.uplift_architecture == "once":
            slots += [f"fired.{ids[c]}" for c in _upon_uplift(game)]
    if game.options.legend != "off":
        slots.append("challenges.shown")
        for card in game.legend_cards:
            slots += [f"legend.{card.id}.open"]
            slots += [f"legend.{card.id}.owner[+{k}]" for k in seats]
        for k in seats:
            slots += [f"challenge[+{k}].{card.id}" for card in game.challenge_cards]
            slots += [f"challenge[+{k}].points", f"legends[+{k}]"]
    if game.options.typed_weathering == "pass-over":
        slots += [f"below[+{k}]" for k in seats]
        slots += [f"mountain[+{k}][{i}].below" for k in seats for i in range(TOP)]
    return slots


def observation_of_view(game: ErosionGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`~.batch.ErosionBatch` for ``seat``, computed from that
    seat's view of the readable rules (``state.view(seat)``): the same numbers, by another
    road."""
    cat = game.catalog
    n, cards = game.num_players, cat.num_process
    rocks = sorted(set(cat.rock))
    types = len(rocks)
    kind = {c: rocks.index(cat.rock[c]) for c in range(cards)}
    index = cat.index
    off = offsets(game)
    z = scales_of(game)
    out = np.zeros(int(off[X_SIZE]), dtype=np.float32)

    def put(at: int | np.integer, value: float) -> None:
        out[int(at)] = value

    put(G_ERA, view["era"] / view["eras"])
    put(G_TURN, min(view["turn"] / TURN_SCALE, 1.0))
    if view["phase"] in PHASES:
        put(G_PHASE + PHASES.index(view["phase"]), 1.0)
    step = view["step"]
    if step is not None:
        put(G_NUMBER, min(step["number"] / HAND_SIZE, 1.0))
        if step["card"] is not None:
            put(G_ROCK + kind[index[step["card"]]], 1.0)
    for d, name in enumerate(PROCESS_DECKS):
        put(off[X_EMPTY] + d, float(view["decks"][name]["empty"]))
        put(off[X_LIMIT] + d, min(view["decks"][name]["draw_limit"] / z[Z_LIMIT + d], 1.0))
    put(off[X_PASSES], min(view["passes_in_row"] / n, 1.0))
    runout = view["runout_passes"]
    put(off[X_RUNOUT], float(runout is not None))
    tie = view["tiebreak"]
    if tie is not None:
        put(off[X_TIE] + ("start", "win").index(tie["purpose"]), 1.0)
    result = view["result"]
    fields = len(SEAT_FIELDS)
    for k in range(n):
        q = (seat + k) % n
        at = int(off[X_SEATS]) + k * fields
        put(at, float(view["current"] == q))
        put(at + 1, float(q in view["to_act"]))
        mountain_view = view["mountains"][q]
        weathered = mountain_view["weathered"]
        put(at + 2, min(len(mountain_view["rocks"]) / ROCK_SCALE, 1.0))
        put(at + 3, min(weathered / ROCK_SCALE, 1.0))
        for d, name in enumerate(PROCESS_DECKS):
            put(at + F_HAND + d, min(view["hands"][q]["by_deck"][name] / HAND_SCALE, 1.0))
        put(at + F_DELTA, min(view["deltas"][q]["count"] / ROCK_SCALE, 1.0))
        put(at + F_DELTA + 1, len(view["discards"][q]) / cards)
        put(at + F_DELTA + 2, min(result["scores"][q] / POINTS_SCALE, 1.0))
        put(at + F_DELTA + 3, min(result["points_now"][q] / POINTS_SCALE, 1.0))
        if runout is not None:
            put(at + F_DELTA + 4, min(runout[q] / 2.0, 1.0))
        if tie is not None and q in tie["seats"]:
            i = tie["seats"].index(q)
            put(at + F_TIED, 1.0)
            if tie["cards"][i] is not None:
                put(at + F_TIED + 1, min(cat.mohs[index[tie["cards"][i]]] / MOHS_SCALE, 1.0))
            put(at + F_TIED + 2, min((tie["guesses"][i] or 0) / MOHS_SCALE, 1.0))
        for i, name in enumerate(mountain_view["rocks"][:TOP]):
            card = index[name]
            where = int(off[X_MOUNTAINS]) + (k * TOP + i) * (types + 3)
            put(where + kind[card], 1.0)
            put(where + types, min(cat.mohs[card] / MOHS_SCALE, 1.0))
            put(where + types + 1, float(cat.fossil[card]))
            put(where + types + 2, float(i < weathered))
    for name in view["hands"][seat]["cards"]:
        put(off[X_HAND] + index[name], 1.0)
    for pile in view["discards"]:
        for name in pile:
            put(off[X_DISCARDED] + index[name], 1.0)
    counts = [0] * types
    for name in view["river"]:
        counts[kind[index[name]]] += 1
    for t in range(types):
        put(off[X_RIVER] + t, counts[t] / z[Z_RIVER + t])
    _options_of_view(game, view, seat, off, z, out)
    return out


def _options_of_view(
    game: ErosionGame,
    view: dict[str, Any],
    seat: int,
    off: np.ndarray,
    z: np.ndarray,
    out: np.ndarray,
) -> None:
    """The slots of the options of :func:`observation_of_view`: the Advanced Rules', the
    Legend variant's and ``typed_weathering=pass-over``'s."""
    cat, n = game.catalog, game.num_players
    if game.options.advanced:
        if view["phase"] in ADVANCED_PHASES:
            out[off[X_STEPS] + ADVANCED_PHASES.index(view["phase"])] = 1.0
        step = view["step"]
        if step is not None and step["age"] is not None:
            out[off[X_STEPS] + len(ADVANCED_PHASES) + AGE_NAMES.index(step["age"])] = 1.0
        for d, name in enumerate(PROCESS_DECKS):
            limit = view["draw_limits"][name] / z[Z_OWN_LIMIT + d]
            out[off[X_OWN_LIMIT] + d] = min(limit, 1.0)
        for i, atm in enumerate(view["atmosphere"]):
            out[off[X_ATMOSPHERES] + 2 * i] = float(atm["showing"] == "age")
            out[off[X_ATMOSPHERES] + 2 * i + 1] = float(atm["triggered"])
        fired_cards = set(view.get("fired", ()))
        slot = len(ARCHITECTURE) + 1
        for k in range(n):
            mountain_view = view["mountains"][(seat + k) % n]
            below = set(mountain_view.get("weathered_below", ()))
            for i, name in enumerate(mountain_view["rocks"][:TOP]):
                effect = cat.effect_kind[cat.index[name]]
                if not effect:
                    continue
                where = off[X_ARCHITECTURE] + (k * TOP + i) * slot
                out[where + ARCHITECTURE.index(effect)] = 1.0
                if effect in UPON_UPLIFT:
                    on = name not in fired_cards
                else:
                    on = i >= mountain_view["weathered"] and name not in below
                out[where + slot - 1] = float(on)
        if game.options.uplift_architecture == "once":
            upon = [cat.ids[c] for c in _upon_uplift(game)]
            for name in fired_cards:
                out[off[X_FIRED] + upon.index(name)] = 1.0
    if game.options.legend != "off":
        ids = [card.id for card in game.challenge_cards]
        known = view["challenges"]
        out[off[X_SHOWN]] = float(all(c is not None for c in known))
        for j, legend in enumerate(view["legends"]):
            at = off[X_LEGENDS] + j * (1 + n)
            owner = legend["owner"]
            out[at if owner is None else at + 1 + (owner - seat) % n] = 1.0
        for k in range(n):
            q = (seat + k) % n
            at = off[X_CHALLENGES] + k * (len(ids) + 2)
            if known[q] is not None:
                c = ids.index(known[q])
                out[at + c] = 1.0
                if _challenge_met_in_view(game, c, view, q):
                    out[at + len(ids)] = game.challenge_cards[c].points / z[Z_CHALLENGE]
            legends = zip(game.legend_cards, view["legends"], strict=True)
            total = sum(card.points for card, o in legends if o["owner"] == q)
            out[at + len(ids) + 1] = total / z[Z_LEGENDS]
    if game.options.typed_weathering == "pass-over":
        for k in range(n):
            mountain_view = view["mountains"][(seat + k) % n]
            below = set(mountain_view["weathered_below"])
            out[off[X_BELOW_SEATS] + k] = min(len(below) / ROCK_SCALE, 1.0)
            for i, name in enumerate(mountain_view["rocks"][:TOP]):
                out[off[X_BELOW_ROCKS] + k * TOP + i] = float(name in below)


def _challenge_met_in_view(game: ErosionGame, card: int, view: dict[str, Any], q: int) -> bool:
    """Whether seat ``q`` meets challenge ``card`` by what the view shows (its mountain, its
    delta's size)."""
    cat = game.catalog
    cond = game.challenge_cards[card].condition
    mountain_view = view["mountains"][q]
    rocks = [cat.index[name] for name in mountain_view["rocks"]]
    below = [cat.index[name] for name in mountain_view.get("weathered_below", ())]
    weathered = rocks[: mountain_view["weathered"]] + below
    wanted = getattr(cond, "rocks", 0)
    found = {
        "height_at_least": len(rocks) * ROCK_METRES >= getattr(cond, "metres", 0),
        "delta_at_least": view["deltas"][q]["count"] >= wanted,
        "weathered_fossils_at_least": sum(cat.fossil[r] for r in weathered) >= wanted,
        "class_in_mountain_at_least": sum(
            ROCK_CLASS[cat.rock[r]] == getattr(cond, "rock_class", "") for r in rocks
        )
        >= wanted,
        "unweathered_at_least": len(rocks) - len(weathered) >= wanted,
        "capstone_unweathered": bool(rocks) and not weathered,
    }
    return found[cond.kind]
