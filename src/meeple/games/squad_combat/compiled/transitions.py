"""Squad Combat's rules written a second time, for numba (2 of 2): the transitions.

Windows (:mod:`meeple.games.squad_combat.windows`), turns
(:mod:`~meeple.games.squad_combat.turns`), performing cards
(:mod:`~meeple.games.squad_combat.combat`), one action (``act`` then ``settle``, in
:mod:`~meeple.games.squad_combat.rules`) and random games, on the arrays that
:mod:`.reading` beside it lays out. Each function mirrors the engine's method of the same
name, in the same order of steps; the differential test
(``tests/games/squad_combat/test_fast.py``) holds them equal.
"""

from __future__ import annotations

import numpy as np

from meeple.games.squad_combat.compiled.reading import (
    A_DIE,
    A_DROP,
    A_NO_DIE,
    A_PASS,
    A_PAY,
    A_REFRESH,
    A_TARGET,
    ACTION,
    ATTACK,
    ATTACK_DIE,
    BOOST_DIE,
    C_AMOUNT,
    C_CARDS,
    C_DAMAGE,
    C_DICE,
    C_EFFECT,
    C_ENERGY,
    C_HIT,
    C_KIND,
    C_NDICE,
    CH_CARD,
    CH_DICE,
    CH_NDICE,
    CH_NWOUNDS,
    CH_REMOVED,
    CH_SIZE,
    CH_SPENT,
    CH_WOUNDS,
    CHARACTER_SIZE,
    DEFENSE_DIE,
    DROP,
    E_ATTACK,
    E_BOOST,
    E_DEFENSE,
    E_DRAW,
    E_ENERGY,
    E_HEAL,
    EDGE,
    END_DISCARD,
    END_DISCARDS,
    END_LAST,
    END_LIMIT,
    END_NONE,
    END_STALEMATE,
    END_WINDOW,
    ENERGY,
    FACES,
    G_ALL_AT_ONCE,
    G_ANYTIME,
    G_ASK_ONLY_CHOICES,
    G_ATTACKER_FIRST,
    G_CHARACTERS,
    G_HAND_SIZE,
    G_KINDS,
    G_LEAD_ROTATE,
    G_MATCHES,
    G_PLAYERS,
    G_TAKE_SINGLE,
    G_TURN_LIMIT,
    LIFE,
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_DUE,
    MAX_KINDS,
    MAX_SEATS,
    OVER,
    P_ABONUS,
    P_ADIE,
    P_BOOST,
    P_CARD,
    P_CARDS_DUE,
    P_DBONUS,
    P_DDIE,
    P_DUE,
    P_NDUE,
    P_NWIN,
    P_PLAYER,
    P_SLOT,
    P_TSEAT,
    P_TSLOT,
    P_WIN,
    PAY_CARD,
    PAY_DIE,
    PERF_SIZE,
    PHASE,
    POOL,
    REACT,
    REFRESH,
    REFRESH_STREAM,
    REFRESH_WINDOW,
    RESOLVE,
    S_CLOSING,
    S_DECKN,
    S_DECKS,
    S_DISCARDED,
    S_DISCARDING,
    S_DISCARDS,
    S_DISCN,
    S_DROPPING,
    S_ENDED,
    S_HANDN,
    S_HANDS,
    S_LEAD,
    S_NCLOSING,
    S_NDISCARDING,
    S_NREFRESH_WINDOWS,
    S_NSTACK,
    S_ORDER,
    S_PASSED,
    S_PHASE,
    S_REFRESH_WINDOWS,
    S_REFRESHING,
    S_ROLLS,
    S_STACK,
    S_TURN,
    S_WINNER,
    TARGET,
    add_die,
    alive,
    below,
    card_at,
    ch,
    chance_event,
    clear_queue,
    compiled,
    damage,
    draw,
    find_step,
    legal,
    legal_for,
    playable,
    pop_seat,
    queue_after,
    seat_index,
    spend_die,
    take_from_hand,
    to_discard,
    top,
    window_timings,
)


# -- windows (windows.py) -------------------------------------------------------------------
@compiled
def attack_windows(s: np.ndarray, g: np.ndarray, p: int, attacker: int, defender: int) -> None:
    """The seats offered a window after an attack's dice, written into the top card."""
    first, second = defender, attacker
    if g[G_ATTACKER_FIRST]:
        first, second = attacker, defender
    s[p + P_WIN] = first
    s[p + P_WIN + 1] = second
    m = 2
    if g[G_ANYTIME]:
        n = g[G_PLAYERS]
        i = seat_index(s, attacker)
        for k in range(1, n):
            other = s[S_ORDER + (i + k) % n]
            if alive(s, other) and other != first and other != second:
                s[p + P_WIN + m] = other
                m += 1
    for j in range(m, MAX_SEATS):
        s[p + P_WIN + j] = -1
    s[p + P_NWIN] = m


