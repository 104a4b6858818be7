"""Erosion's rules compiled with numba: the kernels of :mod:`.rules` (read that first).

Each function here is the compiled twin of a method of the reference (named in its
docstring); they work in place on a position array ``s`` (``int16``, laid out as
:mod:`.state` says) and read the game's table ``R`` (``int32``, built by
:func:`.rules.layout`). The era's end is in :mod:`.eras`, the Advanced Rules in
:mod:`.architecture` and the Legend variant in :mod:`.legends`, beside this module.
"""

from __future__ import annotations

import numpy as np

from meeple.games.erosion.compiled.architecture import (
    clear_triggered,
    counts_as_high,
    fault_actions,
    in_force,
    trigger,
    trigger_actions,
    uplifted,
    weatherable_by,
)
from meeple.games.erosion.compiled.eras import (
    clear_chance,
    decided,
    end_era,
    new_era_decks,
    settle_tie,
)
from meeple.games.erosion.compiled.legends import claim_legends
from meeple.games.erosion.compiled.state import (
    A_CHOOSE,
    A_DRAW,
    A_FAULT,
    A_FLUVIAL,
    A_GUESS,
    A_HILLSLOPE,
    A_PASS,
    A_PAY,
    A_REDRAW,
    A_TRANSPORT,
    A_TRIGGER,
    A_UPLIFT,
    A_WEATHER,
    CHANCE_NEW_ERA,
    CHANCE_TIE_START,
    E_DRAW_LIMIT_BONUS,
    E_TRANSPORT_BONUS,
    E_WEATHER_BONUS,
    ICON_MOUNTAIN,
    ICON_NONE,
    K_CHOOSE,
    K_DRAW,
    K_END,
    K_FAULT,
    K_GUESS,
    K_PAY,
    K_REFILL,
    K_SETTLE_TIE,
    K_TRANSPORT,
    K_TRIGGER,
    K_UPLIFT,
    KIND_HILLSLOPE,
    KIND_WEATHER_N,
    KIND_WEATHER_TYPES,
    LEGEND_OFF,
    PURPOSE_START,
    PURPOSE_WIN,
    R_ADVANCED,
    R_AGE,
    R_AGED,
    R_AGENDA,
    R_ATMS,
    R_BEFORE_UPLIFT,
    R_BELOW,
    R_CARDS,
    R_CHANCE_SEATS,
    R_DRAW_ONE,
    R_HAND,
    R_HARD,
    R_HIGH,
    R_ICON,
    R_KIND,
    R_LEGEND,
    R_MANUAL,
    R_MIX,
    R_MOHS,
    R_N,
    R_NORMAL,
    R_NUM_ACTIONS,
    R_PARTS,
    R_PASS_OVER,
    R_PLAYERS,
    R_ROCK,
    R_ROCK_TYPES,
    R_RUNOUT,
    R_SCALARS,
    R_TABLE_Y,
    R_TIE_CARDS,
    R_TIE_GUESSES,
    R_TIE_SEATS,
    R_TYPES,
    R_UNDER,
    R_WEATHERED,
    R_WINNERS,
    S_AGENDA_N,
    S_CHANCE,
    S_CHANCE_N,
    S_CURRENT,
    S_ERA,
    S_OVER,
    S_PASSES,
    S_RUNOUT_ON,
    S_TIE_N,
    S_TIE_PURPOSE,
    S_TURN,
    S_WINNERS_N,
    action_id,
    agenda_clear,
    agenda_front,
    agenda_pop,
    agenda_push,
    agenda_push_front,
    base,
    clear,
    compiled,
    delta,
    discards,
    hand,
    insert,
    mountain,
    pop,
    push,
    remove,
    river,
    size,
)


