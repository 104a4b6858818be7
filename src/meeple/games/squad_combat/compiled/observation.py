"""Squad Combat batched: the observation, what one seat may know as numbers, filled by a
compiled kernel from a row (:mod:`.batch`) and computed again from a seat's view of the
readable rules, for the one-game adapters and the differential test.

**The observation** is the seat to act's (or, once a game is over, the last mover's), what
that seat may know and nothing else, every number in [0, 1]; ``[+k]`` is the seat ``k``
places after the observing seat, ``<card>`` runs over the content's cards, ``<slot>`` over
a, b, c (:func:`observation_slots` names each; ``docs/batched.md`` has the
table). A count of cards is over the copies of that card in the seat's deck list (0 where
it has none), a count of a seat's hand or deck over its deck list's length:

* ``seat.<i>``: which seat observes (one-hot; its deck and party follow from it);
* ``turn``: the turn over the turn limit; ``step.<kind>``: the pending step, one-hot;
* ``first[+k]``, ``lead[+k]``, ``phase[+k]``: the first player, who opens this turn, whose
  action phase it is (one-hot each); ``passed[+k]``: the seats that passed this turn;
* ``hand[+k]``, ``deck[+k]``: how many cards each seat holds and has in its deck;
* ``own.<card>``: the observing seat's own hand;
* ``discards[+k].<card>``, ``wounds[+k].<card>``: seat ``+k``'s cards on its discard pile
  and lying under characters as wounds;
* ``char[+k].<slot>.removed``, ``.life`` (Life left over Life), ``.energy`` (unspent energy
  over Energy), ``.wounds`` (over 16), ``.dice.1`` ... ``.dice.6`` (dice showing each face,
  over 12);
* ``stack[i]``, the card being performed (``i`` = 0) and an edge answering it (``i`` = 1):
  ``.on``, ``.player[+k]``, ``.card.<card>``, ``.by.<slot>``, ``.dice_due`` (over 6),
  ``.first_due`` (the highest die cost still due, over 6), ``.cards_due`` (over 6, capped),
  ``.target[+k]``, ``.target.<slot>``, ``.boost`` (the boosted die over 6), ``.attack_set``
  and ``.attack`` (the attack die over 6; 0 when declined), ``.defense_set``, ``.defense``,
  ``.attack_bonus``, ``.defense_bonus`` (over 6, capped), ``.windows_open`` and
  ``.windows[+k]`` (seats still to be offered a reaction window);
* ``dropping.<slot>``, ``refreshing.<slot>``: the character trimming its dice, or whose
  refresh is paid but not rolled; ``discarded``: end-of-turn discards made, over 2;
  ``discarding[+k]``, ``closing[+k]``, ``refresh_windows[+k]``: the seats still queued;
* ``winner[+k]``: the winner, once the game is over.

Never in it: another seat's hand, the order of any deck, the seed of the dice to come.
:func:`observation_of_view` computes the same numbers from a seat's view of the readable
rules (``state.view(seat)``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from meeple.core.kernels import kernel
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled.reading import (
    C_DAMAGE,
    CH_CARD,
    CH_DICE,
    CH_NDICE,
    CH_NWOUNDS,
    CH_REMOVED,
    CH_SPENT,
    CH_WOUNDS,
    CHARACTER_SIZE,
    ENERGY,
    G_CHARACTERS,
    LIFE,
    MAX_CARDS,
    MAX_DICE,
    MAX_DUE,
    MAX_KINDS,
    MAX_WOUNDS,
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
    PERF_SIZE,
    S_CLOSING,
    S_DECKN,
    S_DISCARDED,
    S_DISCARDING,
    S_DISCARDS,
    S_DISCN,
    S_DROPPING,
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
    S_STACK,
    S_TURN,
    S_WINNER,
    card_at,
    ch,
    find_step,
)
from meeple.games.squad_combat.content import DIE_FACES, PARTY_SIZE
from meeple.games.squad_combat.pieces import END_DISCARDS, SLOTS, STEP_KINDS
from meeple.games.squad_combat.rules import SquadCombatGame

compiled = kernel(nogil=True)

# -- the observation's layout: where each part starts, for n seats and K kinds of card ------
(
    A_SEAT,
    A_TURN,
    A_STEP,
    A_FIRST,
    A_LEAD,
    A_PHASE,
    A_PASSED,
    A_HAND,
    A_DECK,
    A_OWN,
    A_DISCARDS,
    A_WOUNDS,
    A_CHARS,
    A_STACK,
    A_DROPPING,
    A_REFRESHING,
    A_DISCARDED,
    A_DISCARDING,
    A_CLOSING,
    A_RWINDOWS,
    A_WINNER,
    A_SIZE,
) = range(22)
CHAR = 10
"""Numbers per character: removed, life, energy, wounds, then the six faces."""
# within a stack entry, after on, player[+k] (n) and card (K): the fixed part
E_BY, E_NDUE, E_FIRST_DUE, E_CARDS_DUE = 0, 3, 4, 5
E_TARGET = 6  # then target[+k] (n), then target.<slot> (3), then the dice and bonuses:
E_BOOST, E_ASET, E_ADIE, E_DSET, E_DDIE, E_ABONUS, E_DBONUS, E_WOPEN = range(8)
MAX_BONUS = 6


def layout(n: int, kinds: int) -> np.ndarray:
    """Where each part of the observation starts (``A_*``), for ``n`` seats and ``kinds``
    cards; ``A_SIZE`` holds the size."""
    sizes = {
        A_SEAT: n,
        A_TURN: 1,
        A_STEP: len(STEP_KINDS),
        A_FIRST: n,
        A_LEAD: n,
        A_PHASE: n,
        A_PASSED: n,
        A_HAND: n,
        A_DECK: n,
        A_OWN: kinds,
        A_DISCARDS: n * kinds,
        A_WOUNDS: n * kinds,
        A_CHARS: n * PARTY_SIZE * CHAR,
        A_STACK: fr.MAX_STACK * _entry(n, kinds),
        A_DROPPING: PARTY_SIZE,
        A_REFRESHING: PARTY_SIZE,
        A_DISCARDED: 1,
        A_DISCARDING: n,
        A_CLOSING: n,
        A_RWINDOWS: n,
        A_WINNER: n,
    }
    at = np.zeros(A_SIZE + 1, dtype=np.int64)
    for part in range(A_SIZE):
        at[part + 1] = at[part] + sizes[part]
    return at


def _entry(n: int, kinds: int) -> int:
    """Numbers per stack entry."""
    return 1 + n + kinds + E_TARGET + n + PARTY_SIZE + E_WOPEN + 1 + n


@compiled
def fill_observation(
    s: np.ndarray,
    g: np.ndarray,
    seat: int,
    at: np.ndarray,
    copies: np.ndarray,
    lengths: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write into ``out`` ``seat``'s observation of the compiled position ``s`` (``at``:
    :func:`layout`; ``copies``: :func:`deck_copies`; ``lengths``: each deck list's length)."""
    n = copies.shape[0]
    kinds = copies.shape[1]
    out[:] = 0.0
    out[at[A_SEAT] + seat] = 1.0
    limit = g[fr.G_TURN_LIMIT]
    out[at[A_TURN]] = min(s[S_TURN], limit) / limit
    kind, _ = find_step(s, g)
    out[at[A_STEP] + kind] = 1.0
    out[at[A_FIRST] + (s[S_ORDER] - seat) % n] = 1.0
    out[at[A_LEAD] + (s[S_LEAD] - seat) % n] = 1.0
    out[at[A_PHASE] + (s[S_PHASE] - seat) % n] = 1.0
    for q in range(n):
        rel = (q - seat) % n
        out[at[A_PASSED] + rel] = s[S_PASSED + q]
        length = max(1, lengths[q])
        out[at[A_HAND] + rel] = s[S_HANDN + q] / length
        out[at[A_DECK] + rel] = s[S_DECKN + q] / length
        # counts first, as whole numbers (exact in float32), then over the copies
        pile = at[A_DISCARDS] + rel * kinds
        for i in range(s[S_DISCN + q]):
            out[pile + s[S_DISCARDS + q * MAX_CARDS + i]] += 1.0
        for slot in range(PARTY_SIZE):
            c = ch(q, slot)
            base = at[A_CHARS] + (rel * PARTY_SIZE + slot) * CHAR
            who = s[c + CH_CARD] * CHARACTER_SIZE + G_CHARACTERS
            life, energy = g[who + LIFE], g[who + ENERGY]
            hurt = 0
            for w in range(s[c + CH_NWOUNDS]):
                k = s[c + CH_WOUNDS + 2 * w]
                owner = s[c + CH_WOUNDS + 2 * w + 1]
                hurt += g[card_at(k) + C_DAMAGE]
                out[at[A_WOUNDS] + ((owner - seat) % n) * kinds + k] += 1.0
            out[base] = 1.0 if s[c + CH_REMOVED] != 0 else 0.0
            out[base + 1] = max(0, life - hurt) / max(1, life)
            out[base + 2] = max(0, energy - s[c + CH_SPENT]) / max(1, energy)
            out[base + 3] = s[c + CH_NWOUNDS] / MAX_WOUNDS
            for d in range(s[c + CH_NDICE]):
                out[base + 3 + s[c + CH_DICE + d]] += 1.0
            for face in range(DIE_FACES):
                out[base + 4 + face] = out[base + 4 + face] / MAX_DICE
    for q in range(n):
        rel = (q - seat) % n
        for k in range(kinds):
            i = at[A_DISCARDS] + rel * kinds + k
            out[i] = out[i] / max(1, copies[q, k])
            i = at[A_WOUNDS] + rel * kinds + k
            out[i] = out[i] / max(1, copies[q, k])
    for k in range(kinds):
        out[at[A_OWN] + k] = s[S_HANDS + seat * MAX_KINDS + k] / max(1, copies[seat, k])
    size = 1 + n + kinds + E_TARGET + n + PARTY_SIZE + E_WOPEN + 1 + n
    for e in range(s[S_NSTACK]):
        p = S_STACK + e * PERF_SIZE
        base = at[A_STACK] + e * size
        out[base] = 1.0
        out[base + 1 + (s[p + P_PLAYER] - seat) % n] = 1.0
        out[base + 1 + n + s[p + P_CARD]] = 1.0
        fixed = base + 1 + n + kinds
        out[fixed + E_BY + s[p + P_SLOT]] = 1.0
        out[fixed + E_NDUE] = s[p + P_NDUE] / MAX_DUE
        if s[p + P_NDUE] > 0:
            out[fixed + E_FIRST_DUE] = s[p + P_DUE] / DIE_FACES
        out[fixed + E_CARDS_DUE] = min(s[p + P_CARDS_DUE], MAX_DUE) / MAX_DUE
        if s[p + P_TSEAT] >= 0:
            out[fixed + E_TARGET + (s[p + P_TSEAT] - seat) % n] = 1.0
            out[fixed + E_TARGET + n + s[p + P_TSLOT]] = 1.0
        dice = fixed + E_TARGET + n + PARTY_SIZE
        out[dice + E_BOOST] = max(0, s[p + P_BOOST]) / DIE_FACES
        out[dice + E_ASET] = 1.0 if s[p + P_ADIE] >= 0 else 0.0
        out[dice + E_ADIE] = max(0, s[p + P_ADIE]) / DIE_FACES
        out[dice + E_DSET] = 1.0 if s[p + P_DDIE] >= 0 else 0.0
        out[dice + E_DDIE] = max(0, s[p + P_DDIE]) / DIE_FACES
        out[dice + E_ABONUS] = min(max(0, s[p + P_ABONUS]), MAX_BONUS) / MAX_BONUS
        out[dice + E_DBONUS] = min(max(0, s[p + P_DBONUS]), MAX_BONUS) / MAX_BONUS
        out[dice + E_WOPEN] = 1.0 if s[p + P_NWIN] >= 0 else 0.0
        for w in range(s[p + P_NWIN]):
            out[dice + E_WOPEN + 1 + (s[p + P_WIN + w] - seat) % n] = 1.0
    if s[S_DROPPING] >= 0:
        out[at[A_DROPPING] + s[S_DROPPING]] = 1.0
    if s[S_REFRESHING] >= 0:
        out[at[A_REFRESHING] + s[S_REFRESHING]] = 1.0
    out[at[A_DISCARDED]] = min(s[S_DISCARDED], END_DISCARDS) / END_DISCARDS
    _queue(s, S_NDISCARDING, S_DISCARDING, seat, n, out[at[A_DISCARDING] :])
    _queue(s, S_NCLOSING, S_CLOSING, seat, n, out[at[A_CLOSING] :])
    _queue(s, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS, seat, n, out[at[A_RWINDOWS] :])
    if s[S_WINNER] >= 0:
        out[at[A_WINNER] + (s[S_WINNER] - seat) % n] = 1.0