@compiled
def open_action_windows(s: np.ndarray, g: np.ndarray) -> bool:
    """Before the action on top resolves, every seat may play an unrestricted edge."""
    p = top(s)
    if not g[G_ANYTIME] or s[p + P_NWIN] >= 0:
        return False
    if g[card_at(s[p + P_CARD]) + C_KIND] != ACTION:
        return False
    queue_after(s, g, s[p + P_PLAYER], s[p + P_PLAYER], p + P_NWIN, p + P_WIN)
    return True


@compiled
def open_end_windows(s: np.ndarray, g: np.ndarray) -> bool:
    """Everyone has passed: each seat from the lead may play unrestricted edges."""
    if not g[G_ANYTIME]:
        return False
    lead = s[S_LEAD]
    # [lead, *seats_after(lead)] filtered by alive: the lead last-in-first is put in front.
    queue_after(s, g, lead, -1, S_NCLOSING, S_CLOSING)
    if alive(s, lead):
        n = s[S_NCLOSING]
        for j in range(n, 0, -1):
            s[S_CLOSING + j] = s[S_CLOSING + j - 1]
        s[S_CLOSING] = lead
        s[S_NCLOSING] = n + 1
    return s[S_NCLOSING] > 0


# -- turns (turns.py) -----------------------------------------------------------------------
@compiled
def advance_phase(s: np.ndarray, g: np.ndarray, seat: int) -> None:
    """The next action phase goes to the next player in turn order who has not passed;
    when everyone has passed, the end-of-turn windows open, then the turn ends."""
    n = g[G_PLAYERS]
    i = seat_index(s, seat)
    for k in range(1, n + 1):
        nxt = s[S_ORDER + (i + k) % n]
        if s[S_PASSED + nxt] == 0:
            s[S_PHASE] = nxt
            return
    if not open_end_windows(s, g):
        end_turn(s, g)


@compiled
def close_window(s: np.ndarray, g: np.ndarray, kind: int) -> None:
    """The deciding seat's window closes (it said ``done``, or had nothing to play)."""
    if kind == REACT:
        p = top(s)
        pop_seat(s, p + P_NWIN, p + P_WIN)
    elif kind == REFRESH_WINDOW:
        pop_seat(s, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS)
    else:
        pop_seat(s, S_NCLOSING, S_CLOSING)
        if s[S_NCLOSING] == 0:
            end_turn(s, g)


@compiled
def end_turn(s: np.ndarray, g: np.ndarray) -> None:
    """Spent energy clears (removed characters' too), then the discards, from the lead."""
    n = g[G_PLAYERS]
    for seat in range(n):
        for slot in range(3):
            s[ch(seat, slot) + CH_SPENT] = 0
    i = seat_index(s, s[S_LEAD])
    m = 0
    for k in range(n):
        seat = s[S_ORDER + (i + k) % n]
        if alive(s, seat):
            s[S_DISCARDING + m] = seat
            m += 1
    for j in range(m, MAX_SEATS):
        s[S_DISCARDING + j] = -1
    s[S_NDISCARDING] = m
    s[S_DISCARDED] = 0


@compiled
def draw_up(s: np.ndarray, g: np.ndarray, seat: int, tape: np.ndarray) -> None:
    """The seat draws up to its hand size."""
    want = g[G_HAND_SIZE] - s[S_HANDN + seat]
    if want > 0:
        draw(s, seat, want, tape)


@compiled
def finish_discards(s: np.ndarray, g: np.ndarray, seat: int, tape: np.ndarray) -> None:
    """The deciding seat's discards are over: seat by seat it draws now; all at once, every
    seat draws after the last seat's discards. Then the next turn starts."""
    pop_seat(s, S_NDISCARDING, S_DISCARDING)
    s[S_DISCARDED] = 0
    if not g[G_ALL_AT_ONCE]:
        draw_up(s, g, seat, tape)
    elif s[S_NDISCARDING] == 0:
        n = g[G_PLAYERS]
        i = seat_index(s, s[S_LEAD])
        # The lead, then the seats after it (seats_after skips the dead, as does alive).
        for k in range(n):
            other = s[S_ORDER + (i + k) % n]
            if alive(s, other):
                draw_up(s, g, other, tape)
    if s[S_NDISCARDING] == 0:
        start_turn(s, g)