# -- measurements ---------------------------------------------------------------------------
@compiled
def to_act(s: np.ndarray, R: np.ndarray) -> int:
    """The seat taking the current step; -1 once the game is over (``to_act``)."""
    sc = R[R_SCALARS]
    if s[sc + S_OVER]:
        return -1
    if s[sc + S_AGENDA_N]:
        return s[R[R_AGENDA] + 1]
    return s[sc + S_CURRENT]


@compiled
def high_mountains(s: np.ndarray, R: np.ndarray) -> int:
    """The mountains that count as 4000 m or more for elevation icons, one bit each
    (``counts_as_high`` of each): what a card's icon is checked against."""
    highs = 0
    advanced = R[R_ADVANCED] != 0
    for m in range(R[R_PLAYERS]):
        # the basic game has no Caldera: its height alone, without a call per mountain
        high = counts_as_high(s, R, m) if advanced else size(s, R, mountain(R, m)) >= R[R_HIGH]
        if high:
            highs |= 1 << m
    return highs


@compiled
def elevation_allows(R: np.ndarray, card: int, highs: int, m: int) -> bool:
    """A card's elevation icon against a mountain's height (hill: under 4000 m), ``highs``
    from :func:`high_mountains`."""
    icon = R[R[R_ICON] + card]
    if icon == ICON_NONE:
        return True
    return (icon == ICON_MOUNTAIN) == ((highs >> m) & 1 == 1)


@compiled
def weather_reach(
    s: np.ndarray, R: np.ndarray, card: int, m: int, highs: int, bonus: int, mark: int
) -> int:
    """How many rocks a WX card could weather on a mountain (``weather_reach``): from the
    top down past the weathered rocks, stopping at the first it cannot weather (under
    pass-over a typed card passes over the types it does not list). ``highs``:
    :func:`high_mountains`; ``bonus``: the rocks more a numeric card of the player's
    weathers (its Exfoliation Domes); the first ``mark`` of them are flagged weathered
    (``R_BELOW``, which :func:`join_run` then settles: ``_weather``), 0 to only count."""
    if not elevation_allows(R, card, highs, m):
        return 0
    pile = base(R, mountain(R, m))
    rocks = s[pile]
    numeric = R[R[R_KIND] + card] == KIND_WEATHER_N
    advanced = R[R_ADVANCED] != 0
    passing = R[R_PASS_OVER] != 0
    # read before the loop: its store to ``s`` would make the compiler reread ``R`` per rock
    below, mohs, rock_type = R[R_BELOW], R[R_MOHS], R[R_ROCK]
    limit = R[R[R_N] + card] + bonus if numeric else rocks
    hardness = R[R[R_HARD] + card]
    types = R[R[R_TYPES] + card]
    count = 0
    for i in range(s[R[R_WEATHERED] + m], rocks):
        if count >= limit:
            break
        rock = s[pile + 1 + i]
        if passing and s[below + rock] == 1:
            continue  # 'Each rock may only be weathered once'
        if numeric:
            if R[mohs + rock] > hardness:
                break
        elif not (types >> R[rock_type + rock]) & 1:
            if passing:
                continue
            break
        if advanced and not weatherable_by(R, rock, card):
            break
        if count < mark:
            s[below + rock] = 1
        count += 1
    return count


@compiled
def join_run(s: np.ndarray, R: np.ndarray, m: int) -> None:
    """Flagged rocks that now lie just under the weathered run at the top join it, and
    count in ``R_WEATHERED`` (``_weather``: the others stay flagged, below an unweathered
    rock)."""
    b = base(R, mountain(R, m))
    top = s[R[R_WEATHERED] + m]
    while top < s[b] and s[R[R_BELOW] + s[b + 1 + top]] == 1:
        s[R[R_BELOW] + s[b + 1 + top]] = 0
        top += 1
    s[R[R_WEATHERED] + m] = top