@compiled
def _queue(s: np.ndarray, count: int, start: int, seat: int, n: int, out: np.ndarray) -> None:
    # 1 for each seat of a queue, from ``seat``'s side
    for i in range(s[count]):
        out[(s[start + i] - seat) % n] = 1.0


def deck_copies(game: SquadCombatGame) -> np.ndarray:
    """``(n, K)`` the copies of each card in each seat's deck list."""
    out = np.zeros((game.num_players, len(game.cards)), dtype=np.int64)
    for seat, deck in enumerate(game.decklists):
        for k in deck:
            out[seat, k] += 1
    return out


def observation_slots(game: SquadCombatGame) -> list[str]:
    """The name of every slot of an observation, in order."""
    n = game.num_players
    cards = game.card_keys
    seats = [f"[+{k}]" for k in range(n)]
    slots = [f"seat.{i}" for i in range(n)] + ["turn"]
    slots += [f"step.{kind.replace(' ', '-')}" for kind in STEP_KINDS]
    for part in ("first", "lead", "phase", "passed", "hand", "deck"):
        slots += [f"{part}{r}" for r in seats]
    slots += [f"own.{c}" for c in cards]
    for part in ("discards", "wounds"):
        slots += [f"{part}{r}.{c}" for r in seats for c in cards]
    faces = [f"dice.{v}" for v in range(1, DIE_FACES + 1)]
    for r in seats:
        for slot in SLOTS:
            at = f"char{r}.{slot}"
            slots += [f"{at}.{x}" for x in ("removed", "life", "energy", "wounds", *faces)]
    for e in range(fr.MAX_STACK):
        at = f"stack[{e}]"
        slots += [f"{at}.on", *(f"{at}.player{r}" for r in seats)]
        slots += [f"{at}.card.{c}" for c in cards] + [f"{at}.by.{x}" for x in SLOTS]
        slots += [f"{at}.{x}" for x in ("dice_due", "first_due", "cards_due")]
        slots += [f"{at}.target{r}" for r in seats] + [f"{at}.target.{x}" for x in SLOTS]
        slots += [
            f"{at}.{x}"
            for x in (
                "boost",
                "attack_set",
                "attack",
                "defense_set",
                "defense",
                "attack_bonus",
                "defense_bonus",
                "windows_open",
            )
        ]
        slots += [f"{at}.windows{r}" for r in seats]
    slots += [f"dropping.{x}" for x in SLOTS] + [f"refreshing.{x}" for x in SLOTS]
    slots += ["discarded"]
    for part in ("discarding", "closing", "refresh_windows", "winner"):
        slots += [f"{part}{r}" for r in seats]
    return slots