@compiled
def start_turn(s: np.ndarray, g: np.ndarray) -> None:
    """A new turn (or the end: a stalemate, or the turn limit)."""
    if not can_still_wound(s, g):
        end(s, -1, END_STALEMATE)
        return
    if s[S_TURN] >= g[G_TURN_LIMIT]:
        end(s, -1, END_LIMIT)
        return
    s[S_TURN] += 1
    n = g[G_PLAYERS]
    if g[G_LEAD_ROTATE]:
        i = seat_index(s, s[S_LEAD])
        for k in range(1, n + 1):
            other = s[S_ORDER + (i + k) % n]
            if alive(s, other):
                s[S_LEAD] = other
                break
    else:
        for k in range(n):
            other = s[S_ORDER + k]
            if alive(s, other):
                s[S_LEAD] = other
                break
    for seat in range(n):
        s[S_PASSED + seat] = not alive(s, seat)
    s[S_PHASE] = s[S_LEAD]


@compiled
def can_still_wound(s: np.ndarray, g: np.ndarray) -> bool:
    """Whether some living character could ever perform an attack (or a heal) its player
    still owns in hand, deck or discard pile (``Turns.can_still_wound``)."""
    owned = np.zeros(MAX_KINDS, dtype=np.bool_)
    for seat in range(g[G_PLAYERS]):
        if not alive(s, seat):
            continue
        owned[:] = False
        for k in range(g[G_KINDS]):
            owned[k] = s[S_HANDS + seat * MAX_KINDS + k] > 0
        for i in range(s[S_DECKN + seat]):
            owned[s[S_DECKS + seat * MAX_CARDS + i]] = True
        for i in range(s[S_DISCN + seat]):
            owned[s[S_DISCARDS + seat * MAX_CARDS + i]] = True
        total = s[S_HANDN + seat] + s[S_DECKN + seat] + s[S_DISCN + seat]
        for k in range(g[G_KINDS]):
            row = card_at(k)
            if not owned[k] or (g[row + C_KIND] != ATTACK and g[row + C_EFFECT] != E_HEAL):
                continue
            for slot in range(3):
                c = ch(seat, slot)
                who = s[c + CH_CARD]
                spec = G_CHARACTERS + who * CHARACTER_SIZE
                if (
                    s[c + CH_REMOVED] == 0
                    and g[G_MATCHES + who * MAX_KINDS + k] != 0
                    and g[spec + ENERGY] >= g[row + C_ENERGY]
                    and g[spec + POOL] >= g[row + C_NDICE]
                    and total - 1 >= g[row + C_CARDS]
                ):
                    return True
    return False


@compiled
def end(s: np.ndarray, winner: int, reason: int) -> None:
    """The game is over: a winner, or a draw (-1), and why."""
    s[S_WINNER] = winner
    s[S_ENDED] = reason
    clear_queue(s, S_NDISCARDING, S_DISCARDING, 0)
    clear_queue(s, S_NCLOSING, S_CLOSING, 0)
    s[S_REFRESHING] = -1
    clear_queue(s, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS, 0)
    s[S_DROPPING] = -1


# -- performing cards (combat.py) -----------------------------------------------------------
@compiled
def announce(s: np.ndarray, g: np.ndarray, seat: int, k: int, slot: int) -> None:
    """The card leaves the hand, its energy is spent, and it goes on the stack."""
    take_from_hand(s, seat, k)
    row = card_at(k)
    s[ch(seat, slot) + CH_SPENT] += g[row + C_ENERGY]
    p = S_STACK + s[S_NSTACK] * PERF_SIZE
    s[S_NSTACK] += 1
    s[p + P_PLAYER] = seat
    s[p + P_CARD] = k
    s[p + P_SLOT] = slot
    s[p + P_NDUE] = g[row + C_NDICE]
    for i in range(MAX_DUE):
        s[p + P_DUE + i] = g[row + C_DICE + i] if i < g[row + C_NDICE] else 0
    s[p + P_CARDS_DUE] = g[row + C_CARDS]
    for field in (P_TSEAT, P_TSLOT, P_BOOST, P_ADIE, P_DDIE):
        s[p + field] = -1
    s[p + P_ABONUS] = 0
    s[p + P_DBONUS] = 0
    clear_queue(s, p + P_NWIN, p + P_WIN, -1)