@compiled
def matchable(s: np.ndarray, R: np.ndarray, p: int, skip: int) -> int:
    """How many River rocks the seat's hand (less card ``skip``) could pay for."""
    need = np.zeros(16, dtype=np.int16)
    have = np.zeros(16, dtype=np.int16)
    rock = R[R_ROCK]
    b = base(R, river(R))
    for i in range(s[b]):
        need[R[rock + s[b + 1 + i]]] += 1
    b = base(R, hand(R, p))
    for i in range(s[b]):
        c = s[b + 1 + i]
        if c != skip:
            have[R[rock + c]] += 1
    total = 0
    for t in range(R[R_ROCK_TYPES]):
        total += min(need[t], have[t])
    return total


@compiled
def draw_limit(s: np.ndarray, R: np.ndarray, d: int) -> int:
    """Deck ``d``'s draw limit: the visible ends of the Atmospheres under it."""
    limit = 0
    for i in range(R[R_ATMS]):
        if R[R[R_UNDER] + i] == d:
            limit += R[R[R_AGE] + i] if s[R[R_AGED] + i] else R[R[R_NORMAL] + i]
    return limit


@compiled
def caps(s: np.ndarray, R: np.ndarray, d: int, bonus: int) -> int:
    """How many cards a deck allows in one draw: its draw limit (with ``bonus``, the
    drawing seat's Aquifers' for this deck), and the cards left (``draw_caps``)."""
    return min(draw_limit(s, R, d) + bonus, size(s, R, d))


@compiled
def draw_options(
    s: np.ndarray,
    R: np.ndarray,
    p: int,
    kind: int,
    wanted: int,
    one: bool,
    out: np.ndarray,
    count: int,
) -> int:
    """Append every way for seat ``p`` to draw ``wanted`` cards (``draw_options``); return
    the new count."""
    # The Aquifers are read here, and only under the Advanced Rules: a kernel that calls
    # another pays its arrays' reference counts at every call, and caps is asked six times
    # a turn
    bonus = (0, 0, 0)
    if R[R_ADVANCED]:
        bonus = (
            in_force(s, R, p, E_DRAW_LIMIT_BONUS, 0),
            in_force(s, R, p, E_DRAW_LIMIT_BONUS, 1),
            in_force(s, R, p, E_DRAW_LIMIT_BONUS, 2),
        )
    c0, c1, c2 = caps(s, R, 0, bonus[0]), caps(s, R, 1, bonus[1]), caps(s, R, 2, bonus[2])
    if one:
        if wanted > 0:
            if c0:
                out[count] = action_id(R, kind, min(wanted, c0), 0, 0)
                count += 1
            if c1:
                out[count] = action_id(R, kind, 0, min(wanted, c1), 0)
                count += 1
            if c2:
                out[count] = action_id(R, kind, 0, 0, min(wanted, c2))
                count += 1
        return count
    total = min(wanted, c0 + c1 + c2)
    if total <= 0:
        return count
    for a in range(min(c0, total) + 1):
        for b in range(min(c1, total - a) + 1):
            c = total - a - b
            if c <= c2:
                out[count] = action_id(R, kind, a, b, c)
                count += 1
    return count