def observation_of_view(game: SquadCombatGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`SquadCombatBatch` for ``seat``, computed from that seat's
    view of the readable rules (``state.view(seat)``): the same numbers, by another road."""
    n, kinds = game.num_players, len(game.cards)
    at = layout(n, kinds)
    copies = deck_copies(game)
    lengths = [max(1, len(d)) for d in game.decklists]
    index = game.content.card_index
    out = np.zeros(int(at[A_SIZE]), dtype=np.float32)

    def rel(q: int) -> int:
        return (q - seat) % n

    def over(count: int, whole: int) -> float:
        return count / max(1, whole)

    out[at[A_SEAT] + seat] = 1.0
    limit = game.options.turn_limit
    out[at[A_TURN]] = min(view["turn"], limit) / limit
    out[at[A_STEP] + STEP_KINDS.index(view["step"]["kind"])] = 1.0
    out[at[A_FIRST] + rel(view["order"][0])] = 1.0
    out[at[A_LEAD] + rel(view["lead"])] = 1.0
    out[at[A_PHASE] + rel(view["phase"])] = 1.0
    under: Counter[tuple[int, int]] = Counter(
        (w["owner"], index[w["card"]])
        for party in view["characters"]
        for ch_view in party
        for w in ch_view["wounds"]
    )
    for q in range(n):
        out[at[A_PASSED] + rel(q)] = float(view["passed"][q])
        out[at[A_HAND] + rel(q)] = view["hand_sizes"][q] / lengths[q]
        out[at[A_DECK] + rel(q)] = view["deck_sizes"][q] / lengths[q]
        pile = Counter(index[c] for c in view["discards"][q])
        for k in range(kinds):
            out[at[A_DISCARDS] + rel(q) * kinds + k] = over(pile[k], copies[q, k])
            out[at[A_WOUNDS] + rel(q) * kinds + k] = over(under[q, k], copies[q, k])
        for slot, ch_view in enumerate(view["characters"][q]):
            base = at[A_CHARS] + (rel(q) * PARTY_SIZE + slot) * CHAR
            life, energy = ch_view["life"], ch_view["energy"]
            out[base] = float(ch_view["removed"])
            out[base + 1] = max(0, life - ch_view["damage"]) / max(1, life)
            out[base + 2] = max(0, energy - ch_view["spent"]) / max(1, energy)
            out[base + 3] = len(ch_view["wounds"]) / MAX_WOUNDS
            for face in range(1, DIE_FACES + 1):
                out[base + 3 + face] = ch_view["dice"].count(face) / MAX_DICE
    held = Counter(index[c] for c in view["hand"])
    for k in range(kinds):
        out[at[A_OWN] + k] = over(held[k], copies[seat, k])
    size = _entry(n, kinds)
    for e, perf in enumerate(view["stack"]):
        base = int(at[A_STACK]) + e * size
        out[base] = 1.0
        out[base + 1 + rel(perf["player"])] = 1.0
        out[base + 1 + n + index[perf["card"]]] = 1.0
        fixed = base + 1 + n + kinds
        out[fixed + E_BY + SLOTS.index(perf["performer"][1])] = 1.0
        due = perf["dice_due"]
        out[fixed + E_NDUE] = len(due) / MAX_DUE
        if due:
            out[fixed + E_FIRST_DUE] = due[0] / DIE_FACES
        out[fixed + E_CARDS_DUE] = min(perf["cards_due"], MAX_DUE) / MAX_DUE
        if perf["target"] is not None:
            out[fixed + E_TARGET + rel(int(perf["target"][0]))] = 1.0
            out[fixed + E_TARGET + n + SLOTS.index(perf["target"][1])] = 1.0
        dice = fixed + E_TARGET + n + PARTY_SIZE
        out[dice + E_BOOST] = (perf["boost_die"] or 0) / DIE_FACES
        out[dice + E_ASET] = perf["attack_die"] is not None
        out[dice + E_ADIE] = (perf["attack_die"] or 0) / DIE_FACES
        out[dice + E_DSET] = perf["defense_die"] is not None
        out[dice + E_DDIE] = (perf["defense_die"] or 0) / DIE_FACES
        out[dice + E_ABONUS] = min(max(0, perf["attack_bonus"]), MAX_BONUS) / MAX_BONUS
        out[dice + E_DBONUS] = min(max(0, perf["defense_bonus"]), MAX_BONUS) / MAX_BONUS
        out[dice + E_WOPEN] = perf["windows"] is not None
        for q in perf["windows"] or ():
            out[dice + E_WOPEN + 1 + rel(q)] = 1.0
    if view["dropping"] >= 0:
        out[at[A_DROPPING] + view["dropping"]] = 1.0
    if view["refreshing"] >= 0:
        out[at[A_REFRESHING] + view["refreshing"]] = 1.0
    out[at[A_DISCARDED]] = min(view["discarded"], END_DISCARDS) / END_DISCARDS
    for part, key in (
        (A_DISCARDING, "discarding"),
        (A_CLOSING, "closing"),
        (A_RWINDOWS, "refresh_windows"),
    ):
        for q in view[key]:
            out[at[part] + rel(q)] = 1.0
    winner = view["result"]["winner"]
    if winner is not None:
        out[at[A_WINNER] + rel(winner)] = 1.0
    return out
