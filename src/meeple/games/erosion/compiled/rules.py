"""Erosion compiled: the same rules as ``../rules.py``, on one small integer array, for search.

:mod:`meeple.games.erosion.rules` (with its :mod:`~meeple.games.erosion.transitions`,
:mod:`~meeple.games.erosion.legal` and :mod:`~meeple.games.erosion.eras`) is the reference;
this module is a second writing of the same rules that numba compiles
(:mod:`.transitions` beside it), so that a search can play thousands of random games a
second. A differential test plays thousands of random games through both and compares every
state, every list of legal actions and every outcome
(``tests/games/erosion/test_fast.py``).

What it serves: 2 to 5 players, the basic rules (``advanced=false``, ``legend=off``),
``typed_weathering=shield``, either ``empty_hand`` and either ``draw_from`` reading, any
``first``, ``auto_steps=true``, and any ``cards`` file (the card tables are built from the
game's own catalogue, so a designer's cards play the same here as in the engine).
:func:`layout` refuses any other option with one line.

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

import numpy as np

from meeple.core.errors import OptionError
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

_cache: dict[str, np.ndarray] = {}
"""Each served options' table, by the options as JSON and the card list's stamp (a
designer's card file edited in place is a new catalogue)."""


def served(game: ErosionGame) -> None:
    """Raise :class:`OptionError` (one line) if the compiled rules do not serve ``game``'s
    options."""
    o = game.options
    wrong = [
        (name, value, allowed)
        for name, value, allowed in (
            ("advanced", o.advanced, False),
            ("legend", o.legend, "off"),
            ("typed_weathering", o.typed_weathering, "shield"),
            ("auto_steps", o.auto_steps, True),
        )
        if value != allowed
    ]
    if wrong:
        name, value, _ = wrong[0]
        raise OptionError(
            f"the compiled Erosion rules do not serve {name}={value!r} (they serve "
            "advanced=false, legend=off, typed_weathering=shield, auto_steps=true, and any "
            "players, first, empty_hand, draw_from and cards)"
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
    # The position's fields, after the piles (decks, hands, mountains, deltas, discards,
    # River), each pile a count then ``cards`` slots.
    at = (4 * n + 4) * (cards + 1)
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
        (fs.R_AGENDA, fs.AGENDA_SLOTS * 4),
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
    ]
    parts = np.zeros((game.num_actions, 4), dtype=np.int64)
    width = max(cards, 11, n)  # a card, a guess (1 to 10) or a seat
    head[fs.R_TABLE_X] = width
    table = np.full((fs.A_KINDS, width, 7, 7), -1, dtype=np.int64)
    for i, action in enumerate(game._actions):
        part = (_ACTION_KIND[type(action)], *_action_fields(game, action))
        parts[i] = part
        table[part] = i
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


def encode(state: ErosionState) -> np.ndarray:
    """The ``int16`` array of a rules-engine state (the seed is left out: the compiled rules
    draw later chance from numba's generator; :func:`decode` takes it back)."""
    game = state.game
    rules = layout(game)
    if state.weathered_below or state.challenges or state.legends or state.triggered:
        raise OptionError("the compiled Erosion rules serve only the basic rules' states")
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
    if state.tie is not None:
        out[s + fs.S_TIE_PURPOSE] = 1 if state.tie.purpose == "start" else 2
        out[s + fs.S_TIE_N] = len(state.tie.seats)
        put(fs.R_TIE_SEATS, state.tie.seats)
        put(fs.R_TIE_CARDS, state.tie.cards)
        put(fs.R_TIE_GUESSES, state.tie.guesses)
    put(
        fs.R_AGENDA,
        [v for st in state.agenda for v in (_STEPS.index(st.kind), st.seat, st.number, st.card)],
    )
    return out


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
        Step(_STEPS[flat[i]], flat[i + 1], flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4)
    )
    scores_flat = field(fs.R_ERA_SCORES, n * sc[fs.S_ERAS_SCORED])
    return ErosionState(
        game=game,
        seed=seed,
        era=sc[fs.S_ERA],
        current=sc[fs.S_CURRENT],
        decks=(pile(WX), pile(H), pile(F)),
        hands=tuple(pile(3 + p) for p in range(n)),
        mountains=tuple(pile(3 + n + p) for p in range(n)),
        weathered=field(fs.R_WEATHERED, n),
        deltas=tuple(pile(3 + 2 * n + p) for p in range(n)),
        discards=tuple(pile(3 + 3 * n + p) for p in range(n)),
        river=pile(3 + 4 * n),
        aged=tuple(bool(a) for a in field(fs.R_AGED, len(game.catalog.atmospheres))),
        agenda=agenda,
        triggered=(),
        passes_in_row=sc[fs.S_PASSES],
        runout_passes=field(fs.R_RUNOUT, n) if sc[fs.S_RUNOUT_ON] else None,
        scores=field(fs.R_SCORES, n),
        era_scores=tuple(scores_flat[i : i + n] for i in range(0, len(scores_flat), n)),
        challenges=(),
        challenges_shown=False,
        legends=(),
        tie=tie,
        winners=field(fs.R_WINNERS, sc[fs.S_WINNERS_N]),
        over=bool(sc[fs.S_OVER]),
        turn=sc[fs.S_TURN],
        end_reason=_reason_text(game, sc[fs.S_REASON]),
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


def values(state: ErosionState, seat: int, actions: list[object], seed: int) -> list[float]:
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