# -- legal actions --------------------------------------------------------------------------
@compiled
def turn_actions(s: np.ndarray, R: np.ndarray, p: int, out: np.ndarray) -> int:
    """The actions at the start of a turn, in the engine's order (``_turn_actions``)."""
    n = R[R_PLAYERS]
    count = 0
    b = base(R, hand(R, p))
    cards = s[b]
    # once a turn, not per card and mountain
    highs = high_mountains(s, R)
    bonus = in_force(s, R, p, E_WEATHER_BONUS, 0) if R[R_ADVANCED] else 0
    for i in range(cards):
        c = s[b + 1 + i]
        kind = R[R[R_KIND] + c]
        if kind == KIND_WEATHER_N:
            for m in range(n):
                for k in range(1, weather_reach(s, R, c, m, highs, bonus, 0) + 1):
                    out[count] = action_id(R, A_WEATHER, c, m, k)
                    count += 1
        elif kind == KIND_WEATHER_TYPES:
            for m in range(n):
                if weather_reach(s, R, c, m, highs, bonus, 0):
                    out[count] = action_id(R, A_WEATHER, c, m, 0)
                    count += 1
        elif kind == KIND_HILLSLOPE:
            for m in range(n):
                if elevation_allows(R, c, highs, m):
                    reach = min(R[R[R_N] + c], s[R[R_WEATHERED] + m])
                    for k in range(1, reach + 1):
                        out[count] = action_id(R, A_HILLSLOPE, c, m, k)
                        count += 1
        else:
            # its number, or as many more as a Glacier in force allows (``fluvial_counts``)
            rocks = R[R[R_N] + c]
            possible = matchable(s, R, p, c)
            # a Glacier needs the Advanced Rules and a high mountain: else its number alone
            high = R[R_ADVANCED] != 0 and size(s, R, mountain(R, p)) >= R[R_HIGH]
            most = min(possible, R[R_TABLE_Y] - 1) if high else min(possible, rocks)
            for k in range(rocks, most + 1):
                if k == rocks or (high and in_force(s, R, p, E_TRANSPORT_BONUS, k - rocks)):
                    out[count] = action_id(R, A_FLUVIAL, c, k, 0)
                    count += 1
    one = R[R_DRAW_ONE] != 0
    full = R[R_HAND]
    if cards < full:
        count = draw_options(s, R, p, A_DRAW, full - cards, one, out, count)
    if cards:
        count = draw_options(s, R, p, A_REDRAW, full, one, out, count)
    out[count] = 0  # pass
    return count + 1