@compiled
def pop_top(s: np.ndarray) -> None:
    """Take the top card off the stack (its record is zeroed, as an empty place is)."""
    p = top(s)
    for i in range(PERF_SIZE):
        s[p + i] = 0
    s[S_NSTACK] -= 1


@compiled
def refresh_dice(s: np.ndarray, g: np.ndarray, seat: int, slot: int, tape: np.ndarray) -> None:
    """The refresh's energy is paid; the windows before it rolls open (``anytime``)."""
    c = ch(seat, slot)
    s[c + CH_SPENT] += g[G_CHARACTERS + s[c + CH_CARD] * CHARACTER_SIZE + REFRESH]
    s[S_REFRESHING] = slot
    if g[G_ANYTIME]:
        queue_after(s, g, seat, seat, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS)
    else:
        roll_refresh(s, g, tape)


@compiled
def roll_refresh(s: np.ndarray, g: np.ndarray, tape: np.ndarray) -> None:
    """The refresh announced in this action phase rolls its dice."""
    seat, slot = s[S_PHASE], s[S_REFRESHING]
    s[S_REFRESHING] = -1
    clear_queue(s, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS, 0)
    c = ch(seat, slot)
    pool = g[G_CHARACTERS + s[c + CH_CARD] * CHARACTER_SIZE + POOL]
    s[S_ROLLS] += 1
    chance_event(s, tape, REFRESH_STREAM)
    for _ in range(pool):
        add_die(s, c, 1 + below(tape, FACES))  # random.randint(1, 6)
    if s[c + CH_NDICE] > pool:
        s[S_DROPPING] = slot
    else:
        advance_phase(s, g, seat)


@compiled
def drop_die(s: np.ndarray, g: np.ndarray, seat: int, value: int) -> None:
    """Remove a die after a refresh; once the pool is kept, the phase moves on."""
    slot = s[S_DROPPING]
    spend_die(s, seat, slot, value)
    c = ch(seat, slot)
    if s[c + CH_NDICE] <= g[G_CHARACTERS + s[c + CH_CARD] * CHARACTER_SIZE + POOL]:
        s[S_DROPPING] = -1
        advance_phase(s, g, seat)


@compiled
def choose_die(s: np.ndarray, g: np.ndarray, seat: int, kind: int, value: int) -> None:
    """The boost die, or the attack die, or the defense die (0 when declined)."""
    p = top(s)
    if kind == BOOST_DIE:
        s[p + P_BOOST] = value
        return
    if kind == ATTACK_DIE:
        owner, slot = seat, s[p + P_SLOT]
        s[p + P_ADIE] = value
    else:
        owner, slot = s[p + P_TSEAT], s[p + P_TSLOT]
        attack_windows(s, g, p, s[p + P_PLAYER], owner)
        s[p + P_DDIE] = value
    if value:
        spend_die(s, owner, slot, value)


@compiled
def resolve(s: np.ndarray, g: np.ndarray, tape: np.ndarray) -> None:
    """Resolve the top card, discard it (or attach it as a wound), and move on."""
    p = top(s)
    player, k = s[p + P_PLAYER], s[p + P_CARD]
    tseat, tslot, boost = s[p + P_TSEAT], s[p + P_TSLOT], s[p + P_BOOST]
    attack = s[p + P_ADIE] + g[card_at(k) + C_HIT] + s[p + P_ABONUS]
    defense = s[p + P_DDIE] + s[p + P_DBONUS]
    pop_top(s)
    kind = g[card_at(k) + C_KIND]
    attached = False
    if kind == ATTACK:
        if attack >= defense:
            wound(s, g, tseat, tslot, k, player)
            attached = True
    else:
        resolve_effect(s, g, player, k, tseat, tslot, boost, tape)
    if not attached:
        to_discard(s, player, k)
    if s[S_ENDED] == END_NONE and kind != EDGE:
        advance_phase(s, g, player)


@compiled
def wound(s: np.ndarray, g: np.ndarray, seat: int, slot: int, k: int, owner: int) -> None:
    """A hit: the card goes under the defender; wounds reaching its Life remove it."""
    c = ch(seat, slot)
    n = s[c + CH_NWOUNDS]
    s[c + CH_WOUNDS + 2 * n] = k
    s[c + CH_WOUNDS + 2 * n + 1] = owner
    s[c + CH_NWOUNDS] = n + 1
    if damage(s, g, seat, slot) >= g[G_CHARACTERS + s[c + CH_CARD] * CHARACTER_SIZE + LIFE]:
        remove_character(s, g, seat, slot)


