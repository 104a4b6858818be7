"""Erosion compiled: the same rules as ``../rules.py``, on one small integer array, for search.

:mod:`meeple.games.erosion.rules` (with its :mod:`~meeple.games.erosion.transitions`,
:mod:`~meeple.games.erosion.legal` and :mod:`~meeple.games.erosion.eras`) is the reference;
this module is a second writing of the same rules that numba compiles
(:mod:`.transitions` beside it, with the Advanced Rules in :mod:`.architecture` and the
Legend variant in :mod:`.legends`), so that a search can play thousands of random games a
second. A differential test plays thousands of random games through both and compares every
state, every list of legal actions and every outcome
(``tests/games/erosion/test_fast.py``).

What it serves: 2 to 5 players, the basic rules and the Advanced Rules (``advanced``:
Montane Architecture and the Atmospheric Triggers, under either ``uplift_architecture``
reading), the Montane Legend Variant (``legend``: basic or advanced claims, in
:mod:`.legends`), either ``typed_weathering`` reading (``pass-over``'s weathered rocks below
an unweathered one flagged in the position), either ``empty_hand`` and either ``draw_from``
reading, any ``first``, either ``auto_steps``, and any ``cards`` file (the card and
architecture tables are built from the game's own catalogue, so a designer's cards play the
same here as in the engine): every option. :func:`served` (which :func:`layout` asks)
refuses, in one line, an option these rules are not written for (not in ``_ANY_VALUE``),
and one listed in :data:`SERVED` at another value (none is).

The state is the TRUE state (every hand, delta and deck order known): search calls it on a
determinized state. The decks are already shuffled in the state, as in the reference, so
the only chance still to come is the era's end: the tie-breaker's draws from the tied
seats' hands, and, with 4 or 5 players, the next era's start player (when still tied) and
its shuffled decks. The compiled rules stop at each such point (the position's
``S_CHANCE`` is set); :func:`follow_reference_chance` resolves it with the reference's own
draws (the seed's, through :meth:`ErosionState.tiebreak_draws`,
:meth:`~ErosionState.start_among` and :meth:`~ErosionState.era_decks`),
:func:`.transitions.random_chance` with numba's seeded generator (what :func:`playouts`
does).

A position is one ``int16`` array; its layout is in :mod:`.state`. Actions are the
rules engine's ids (:meth:`ErosionGame.action_id`) and legal actions come in the engine's
order, so a uniformly random index into them picks the same action in both.

numba compiles the kernels on their first call and caches them on disk
(:func:`meeple.core.kernels.kernel`, in ``__pycache__``): the first :func:`playouts` in a
fresh checkout compiled for 34 s of CPU on the project's 2-core machine (Edges' rules: 4 s),
and a later process loaded the cache in 0.3 s of CPU.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from meeple.core.errors import OptionError
from meeple.core.kernels import encoder
from meeple.core.options import unserved_refusal
from meeple.core.words import listed
from meeple.games.erosion.cards import PROCESS_DECKS, ROCK_CLASS
from meeple.games.erosion.compiled import state as fs
from meeple.games.erosion.compiled import transitions as fr
from meeple.games.erosion.pieces import (
    HAND_SIZE,
    HIGH_METRES,
    ROCK_METRES,
    STARTING_MIX,
    WX,
    Choose,
    Draw,
    ErosionAction,
    F,
    Fault,
    Fluvial,
    Guess,
    H,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Step,
    StepKind,
    Tie,
    Transport,
    Trigger,
    Uplift,
    Weather,
)
from meeple.games.erosion.rules import ErosionGame, ErosionState
from meeple.games.erosion.transitions import ALL_PASSED, second_pass

__all__ = [
    "decode",
    "encode",
    "follow_reference_chance",
    "layout",
    "playout",
    "playouts",
]

_KINDS = ("weather_n", "weather_types", "hillslope_n", "transport_n")
_CLASSES = ("sedimentary", "igneous", "metamorphic")
_LEGEND = {"off": fs.LEGEND_OFF, "basic": fs.LEGEND_BASIC, "advanced": fs.LEGEND_ADVANCED}
_ICONS = (None, "hill", "mountain")
_STEPS = fs.STEP_NAMES
_ACTION_KIND = {
    Pass: fs.A_PASS,
    Weather: fs.A_WEATHER,
    Hillslope: fs.A_HILLSLOPE,
    Fluvial: fs.A_FLUVIAL,
    Draw: fs.A_DRAW,
    Redraw: fs.A_REDRAW,
    Uplift: fs.A_UPLIFT,
    Transport: fs.A_TRANSPORT,
    Pay: fs.A_PAY,
    Trigger: fs.A_TRIGGER,
    Fault: fs.A_FAULT,
    Guess: fs.A_GUESS,
    Choose: fs.A_CHOOSE,
}

_ANY_VALUE = (
    "players",
    "advanced",
    "uplift_architecture",
    "legend",
    "typed_weathering",
    "first",
    "empty_hand",
    "draw_from",
    "auto_steps",
    "cards",
)
"""The options that a compiled reading may serve at every value, in the order a refusal
names them."""

_cache: dict[str, np.ndarray] = {}
"""Each served options' table, by the options as JSON and the card list's stamp (a
designer's card file edited in place is a new catalogue)."""


SERVED: tuple[tuple[str, object], ...] = ()
"""The options the compiled rules serve at one value only: none now (each option at every
value); :func:`served` refuses what is listed here."""


def served(game: ErosionGame) -> None:
    """Raise :class:`OptionError` (one line) if the compiled rules do not serve ``game``'s
    options: one they are not written for, or one of :data:`SERVED` at another value."""
    written_for = {*_ANY_VALUE, *(name for name, _ in SERVED)}
    refusal = unserved_refusal(game.options, written_for, "compiled Erosion rules")
    if refusal is not None:
        raise OptionError(refusal)
    refuse_unserved(game, "compiled Erosion rules", SERVED)


def refuse_unserved(game: ErosionGame, what: str, only: tuple[tuple[str, object], ...]) -> None:
    """Raise :class:`OptionError` (one line) naming the first option of ``game`` that is
    not at the one value ``only`` allows it, and what ``what`` serves."""
    options = game.options
    for name, allowed in only:
        value = getattr(options, name)
        if value != allowed:
            # as an option is typed: advanced=false, legend=off
            kept = ", ".join(f"{n}={str(a).lower() if a in (True, False) else a}" for n, a in only)
            others = [n for n in _ANY_VALUE if n not in dict(only)]
            raise OptionError(
                f"the {what} do not serve {name}={value!r} (they serve {kept}, and any "
                f"{listed(others)})"
            )


def layout(game: ErosionGame) -> np.ndarray:
    """The ``int32`` table the compiled rules read for ``game``: options, where each part of a
    position lies, the card catalogue and the action ids (see :mod:`.transitions`). Built
    once per game object. Refuses options it does not serve (:func:`served`)."""
    key = f"{game.options.model_dump_json()} {game.catalog.stamp}"
    found = _cache.get(key)
    if found is not None:
        return found
    served(game)
    cat = game.catalog
    n, cards, atms = game.num_players, cat.num_process, len(cat.atmospheres)
    rocks = sorted(set(cat.rock))
    head = np.zeros(fs.R_HEADER, dtype=np.int64)
    head[fs.R_PLAYERS], head[fs.R_ERAS], head[fs.R_CARDS], head[fs.R_ATMS] = (
        n,
        game.eras,
        cards,
        atms,
    )
    head[fs.R_BEFORE_UPLIFT] = game.options.empty_hand == "before-uplift"
    head[fs.R_DRAW_ONE] = game.options.draw_from == "one"
    head[fs.R_HIGH] = HIGH_METRES // ROCK_METRES
    head[fs.R_HAND] = HAND_SIZE
    head[fs.R_MIX : fs.R_MIX + 3] = STARTING_MIX
    head[fs.R_ROCK_TYPES] = len(rocks)
    advanced = game.options.advanced
    head[fs.R_ADVANCED] = advanced
    head[fs.R_ONCE] = advanced and game.options.uplift_architecture == "once"
    head[fs.R_LEGEND] = _LEGEND[game.options.legend]
    head[fs.R_LEGENDS_N] = len(game.legend_cards)
    head[fs.R_MANUAL] = not game.options.auto_steps
    head[fs.R_PASS_OVER] = game.options.typed_weathering == "pass-over"
    effects = _effect_tables(game, rocks)
    # The agenda holds a turn's steps and the most an uplifted card's architecture adds
    # before them (three more than the steps it adds: the uplift, refill and end).
    upon_uplift = (fs.E_UPLIFT_TRIGGER, fs.E_UPLIFT_HILLSLOPE)
    added = max(
        b if kind in upon_uplift else 0 for kind, b in zip(effects[0], effects[2], strict=True)
    )
    slots = max(fs.AGENDA_SLOTS, 3 + added) if advanced else fs.AGENDA_SLOTS
    # The position's fields, after the piles (decks, hands, mountains, deltas, discards,
    # River, fired), each pile a count then ``cards`` slots.
    at = (4 * n + 5) * (cards + 1)
    for where, size in (
        (fs.R_SCALARS, fs.SCALARS),
        (fs.R_WEATHERED, n),
        (fs.R_RUNOUT, n),
        (fs.R_SCORES, n),
        (fs.R_TIE_SEATS, n),
        (fs.R_TIE_CARDS, n),
        (fs.R_TIE_GUESSES, n),
        (fs.R_WINNERS, n),
        (fs.R_CHANCE_SEATS, n),
        (fs.R_AGED, atms),
        (fs.R_ERA_SCORES, game.eras * n),
        (fs.R_TRIGGERED, atms),
        (fs.R_LEGENDS, len(game.legend_cards)),
        (fs.R_CHALLENGES, n),
        (fs.R_BELOW, cards),
        (fs.R_AGENDA, slots * 4),
    ):
        head[where] = at
        at += size
    head[fs.R_SIZE] = at
    head[fs.R_NUM_ACTIONS] = game.num_actions
    tables = [
        cat.deck,
        [rocks.index(r) for r in cat.rock[:cards]],
        cat.mohs,
        [int(f) for f in cat.fossil],
        [_KINDS.index(k) for k in cat.kind],
        cat.n,
        cat.max_hardness,
        [sum(1 << rocks.index(t) for t in cat.types[c]) for c in range(cards)],
        [_ICONS.index(i) for i in cat.icon],
        cat.under,
        cat.normal_limit,
        cat.age_limit,
        *effects,
        [fs.AGE_NAMES.index(a.age) for a in cat.atmospheres],
        *_legend_tables(game, rocks),
    ]
    parts = np.array(
        [(_ACTION_KIND[type(a)], *_action_fields(game, a)) for a in game._actions], dtype=np.int64
    )
    width = max(cards, 11, n)  # a card, a guess (1 to 10) or a seat
    # counts: up to 6 cards drawn, or a card's rocks with an architecture's bonus
    depth = max(7, int(parts[:, 2:].max()) + 1)
    head[fs.R_TABLE_X], head[fs.R_TABLE_Y] = width, depth
    table = np.full((fs.A_KINDS, width, depth, depth), -1, dtype=np.int64)
    for i, part in enumerate(parts):
        table[tuple(part)] = i
    body = [head]
    at = fs.R_HEADER
    for where, values in zip(fs.R_TABLES, tables, strict=True):
        head[where] = at
        body.append(np.asarray(values, dtype=np.int64))
        at += len(values)
    head[fs.R_PARTS] = at
    body.append(parts.reshape(-1))
    at += parts.size
    head[fs.R_TABLE] = at
    body.append(table.reshape(-1))
    rules = np.concatenate(body).astype(np.int32)
    _cache[key] = rules
    return rules


def _effect_tables(game: ErosionGame, rocks: list[str]) -> list[list[int]]:
    """Each card's architecture as the compiled rules read it (:mod:`.architecture`): its
    kind, its first and second numbers, and its process's name as a number; each card's
    rock class; then the ages that 'upon uplift' triggers list, one after the other."""
    cat = game.catalog
    names = sorted(set(cat.process_name))
    kinds: list[int] = []
    first: list[int] = []
    second: list[int] = []
    ages: list[int] = []
    for effect in cat.effect:
        kind = effect.kind if effect is not None else ""
        a, b = 0, 1
        if kind == "uplift_trigger":
            a, b = len(ages), len(effect.ages)
            ages += [fs.AGE_NAMES.index(age) for age in effect.ages]
        elif kind in ("uplift_hillslope", "weather_bonus"):
            b = effect.rocks
        elif kind == "transport_bonus_if_high":
            a = effect.rocks  # the extra rocks select: each Glacier allows its own count
        elif kind == "score_bonus":
            b = effect.points
        elif kind == "draw_limit_bonus":
            a, b = PROCESS_DECKS.index(effect.deck), effect.cards
        elif kind == "resists_icon":
            a = _ICONS.index(effect.icon)
        elif kind == "resists_except":
            a = names.index(effect.process)
        kinds.append(fs.EFFECT_NAMES.index(kind))
        first.append(a)
        second.append(b)
    return [
        kinds,
        first,
        second,
        [names.index(name) for name in cat.process_name],
        [_CLASSES.index(ROCK_CLASS[rock]) for rock in cat.rock],
        ages,
    ]


def _legend_tables(game: ErosionGame, rocks: list[str]) -> list[list[int]]:
    """The legend cards' heights (in rocks), rock types (-1: a type no card has) and points;
    the challenge cards' kinds, numbers (rocks), rock classes and points."""

    def rock(name: str) -> int:
        return rocks.index(name) if name in rocks else -1

    legends = game.legend_cards
    challenges = [card.condition for card in game.challenge_cards]
    return [
        [card.condition.min_height_m // ROCK_METRES for card in legends],
        [rock(card.condition.rocks[0]) for card in legends],
        [rock(card.condition.rocks[1]) for card in legends],
        [card.points for card in legends],
        [fs.CHALLENGE_NAMES.index(c.kind) for c in challenges],
        [_challenge_number(c) for c in challenges],
        [_CLASSES.index(getattr(c, "rock_class", "sedimentary")) for c in challenges],
        [card.points for card in game.challenge_cards],
    ]


def _challenge_number(condition: object) -> int:
    """A challenge's number in rocks (its height in rocks of 500 m; 0: none)."""
    metres = getattr(condition, "metres", None)
    if metres is not None:
        return metres // ROCK_METRES
    return getattr(condition, "rocks", 0)


def _action_fields(game: ErosionGame, action: object) -> tuple[int, int, int]:
    """An action's three numbers in the compiled table: card or seat or counts."""
    cat = game.catalog
    if isinstance(action, (Weather, Hillslope)):
        return (cat.index[action.card], action.mountain, action.rocks)
    if isinstance(action, Fluvial):
        return (cat.index[action.card], action.rocks, 0)
    if isinstance(action, (Draw, Redraw)):
        return action.counts
    if isinstance(action, (Uplift, Transport, Pay)):
        return (cat.index[action.card], 0, 0)
    if isinstance(action, Trigger):
        return (cat.atm_index[action.card], 0, 0)
    if isinstance(action, Fault):
        return (action.mountain, 0, 0)
    if isinstance(action, Guess):
        return (action.hardness, 0, 0)
    if isinstance(action, Choose):
        return (action.seat, 0, 0)
    return (0, 0, 0)


def _piles(state: ErosionState) -> list[tuple[int, ...]]:
    """The state's card piles in the array's order."""
    return [
        *state.decks,
        *state.hands,
        *state.mountains,
        *state.deltas,
        *state.discards,
        state.river,
        state.fired,
    ]


def _reason_code(game: ErosionGame, reason: str) -> int:
    if not reason:
        return 0
    if reason == ALL_PASSED:
        return 1
    for p in range(game.num_players):
        if reason == second_pass(game.seat_name(p)):
            return 2 + p
    raise ValueError(f"unknown era-end reason {reason!r}")


def _reason_text(game: ErosionGame, code: int) -> str:
    if code == 0:
        return ""
    return ALL_PASSED if code == 1 else second_pass(game.seat_name(code - 2))


@encoder
def encode(state: ErosionState) -> np.ndarray:
    """The ``int16`` array of a rules-engine state (the seed is left out: the compiled rules
    draw later chance from numba's generator; :func:`decode` takes it back)."""
    game = state.game
    rules = layout(game)
    cards = int(rules[fs.R_CARDS])
    out = np.full(int(rules[fs.R_SIZE]), -1, dtype=np.int16)
    for k, pile in enumerate(_piles(state)):
        base = k * (cards + 1)
        out[base] = len(pile)
        out[base + 1 : base + 1 + len(pile)] = pile
    s = int(rules[fs.R_SCALARS])
    out[s : s + fs.SCALARS] = 0
    out[s + fs.S_ERA] = state.era
    out[s + fs.S_CURRENT] = state.current
    out[s + fs.S_PASSES] = state.passes_in_row
    out[s + fs.S_RUNOUT_ON] = state.runout_passes is not None
    out[s + fs.S_OVER] = state.over
    out[s + fs.S_TURN] = state.turn
    out[s + fs.S_REASON] = _reason_code(game, state.end_reason)
    out[s + fs.S_WINNERS_N] = len(state.winners)
    out[s + fs.S_ERAS_SCORED] = len(state.era_scores)
    out[s + fs.S_AGENDA_N] = len(state.agenda)
    out[s + fs.S_TRIGGERED_N] = len(state.triggered)
    out[s + fs.S_SHOWN] = state.challenges_shown
    n = game.num_players

    def put(key: int, values: tuple[int, ...] | list[int]) -> None:
        at = int(rules[key])
        out[at : at + len(values)] = values

    put(fs.R_WEATHERED, state.weathered)
    put(fs.R_RUNOUT, state.runout_passes or (0,) * n)
    put(fs.R_SCORES, state.scores)
    put(fs.R_AGED, [int(a) for a in state.aged])
    put(fs.R_WINNERS, state.winners)
    put(fs.R_ERA_SCORES, [v for era in state.era_scores for v in era])
    put(fs.R_TRIGGERED, state.triggered)
    put(fs.R_LEGENDS, state.legends)
    put(fs.R_CHALLENGES, state.challenges)
    below = [0] * cards
    for pile in state.weathered_below:
        for card in pile:
            below[card] = 1
    put(fs.R_BELOW, below)
    if state.tie is not None:
        out[s + fs.S_TIE_PURPOSE] = 1 if state.tie.purpose == "start" else 2
        out[s + fs.S_TIE_N] = len(state.tie.seats)
        put(fs.R_TIE_SEATS, state.tie.seats)
        put(fs.R_TIE_CARDS, state.tie.cards)
        put(fs.R_TIE_GUESSES, state.tie.guesses)
    put(
        fs.R_AGENDA,
        [v for st in state.agenda for v in (_STEPS.index(st.kind), st.seat, st.number, _card(st))],
    )
    return out


def _card(step: Step) -> int:
    """A step's last number in the array: its card, or a trigger's age (it has no card)."""
    return fs.AGE_NAMES.index(step.age) if step.kind == "trigger" else step.card


def _step(kind: str, seat: int, number: int, card: int) -> Step:
    """The step of an agenda entry (the inverse of :func:`_card`)."""
    step_kind = cast("StepKind", kind)  # a name of fs.STEP_NAMES other than its unused ""
    if step_kind == "trigger":
        return Step(step_kind, seat, number, -1, fs.AGE_NAMES[card])
    return Step(step_kind, seat, number, card)


def decode(game: ErosionGame, array: np.ndarray, seed: int) -> ErosionState:
    """The rules-engine state of an array (the inverse of :func:`encode`), with ``seed`` as
    the source of the era's later chance."""
    rules = layout(game)
    n, cards = game.num_players, int(rules[fs.R_CARDS])
    values = [int(v) for v in array.tolist()]

    def pile(k: int) -> tuple[int, ...]:
        base = k * (cards + 1)
        return tuple(values[base + 1 : base + 1 + values[base]])

    def field(key: int, size: int) -> tuple[int, ...]:
        at = int(rules[key])
        return tuple(values[at : at + size])

    s = int(rules[fs.R_SCALARS])
    sc = values[s : s + fs.SCALARS]
    tie = None
    if sc[fs.S_TIE_PURPOSE]:
        k = sc[fs.S_TIE_N]
        tie = Tie(
            "start" if sc[fs.S_TIE_PURPOSE] == 1 else "win",
            field(fs.R_TIE_SEATS, k),
            field(fs.R_TIE_CARDS, k),
            field(fs.R_TIE_GUESSES, k),
        )
    flat = field(fs.R_AGENDA, 4 * sc[fs.S_AGENDA_N])
    agenda = tuple(
        _step(_STEPS[flat[i]], flat[i + 1], flat[i + 2], flat[i + 3])
        for i in range(0, len(flat), 4)
    )
    scores_flat = field(fs.R_ERA_SCORES, n * sc[fs.S_ERAS_SCORED])
    mountains = tuple(pile(3 + n + p) for p in range(n))
    flags = field(fs.R_BELOW, cards)
    below = tuple(tuple(sorted(c for c in rocks if flags[c])) for rocks in mountains)
    return ErosionState(
        game=game,
        seed=seed,
        era=sc[fs.S_ERA],
        current=sc[fs.S_CURRENT],
        decks=(pile(WX), pile(H), pile(F)),
        hands=tuple(pile(3 + p) for p in range(n)),
        mountains=mountains,
        weathered=field(fs.R_WEATHERED, n),
        deltas=tuple(pile(3 + 2 * n + p) for p in range(n)),
        discards=tuple(pile(3 + 3 * n + p) for p in range(n)),
        river=pile(3 + 4 * n),
        aged=tuple(bool(a) for a in field(fs.R_AGED, len(game.catalog.atmospheres))),
        agenda=agenda,
        triggered=field(fs.R_TRIGGERED, sc[fs.S_TRIGGERED_N]),
        passes_in_row=sc[fs.S_PASSES],
        runout_passes=field(fs.R_RUNOUT, n) if sc[fs.S_RUNOUT_ON] else None,
        scores=field(fs.R_SCORES, n),
        era_scores=tuple(scores_flat[i : i + n] for i in range(0, len(scores_flat), n)),
        challenges=field(fs.R_CHALLENGES, n) if game.challenge_cards else (),
        challenges_shown=bool(sc[fs.S_SHOWN]),
        legends=field(fs.R_LEGENDS, len(game.legend_cards)),
        tie=tie,
        winners=field(fs.R_WINNERS, sc[fs.S_WINNERS_N]),
        over=bool(sc[fs.S_OVER]),
        turn=sc[fs.S_TURN],
        end_reason=_reason_text(game, sc[fs.S_REASON]),
        fired=pile(4 + 4 * n),
        weathered_below=below if any(below) else (),
    )


def follow_reference_chance(game: ErosionGame, array: np.ndarray, seed: int) -> None:
    """Resolve the chance the compiled rules stopped at (if any) with the reference's own
    draws from ``seed``, in place, until the next decision: the differential test's way of
    making both play the same game."""
    rules = layout(game)
    buffer = np.empty(int(rules[fs.R_NUM_ACTIONS]), dtype=np.int16)
    s = int(rules[fs.R_SCALARS])
    while array[s + fs.S_CHANCE]:
        state = decode(game, array, seed)
        at = int(rules[fs.R_CHANCE_SEATS])
        seats = tuple(int(v) for v in array[at : at + array[s + fs.S_CHANCE_N]])
        if array[s + fs.S_CHANCE] == fs.CHANCE_NEW_ERA:
            start = seats[0] if len(seats) == 1 else state.start_among(seats)
            decks = state.era_decks()
            sizes = np.array([len(d) for d in decks], dtype=np.int16)
            flat = np.array([c for d in decks for c in d], dtype=np.int16)
            fr.resolve_new_era(array, rules, start, sizes, flat, buffer)
        else:
            draws = np.array(state.tiebreak_draws(seats), dtype=np.int16)
            fr.resolve_tie_draws(array, rules, draws, buffer)


def playouts(state: ErosionState, games: int, seed: int = 0) -> tuple[float, ...]:
    """Each seat's return summed over ``games`` uniformly random games from ``state`` (the
    engine's :attr:`~ErosionState.returns`: +1 for a sole winner, 0 for a shared win, -1
    for the others). Seeded: the same arguments give the same sums. Chance still to come
    (tie-breaker draws, the next era's shuffle) is drawn with numba's generator, seeded."""
    rules = layout(state.game)
    totals = fr.random_games(encode(state), rules, games, seed)
    return tuple(float(t) for t in totals)


def playout(state: ErosionState, seed: int) -> tuple[float, ...]:
    """Each seat's returns after one uniformly random game from ``state`` (seeded), as
    :attr:`ErosionState.returns` gives them: a search's rollout on the compiled rules, in the
    form ``core.registry.register_playout`` takes. A search plays it from a determinized
    state (``observation.determinize``), never from the true state it cannot see. Raises
    :class:`OptionError` for options the compiled rules do not serve (:func:`served`)."""
    return playouts(state, 1, seed)


def values(state: ErosionState, seat: int, actions: list[ErosionAction], seed: int) -> list[float]:
    """``seat``'s return after each of its ``actions`` in ``state`` (a determinization where
    only ``seat`` acts), each then played out as :func:`playout` plays from the state after
    it with ``seed``, in one compiled call: flat search's candidates in a world, sparing the
    engine's step and an encoding per candidate (``core.registry.register_playout``). Chance
    the action itself meets (a new era's shuffle, the tie-breaker's draws) is drawn with
    numba's generator, as the rollout draws it, not from the state's seed."""
    game = state.game
    ids = np.array([game.action_id(a) for a in actions], dtype=np.int16)
    found = fr.candidate_games(encode(state), layout(game), seat, ids, seed)
    return [float(v) for v in found]