@compiled
def step_actions(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> int:
    """The choices of the agenda's front step (``_step_actions``)."""
    a = R[R_AGENDA]
    kind, seat, number, card = s[a], s[a + 1], s[a + 2], s[a + 3]
    count = 0
    if kind == K_DRAW:
        return draw_options(s, R, seat, A_DRAW, number, False, out, 0)
    if kind == K_TRIGGER:
        return trigger_actions(s, R, out)
    if kind == K_FAULT:
        return fault_actions(s, R, out)
    rock = R[R_ROCK]
    b = base(R, hand(R, seat))
    if kind == K_UPLIFT:
        for i in range(s[b]):
            out[count] = action_id(R, A_UPLIFT, s[b + 1 + i], 0, 0)
            count += 1
    elif kind == K_TRANSPORT:
        have = 0
        for i in range(s[b]):
            have |= 1 << R[rock + s[b + 1 + i]]
        r = base(R, river(R))
        for i in range(s[r]):
            c = s[r + 1 + i]
            if (have >> R[rock + c]) & 1:
                out[count] = action_id(R, A_TRANSPORT, c, 0, 0)
                count += 1
    elif kind == K_PAY:
        for i in range(s[b]):
            c = s[b + 1 + i]
            if R[rock + c] == R[rock + card]:
                out[count] = action_id(R, A_PAY, c, 0, 0)
                count += 1
    elif kind == K_GUESS:
        for g in range(1, 11):
            out[count] = action_id(R, A_GUESS, g, 0, 0)
            count += 1
    elif kind == K_CHOOSE:
        sc = R[R_SCALARS]
        for i in range(s[sc + S_TIE_N]):
            out[count] = action_id(R, A_CHOOSE, s[R[R_TIE_SEATS] + i], 0, 0)
            count += 1
    return count


@compiled
def legal_actions(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids of the seat to act into ``out`` in the engine's order;
    return how many (0 once the game is over, or while chance is pending)."""
    sc = R[R_SCALARS]
    if s[sc + S_OVER] or s[sc + S_CHANCE]:
        return 0
    if s[sc + S_AGENDA_N]:
        return step_actions(s, R, out)
    return turn_actions(s, R, s[sc + S_CURRENT], out)


# -- transitions ----------------------------------------------------------------------------
@compiled
def note_runout(s: np.ndarray, R: np.ndarray) -> None:
    """Start counting passes once a deck has run out (``_note_runout``)."""
    sc = R[R_SCALARS]
    if not s[sc + S_RUNOUT_ON] and (size(s, R, 0) == 0 or size(s, R, 1) == 0 or size(s, R, 2) == 0):
        s[sc + S_RUNOUT_ON] = 1
        s[R[R_RUNOUT] : R[R_RUNOUT] + R[R_PLAYERS]] = 0


@compiled
def draw(s: np.ndarray, R: np.ndarray, p: int, a: int, b: int, c: int) -> None:
    """Draw from the decks' tops into the seat's sorted hand (``_draw``)."""
    h = hand(R, p)
    for _ in range(a):
        insert(s, R, h, pop(s, R, 0))
    for _ in range(b):
        insert(s, R, h, pop(s, R, 1))
    for _ in range(c):
        insert(s, R, h, pop(s, R, 2))
    note_runout(s, R)


@compiled
def erode(s: np.ndarray, R: np.ndarray, m: int, rocks: int) -> None:
    """Move a mountain's top ``rocks`` (weathered) rocks to the River (``_erode``)."""
    b = base(R, mountain(R, m))
    r = river(R)
    k = s[b]
    for i in range(rocks):
        push(s, R, r, s[b + 1 + i])
    for i in range(b + 1, b + 1 + k - rocks):
        s[i] = s[i + rocks]
    s[b + 1 + k - rocks : b + 1 + k] = -1
    s[b] = k - rocks
    s[R[R_WEATHERED] + m] -= rocks
    if R[R_PASS_OVER]:
        join_run(s, R, m)  # rocks weathered below may now be on top


@compiled
def play_card(s: np.ndarray, R: np.ndarray, p: int, kind: int, c: int, y: int, z: int) -> None:
    """A WX, H or F card is played: its rocks, then the rest of the turn (``_process``)."""
    sc = R[R_SCALARS]
    remove(s, R, hand(R, p), c)
    push(s, R, discards(R, p), c)
    s[sc + S_PASSES] = 0
    if kind == A_FLUVIAL:
        agenda_push(s, R, K_TRANSPORT, p, y, -1)
        agenda_push(s, R, K_REFILL, p, 0, -1)
        agenda_push(s, R, K_END, p, 0, -1)
        return
    if kind == A_WEATHER:
        # a typed card (z 0) weathers every rock it reaches; a numeric one the first z
        # only pass-over weathers below an unweathered rock: elsewhere the run just grows
        passing = R[R_PASS_OVER] != 0
        mark = (z if z else R[R_CARDS]) if passing else 0
        bonus = in_force(s, R, p, E_WEATHER_BONUS, 0) if R[R_ADVANCED] else 0
        found = weather_reach(s, R, c, y, high_mountains(s, R), bonus, mark)
        rocks = z if z else found
        if passing:
            join_run(s, R, y)
        else:
            s[R[R_WEATHERED] + y] += rocks
    else:
        rocks = z
        erode(s, R, y, rocks)
    if R[R_BEFORE_UPLIFT]:
        agenda_push(s, R, K_REFILL, p, 0, -1)
    agenda_push(s, R, K_DRAW, p, rocks, -1)
    agenda_push(s, R, K_UPLIFT, p, 0, -1)
    if not R[R_BEFORE_UPLIFT]:
        agenda_push(s, R, K_REFILL, p, 0, -1)
    agenda_push(s, R, K_END, p, 0, -1)


@compiled
def act(s: np.ndarray, R: np.ndarray, p: int, action: int) -> None:
    """Seat ``p`` takes ``action`` (``_act``), before the engine's own steps."""
    sc = R[R_SCALARS]
    parts = R[R_PARTS] + 4 * action
    kind, x, y, z = R[parts], R[parts + 1], R[parts + 2], R[parts + 3]
    if kind == A_PASS:
        n = R[R_PLAYERS]
        s[sc + S_PASSES] += 1
        runout = s[sc + S_RUNOUT_ON]
        if runout:
            s[R[R_RUNOUT] + p] += 1
        if s[sc + S_PASSES] >= n:
            end_era(s, R, 1)
        elif runout and s[R[R_RUNOUT] + p] >= 2:
            end_era(s, R, 2 + p)
        else:
            agenda_push(s, R, K_END, p, 0, -1)
    elif kind in (A_WEATHER, A_HILLSLOPE, A_FLUVIAL):
        play_card(s, R, p, kind, x, y, z)
    elif kind in (A_DRAW, A_REDRAW):
        if s[sc + S_AGENDA_N]:
            draw(s, R, p, x, y, z)
            agenda_pop(s, R)
            return
        if kind == A_REDRAW:
            h, d = hand(R, p), discards(R, p)
            b = base(R, h)
            for i in range(s[b]):
                push(s, R, d, s[b + 1 + i])
            clear(s, R, h)
        draw(s, R, p, x, y, z)
        s[sc + S_PASSES] = 0
        agenda_push(s, R, K_END, p, 0, -1)
    elif kind == A_UPLIFT:
        remove(s, R, hand(R, p), x)
        push(s, R, mountain(R, p), x)
        if R[R_ADVANCED]:  # no call at every uplift of the basic game
            uplifted(s, R, p, x)
    elif kind == A_TRIGGER:
        trigger(s, R, x)
    elif kind == A_FAULT:
        agenda_pop(s, R)
        erode(s, R, x, 1)
    elif kind == A_TRANSPORT:
        a = R[R_AGENDA]
        agenda_front(s, R, K_PAY, p, s[a + 2], x)
    elif kind == A_PAY:
        a = R[R_AGENDA]
        number, river_rock = s[a + 2], s[a + 3]
        agenda_pop(s, R)
        if number > 1:
            agenda_push_front(s, R, K_TRANSPORT, p, number - 1, -1)
        remove(s, R, hand(R, p), x)
        push(s, R, discards(R, p), x)
        remove(s, R, river(R), river_rock)
        insert(s, R, delta(R, p), river_rock)
    elif kind == A_GUESS:
        seats = R[R_TIE_SEATS]
        i = 0
        while s[seats + i] != p:
            i += 1
        s[R[R_TIE_GUESSES] + i] = x
        agenda_pop(s, R)
    elif kind == A_CHOOSE:
        agenda_pop(s, R)
        s[R[R_CHANCE_SEATS]] = x
        s[sc + S_CHANCE_N] = 1
        decided(s, R, s[sc + S_TIE_PURPOSE])


@compiled
def settle(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> None:
    """Carry out every step that needs no decision; stop at the next real choice, at the
    end, or at chance; then the legends' claims (``_settle``). ``out``: scratch for a step's
    choices."""
    sc = R[R_SCALARS]
    a = R[R_AGENDA]
    while not s[sc + S_OVER] and not s[sc + S_CHANCE] and s[sc + S_AGENDA_N]:
        kind, seat = s[a], s[a + 1]
        if kind == K_END:
            agenda_pop(s, R)
            s[sc + S_CURRENT] = (s[sc + S_CURRENT] + 1) % R[R_PLAYERS]
            s[sc + S_TURN] += 1
            if R[R_ADVANCED]:  # no call at every turn's end of the basic game
                clear_triggered(s, R)
        elif kind == K_REFILL:
            if size(s, R, hand(R, seat)):
                agenda_pop(s, R)
            else:
                agenda_front(s, R, K_DRAW, seat, R[R_HAND], -1)
        elif kind == K_UPLIFT and size(s, R, hand(R, seat)) <= R[R_HAND]:
            agenda_pop(s, R)
        elif kind == K_SETTLE_TIE:
            agenda_pop(s, R)
            settle_tie(s, R)
        else:
            count = step_actions(s, R, out)
            if count > 1 or (count == 1 and R[R_MANUAL]):
                break
            if count == 1:
                act(s, R, seat, out[0])
            else:
                agenda_pop(s, R)
    if R[R_LEGEND] != LEGEND_OFF:  # the call skipped where it has nothing to do: every step
        claim_legends(s, R)


@compiled
def apply(s: np.ndarray, R: np.ndarray, action: int, out: np.ndarray) -> None:
    """Play ``action`` (legal) for the seat to act, in place, and every step that follows
    without a decision (``apply``); it may stop at chance (``S_CHANCE``)."""
    act(s, R, to_act(s, R), action)
    settle(s, R, out)


# -- chance ---------------------------------------------------------------------------------
@compiled
def resolve_tie_draws(s: np.ndarray, R: np.ndarray, cards: np.ndarray, out: np.ndarray) -> None:
    """The tie-breaker's cards are drawn (one per tied seat, -1 for an empty hand); the
    guesses follow when two or more seats hold a card (the rest of ``_end_era``)."""
    sc = R[R_SCALARS]
    k = s[sc + S_CHANCE_N]
    s[sc + S_TIE_PURPOSE] = PURPOSE_START if s[sc + S_CHANCE] == CHANCE_TIE_START else PURPOSE_WIN
    s[sc + S_TIE_N] = k
    guessers = 0
    for i in range(k):
        seat = s[R[R_CHANCE_SEATS] + i]
        s[R[R_TIE_SEATS] + i] = seat
        s[R[R_TIE_CARDS] + i] = cards[i]
        s[R[R_TIE_GUESSES] + i] = 0
        if cards[i] >= 0:
            remove(s, R, hand(R, seat), cards[i])
            guessers += 1
    clear_chance(s, R)
    if guessers > 1:
        for i in range(k):
            if cards[i] >= 0:
                agenda_push(s, R, K_GUESS, s[R[R_TIE_SEATS] + i], 0, -1)
    agenda_push(s, R, K_SETTLE_TIE, -1, 0, -1)
    settle(s, R, out)


@compiled
def resolve_new_era(
    s: np.ndarray, R: np.ndarray, start: int, sizes: np.ndarray, cards: np.ndarray, out: np.ndarray
) -> None:
    """The next era with its start player and its shuffled decks (top card last, the three
    decks one after the other in ``cards``): new hands of 3 WX, 2 H, 1 F dealt one card at
    a time from the start player (``_new_era``)."""
    n, sc = R[R_PLAYERS], R[R_SCALARS]
    for p in range(n):
        clear(s, R, hand(R, p))
        clear(s, R, delta(R, p))
        clear(s, R, discards(R, p))
    clear(s, R, river(R))
    at = 0
    for d in range(3):
        clear(s, R, d)
        for i in range(sizes[d]):
            push(s, R, d, cards[at + i])
        at += sizes[d]
    for d in range(3):
        for _ in range(R[R_MIX + d]):
            for j in range(n):
                if size(s, R, d):
                    insert(s, R, hand(R, (start + j) % n), pop(s, R, d))
    s[sc + S_ERA] += 1
    s[sc + S_CURRENT] = start
    agenda_clear(s, R)
    s[sc + S_PASSES] = 0
    s[sc + S_RUNOUT_ON] = 0
    s[R[R_RUNOUT] : R[R_RUNOUT] + n] = 0
    s[sc + S_TURN] += 1
    clear_triggered(s, R)
    clear_chance(s, R)
    note_runout(s, R)
    settle(s, R, out)


@compiled
def seed_random(seed: int) -> None:
    """Seed numba's generator (the one the compiled chance and random games draw from)."""
    np.random.seed(seed)


@compiled
def random_tie_draws(s: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Pending tie-breaker draws: a uniformly random card of each tied seat's hand (-1 for
    an empty hand)."""
    sc = R[R_SCALARS]
    k = s[sc + S_CHANCE_N]
    draws = np.empty(k, dtype=np.int16)
    for i in range(k):
        b = base(R, hand(R, s[R[R_CHANCE_SEATS] + i]))
        draws[i] = s[b + 1 + np.random.randint(s[b])] if s[b] else -1
    return draws


@compiled
def random_new_era(s: np.ndarray, R: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """A pending new era's chance: its start among the tied seats, and its decks (every
    card but the mountains', by deck, shuffled): the start, each deck's size, the cards."""
    sc = R[R_SCALARS]
    start = s[R[R_CHANCE_SEATS] + np.random.randint(s[sc + S_CHANCE_N])]
    sizes, order = new_era_decks(s, R)
    first = 0
    for d in range(3):
        at = first + sizes[d]
        for i in range(at - 1, first, -1):  # Fisher-Yates
            j = first + np.random.randint(i - first + 1)
            order[i], order[j] = order[j], order[i]
        first = at
    return start, sizes, order


@compiled
def random_chance(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> None:
    """Resolve pending chance with numba's generator, until the next decision."""
    sc = R[R_SCALARS]
    while s[sc + S_CHANCE]:
        if s[sc + S_CHANCE] == CHANCE_NEW_ERA:
            start, sizes, order = random_new_era(s, R)
            resolve_new_era(s, R, start, sizes, order, out)
        else:
            resolve_tie_draws(s, R, random_tie_draws(s, R), out)


# -- random games ---------------------------------------------------------------------------
@compiled
def rollout(s: np.ndarray, R: np.ndarray, out: np.ndarray) -> None:
    """Play uniformly random legal actions (and chance) to the end of the game, in place."""
    random_chance(s, R, out)
    count = legal_actions(s, R, out)
    while count > 0:
        apply(s, R, out[np.random.randint(count)], out)
        random_chance(s, R, out)
        count = legal_actions(s, R, out)


@compiled
def returns(s: np.ndarray, R: np.ndarray, totals: np.ndarray) -> None:
    """Add the ended game's returns to ``totals``: +1 for a sole winner, 0 for each of
    several, -1 for the others (``returns``)."""
    sc = R[R_SCALARS]
    k = s[sc + S_WINNERS_N]
    for p in range(R[R_PLAYERS]):
        won = False
        for i in range(k):
            if s[R[R_WINNERS] + i] == p:
                won = True
        totals[p] += (1.0 if k == 1 else 0.0) if won else -1.0


@compiled
def random_games(start: np.ndarray, R: np.ndarray, games: int, seed: int) -> np.ndarray:
    """Each seat's returns summed over ``games`` uniformly random games from ``start``."""
    np.random.seed(seed)
    totals = np.zeros(R[R_PLAYERS], dtype=np.float64)
    scratch = start.copy()
    out = np.empty(R[R_NUM_ACTIONS], dtype=np.int16)
    for _ in range(games):
        scratch[:] = start
        rollout(scratch, R, out)
        returns(scratch, R, totals)
    return totals


@compiled
def candidate_games(
    start: np.ndarray, R: np.ndarray, seat: int, actions: np.ndarray, seed: int
) -> np.ndarray:
    """``seat``'s return after each of ``actions`` (legal for it, the seat to act) from
    ``start``, then one uniformly random game, each candidate from the same ``seed``: what
    :func:`random_games` gives for one game from the state after the action, where the action
    draws no chance."""
    values = np.zeros(len(actions), dtype=np.float64)
    totals = np.zeros(R[R_PLAYERS], dtype=np.float64)
    scratch = start.copy()
    out = np.empty(R[R_NUM_ACTIONS], dtype=np.int16)
    for i in range(len(actions)):
        scratch[:] = start
        np.random.seed(seed)
        apply(scratch, R, actions[i], out)
        rollout(scratch, R, out)
        totals[:] = 0.0
        returns(scratch, R, totals)
        values[i] = totals[seat]
    return values