@compiled
def remove_character(s: np.ndarray, g: np.ndarray, seat: int, slot: int) -> None:
    """Its wound cards go to their owners' discard piles, its dice are gone; a seat with no
    character left has passed, and the last seat with one wins."""
    c = ch(seat, slot)
    for i in range(s[c + CH_NWOUNDS]):
        to_discard(s, s[c + CH_WOUNDS + 2 * i + 1], s[c + CH_WOUNDS + 2 * i])
    for i in range(CH_NDICE, CH_SIZE):
        s[c + i] = 0
    s[c + CH_REMOVED] = 1
    if not alive(s, seat):
        s[S_PASSED + seat] = 1
        last, count = -1, 0
        for other in range(g[G_PLAYERS]):
            if alive(s, other):
                last, count = other, count + 1
        if count == 1:
            end(s, last, END_LAST)


@compiled
def resolve_effect(
    s: np.ndarray,
    g: np.ndarray,
    player: int,
    k: int,
    seat: int,
    slot: int,
    boost: int,
    tape: np.ndarray,
) -> None:
    """An action's or edge's effect (``Combat.resolve_effect``)."""
    row = card_at(k)
    effect, amount = g[row + C_EFFECT], g[row + C_AMOUNT]
    if effect in (E_DEFENSE, E_ATTACK):
        # Played in a reaction window: the attack it answers is below it, now on top.
        s[top(s) + (P_DBONUS if effect == E_DEFENSE else P_ABONUS)] += amount
        return
    if effect == E_DRAW:
        draw(s, player, amount, tape)
        return
    c = ch(seat, slot)
    if effect == E_HEAL:
        # The worst wound it can treat, the latest of equals; an edge may have healed it.
        best, worst = -1, -1
        for i in range(s[c + CH_NWOUNDS] - 1, -1, -1):
            hurt = g[card_at(s[c + CH_WOUNDS + 2 * i]) + C_DAMAGE]
            if hurt <= amount and hurt > worst:
                best, worst = i, hurt
        if best < 0:
            return
        card, owner = s[c + CH_WOUNDS + 2 * best], s[c + CH_WOUNDS + 2 * best + 1]
        n = s[c + CH_NWOUNDS]
        for j in range(2 * best, 2 * n - 2):
            s[c + CH_WOUNDS + j] = s[c + CH_WOUNDS + j + 2]
        s[c + CH_WOUNDS + 2 * n - 2] = 0
        s[c + CH_WOUNDS + 2 * n - 1] = 0
        s[c + CH_NWOUNDS] = n - 1
        to_discard(s, owner, card)
    elif effect == E_BOOST:
        for i in range(s[c + CH_NDICE]):
            if s[c + CH_DICE + i] == boost:
                spend_die(s, seat, slot, boost)
                add_die(s, c, min(FACES, boost + amount))
                return
    elif effect == E_ENERGY:
        s[c + CH_SPENT] = max(0, s[c + CH_SPENT] - amount)


@compiled
def fizzle(s: np.ndarray, g: np.ndarray) -> None:
    """A card whose last target vanished while its costs were paid has no effect."""
    p = top(s)
    player, k = s[p + P_PLAYER], s[p + P_CARD]
    pop_top(s)
    to_discard(s, player, k)
    if g[card_at(k) + C_KIND] != EDGE:
        advance_phase(s, g, player)


# -- one action (SquadCombatState._next: act, then settle) ----------------------------------
@compiled
def act(
    s: np.ndarray, g: np.ndarray, player: int, action: int, kind: int, tape: np.ndarray
) -> None:
    """Apply a legal action of ``player`` at a step of ``kind`` (``_Table.act``)."""
    plays = A_TARGET + 3 * g[G_PLAYERS]
    discards = plays + 3 * g[G_KINDS]
    if plays <= action < discards:
        announce(s, g, player, (action - plays) // 3, (action - plays) % 3)
    elif action == A_PASS:
        s[S_PASSED + player] = 1
        advance_phase(s, g, player)
    elif A_REFRESH <= action < A_TARGET:
        refresh_dice(s, g, player, action - A_REFRESH, tape)
    elif A_DROP < action <= A_DROP + FACES:
        drop_die(s, g, player, action - A_DROP)
    elif A_PAY < action <= A_PAY + FACES:
        p = top(s)
        spend_die(s, player, s[p + P_SLOT], action - A_PAY)
        n = s[p + P_NDUE]
        for i in range(n - 1):
            s[p + P_DUE + i] = s[p + P_DUE + i + 1]
        s[p + P_DUE + n - 1] = 0
        s[p + P_NDUE] = n - 1
    elif action >= discards:
        k = action - discards
        take_from_hand(s, player, k)
        to_discard(s, player, k)
        if kind == PAY_CARD:
            s[top(s) + P_CARDS_DUE] -= 1
        else:
            s[S_DISCARDED] += 1
            if s[S_DISCARDED] >= END_DISCARDS:
                finish_discards(s, g, player, tape)
    elif A_TARGET <= action < plays:
        p = top(s)
        s[p + P_TSEAT] = (action - A_TARGET) // 3
        s[p + P_TSLOT] = (action - A_TARGET) % 3
    elif action == A_NO_DIE or A_DIE < action <= A_DIE + FACES:
        choose_die(s, g, player, kind, 0 if action == A_NO_DIE else action - A_DIE)
    elif kind in (REACT, END_WINDOW, REFRESH_WINDOW):
        close_window(s, g, kind)
    else:
        finish_discards(s, g, player, tape)


@compiled
def settle(s: np.ndarray, g: np.ndarray, tape: np.ndarray, scratch: np.ndarray) -> None:
    """Carry the game on until someone has a real decision (``_Table.settle``)."""
    ask_only_choices = g[G_ASK_ONLY_CHOICES] != 0
    take_single = g[G_TAKE_SINGLE] != 0
    while True:
        kind, seat = find_step(s, g)
        if kind == OVER:
            return
        if kind == RESOLVE:
            if s[S_NSTACK] == 0:
                roll_refresh(s, g, tape)
            elif not open_action_windows(s, g):
                resolve(s, g, tape)
            continue
        if kind == END_DISCARD and s[S_HANDN + seat] == 0:
            finish_discards(s, g, seat, tape)
            continue
        if (
            kind in (REACT, END_WINDOW, REFRESH_WINDOW)
            and ask_only_choices
            and playable(s, g, seat, window_timings(s, g, seat), scratch, 0) == 0
        ):
            close_window(s, g, kind)
            continue
        forced = kind in (PAY_DIE, PAY_CARD, TARGET, BOOST_DIE)
        if forced or kind == DROP:
            n = legal_for(s, g, kind, seat, scratch)
            if n == 0:
                fizzle(s, g)
                continue
            if n == 1 and take_single:
                act(s, g, seat, scratch[0], kind, tape)
                continue
        elif kind in (ATTACK_DIE, DEFENSE_DIE) or (kind == PHASE and ask_only_choices):
            n = legal_for(s, g, kind, seat, scratch)
            if n == 1 and take_single:
                act(s, g, seat, scratch[0], kind, tape)
                continue
        return


@compiled
def apply(s: np.ndarray, g: np.ndarray, action: int, tape: np.ndarray) -> None:
    """Take legal ``action`` for the seat to act, then settle, in place."""
    kind, seat = find_step(s, g)
    # int32 as every other caller passes it (a legal-move buffer's entry): act compiles once
    act(s, g, seat, np.int32(action), kind, tape)
    settle(s, g, tape, np.empty(MAX_ACTIONS, dtype=np.int32))


# -- random games ---------------------------------------------------------------------------
@compiled
def rollout(s: np.ndarray, g: np.ndarray, moves: np.ndarray, tape: np.ndarray) -> None:
    """Play uniformly random legal actions to the end of the game, in place."""
    scratch = np.empty(MAX_ACTIONS, dtype=np.int32)
    n = legal(s, g, moves)
    while n > 0:
        kind, seat = find_step(s, g)
        act(s, g, seat, moves[np.random.randint(0, n)], kind, tape)
        settle(s, g, tape, scratch)
        n = legal(s, g, moves)


@compiled
def random_games(start: np.ndarray, g: np.ndarray, games: int, seed: int) -> np.ndarray:
    """Each seat's wins, then the draws, over ``games`` uniformly random games."""
    np.random.seed(seed)
    p = g[G_PLAYERS]
    counts = np.zeros(p + 1, dtype=np.int64)
    s = start.copy()
    moves = np.empty(MAX_ACTIONS, dtype=np.int32)
    tape = np.zeros(0, dtype=np.int32)
    for _ in range(games):
        s[:] = start
        rollout(s, g, moves, tape)
        winner = s[S_WINNER]
        counts[winner if winner >= 0 else p] += 1
    return counts
