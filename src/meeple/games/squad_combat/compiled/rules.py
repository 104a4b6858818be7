"""Squad Combat compiled: the same rules as ``../rules.py``, on small integer arrays, for search.

:mod:`meeple.games.squad_combat.rules` (with its reading, turns, combat, windows and edits
modules) is the reference. :mod:`.reading` and :mod:`.transitions` beside this module write
the same rules a second time so that numba compiles them; this module turns the engine's
states and options into the arrays they play on. A differential test plays thousands of
random games through both and compares every state, every list of legal actions and every
outcome (``tests/games/squad_combat/test_fast.py``).

Two arrays, both ``int32``:

* the **game** (:func:`game_array`): the options, and the content as tables (each card's
  kind, timing, effect, amount, hit, damage and cost; each character's Life, Energy, dice pool
  and refresh cost; which character may perform which card). Built once per game.
* the **position** (:func:`encode`): the fields of a :class:`SquadCombatState` except the
  seed and the log (the :mod:`.reading` docstring lists where each lies). Copying it
  is one ``memcpy`` of about 5 kB.

Every option is served (:data:`SERVED`; a game with another is refused in one line, not
played by rules that ignore it). Content must fit the arrays' fixed sizes (:data:`LIMITS`); content
that does not is refused with a one-line :class:`ValueError` naming the limit.

Chance (dice refreshes and reshuffles) comes from numba's own seeded generator in
:func:`playouts` and :func:`playout`, drawn the way Python's :class:`random.Random` draws it
(a die is ``1 + below(6)``, a shuffle is Python's Fisher-Yates); :func:`apply` can instead
take a *tape* of those draws, which is how the differential test makes the compiled rules
roll exactly what the engine rolled from the game's seed, or a *stream tape* holding the
seeds of the engine's own streams for the next random events (:func:`.reading.chance_event`),
which is how the batched rules (:mod:`.batch`) roll what the engine would.

Compiling costs about 28 s of CPU once (measured: 25 s for the first :func:`playouts`, 3 s
more for :func:`apply` and :func:`legal_actions`); numba caches the machine code in the game
package's ``__pycache__`` (:func:`meeple.core.kernels.kernel`), and later processes load it
in about a second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meeple.core.kernels import encoder, per_game
from meeple.core.options import unserved_refusal
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled import transitions
from meeple.games.squad_combat.pieces import (
    LAST_STANDING,
    STALEMATE,
    Character,
    Performance,
    Wound,
    turn_limit_reached,
)

if TYPE_CHECKING:
    from meeple.games.squad_combat.rules import SquadCombatGame, SquadCombatState

SERVED = frozenset(
    {
        "players",
        "decks",
        "content",
        "hand_size",
        "first",
        "lead",
        "reactions",
        "reaction_prompts",
        "edge_windows",
        "end_draws",
        "turn_limit",
        "auto_steps",
    }
)
"""The options these rules are written for: :func:`game_array` refuses a game with another."""

LIMITS = {
    "kinds of card in the content": fr.MAX_KINDS,
    "characters in the content": fr.MAX_CHARACTERS,
    "cards in one deck": fr.MAX_CARDS,
    "die costs on one card": fr.MAX_DUE,
    "wounds one character can carry": fr.MAX_WOUNDS,
}
"""What the compiled rules' fixed-size arrays hold; content beyond these is refused."""

_KINDS = {"attack": fr.ATTACK, "action": fr.ACTION, "edge": fr.EDGE}
_TIMINGS = {"anytime": fr.T_ANYTIME, "defending": fr.T_DEFENDING, "attacking": fr.T_ATTACKING}
_EFFECTS = {
    None: fr.E_NONE,
    "heal": fr.E_HEAL,
    "boost": fr.E_BOOST,
    "energy": fr.E_ENERGY,
    "draw": fr.E_DRAW,
    "defense": fr.E_DEFENSE,
    "attack": fr.E_ATTACK,
}
_ENDINGS = {
    "last player": fr.END_LAST,
    "no character": fr.END_STALEMATE,
    "turn limit": fr.END_LIMIT,
}
"""How each reason a game ends begins (the engine's wording), and its code in the array."""


# -- the game -------------------------------------------------------------------------------
def _limit_problem(game: SquadCombatGame) -> str | None:
    """Which of :data:`LIMITS` the game's content exceeds, as a sentence; None if it fits."""
    content = game.content
    attacks = [c.damage for c in content.cards if c.kind == "attack" and c.damage]
    lightest = min(attacks, default=1)
    # Wounds below Life, then the last one; and never more than the attack cards in play.
    in_play = sum(game.cards[k].kind == "attack" for deck in game.decklists for k in deck)
    wounds = min(in_play, max((ch.life - 1) // lightest + 1 for ch in content.characters))
    needs = {
        "kinds of card in the content": len(content.cards),
        "characters in the content": len(content.characters),
        "cards in one deck": max(len(d) for d in game.decklists),
        "die costs on one card": max(len(c.cost.dice) for c in content.cards),
        "wounds one character can carry": wounds,
    }
    for what, need in needs.items():
        if need > LIMITS[what]:
            return (
                f"this content needs {need} {what}; the compiled rules hold at most {LIMITS[what]}"
            )
    return None


@per_game
def game_array(game: SquadCombatGame) -> np.ndarray:
    """The options and content tables the compiled rules read (see :mod:`.transitions`),
    worked out once per game object: not per equal game, since games are equal by their
    options, and two made from one content folder edited in between hold different content.

    Raises ValueError (one line) for content beyond :data:`LIMITS`, and for an option these
    rules are not written for (:data:`SERVED`).
    """
    refusal = unserved_refusal(game.options, SERVED, "compiled Squad Combat rules")
    if refusal is not None:
        raise ValueError(refusal)
    problem = _limit_problem(game)
    if problem is not None:
        raise ValueError(f"squad-combat fast rules: {problem}")
    opts = game.options
    g = np.zeros(fr.G_SIZE, dtype=np.int32)
    g[fr.G_PLAYERS] = game.num_players
    g[fr.G_HAND_SIZE] = opts.hand_size
    g[fr.G_LEAD_ROTATE] = opts.lead == "rotate"
    g[fr.G_ATTACKER_FIRST] = opts.reactions == "attacker-first"
    g[fr.G_ASK_ONLY_CHOICES] = opts.reaction_prompts == "playable"
    g[fr.G_ANYTIME] = opts.edge_windows == "anytime"
    g[fr.G_ALL_AT_ONCE] = opts.end_draws == "all-at-once"
    g[fr.G_TURN_LIMIT] = opts.turn_limit
    g[fr.G_TAKE_SINGLE] = opts.auto_steps
    g[fr.G_KINDS] = len(game.cards)
    for k, card in enumerate(game.cards):
        row = fr.G_CARDS + k * fr.CARD_SIZE
        g[row + fr.C_KIND] = _KINDS[card.kind]
        g[row + fr.C_TIMING] = fr.T_ACTION if card.kind != "edge" else _TIMINGS[card.timing or ""]
        g[row + fr.C_EFFECT] = _EFFECTS[card.effect]
        g[row + fr.C_AMOUNT] = card.amount or 0
        g[row + fr.C_HIT] = card.hit or 0
        g[row + fr.C_DAMAGE] = card.damage or 0
        g[row + fr.C_ENERGY] = card.cost.energy
        g[row + fr.C_CARDS] = card.cost.cards
        g[row + fr.C_NDICE] = len(card.cost.dice)
        for i, value in enumerate(card.cost.dice):
            g[row + fr.C_DICE + i] = value
    for c, ch in enumerate(game.characters):
        row = fr.G_CHARACTERS + c * fr.CHARACTER_SIZE
        g[row : row + fr.CHARACTER_SIZE] = (ch.life, ch.energy, ch.dice_pool, ch.refresh)
        for k in range(len(game.cards)):
            g[fr.G_MATCHES + c * fr.MAX_KINDS + k] = game.matches[c][k]
    g.flags.writeable = False
    return g


# -- positions ------------------------------------------------------------------------------
def _ending(reason: str | None) -> int:
    if reason is None:
        return fr.END_NONE
    for start, code in _ENDINGS.items():
        if reason.startswith(start):
            return code
    raise ValueError(f"squad-combat fast rules: unknown ending {reason!r}")


def encode(state: SquadCombatState) -> np.ndarray:
    """The position array of a rules-engine state (every field but the seed and the log):
    ValueError for options or content the compiled rules do not serve, PositionError for a
    state they cannot hold."""
    game_array(state.game)  # the configuration's refusal, before the state's
    return _held(state)


@encoder
def _held(state: SquadCombatState) -> np.ndarray:
    return np.array(encode_list(state), dtype=np.int32)


def encode_list(state: SquadCombatState) -> list[int]:
    """:func:`encode` as a list: ``array.tolist() == encode_list(state)`` is the cheapest
    full comparison (the differential test makes one per state)."""
    game = state.game
    game_array(game)  # refuses content beyond the limits
    s = [0] * fr.S_SIZE
    s[: fr.S_ENDED + 1] = (
        *(state.rolls, state.turn, state.lead, state.phase, state.dropping, state.discarded),
        *(state.refreshing, -1 if state.winner is None else state.winner, _ending(state.ended)),
    )
    s[fr.S_NSTACK] = len(state.stack)
    s[fr.S_ORDER : fr.S_ORDER + fr.MAX_SEATS] = _padded(state.order)
    s[fr.S_PASSED : fr.S_PASSED + len(state.passed)] = state.passed
    _queue(s, fr.S_NDISCARDING, fr.S_DISCARDING, state.discarding)
    _queue(s, fr.S_NCLOSING, fr.S_CLOSING, state.closing)
    _queue(s, fr.S_NREFRESH_WINDOWS, fr.S_REFRESH_WINDOWS, state.refresh_windows)
    for seat, party in enumerate(state.parties):
        for slot, ch in enumerate(party):
            c = fr.S_CHARS + (seat * 3 + slot) * fr.CH_SIZE
            s[c : c + fr.CH_DICE + len(ch.dice)] = (
                *(ch.card, ch.spent, ch.removed, len(ch.dice)),
                *ch.dice,
            )
            w = c + fr.CH_NWOUNDS
            s[w : w + 1 + 2 * len(ch.wounds)] = (len(ch.wounds), *(v for x in ch.wounds for v in x))
    for i, perf in enumerate(state.stack):
        p = fr.S_STACK + i * fr.PERF_SIZE
        s[p : p + fr.P_DUE + len(perf.dice_due)] = (
            *(perf.player, perf.card, perf.slot, len(perf.dice_due)),
            *perf.dice_due,
        )
        s[p + fr.P_CARDS_DUE : p + fr.P_NWIN] = (
            *(perf.cards_due, *(perf.target or (-1, -1))),
            *(-1 if v is None else v for v in (perf.boost_die, perf.attack_die, perf.defense_die)),
            *(perf.attack_bonus, perf.defense_bonus),
        )
        _queue(s, p + fr.P_NWIN, p + fr.P_WIN, perf.windows)
    for seat in range(game.num_players):
        hand = fr.S_HANDS + seat * fr.MAX_KINDS
        for card in state.hands[seat]:
            s[hand + card] += 1
        s[fr.S_HANDN + seat] = len(state.hands[seat])
        for start, count, pile in (
            (fr.S_DECKS, fr.S_DECKN, state.decks[seat]),
            (fr.S_DISCARDS, fr.S_DISCN, state.discards[seat]),
        ):
            s[count + seat] = len(pile)
            s[start + seat * fr.MAX_CARDS : start + seat * fr.MAX_CARDS + len(pile)] = pile
    return s


def _queue(s: list[int], count: int, start: int, seats: tuple[int, ...] | None) -> None:
    """Write a queue of seats: its length (-1 for None), then the seats padded with -1."""
    s[count] = -1 if seats is None else len(seats)
    s[start : start + fr.MAX_SEATS] = _padded(seats or ())


def _padded(seats: tuple[int, ...]) -> tuple[int, ...]:
    """Seats padded with -1 to ``MAX_SEATS``."""
    return (*seats, *(-1,) * (fr.MAX_SEATS - len(seats)))


def _seats(s: np.ndarray, count: int, start: int) -> tuple[int, ...] | None:
    n = int(s[count])
    return None if n < 0 else tuple(int(v) for v in s[start : start + n])


def decode(game: SquadCombatGame, s: np.ndarray, seed: int = 0) -> SquadCombatState:
    """The rules-engine state of a position array (the inverse of :func:`encode`), with
    ``seed`` for the chance to come and an empty log (the array keeps neither); the reason a
    game ended is written as the engine writes it."""
    from meeple.games.squad_combat.rules import SquadCombatState

    p = game.num_players
    v = [int(x) for x in s]
    parties = []
    for seat in range(p):
        party = []
        for slot in range(3):
            at = fr.S_CHARS + (seat * 3 + slot) * fr.CH_SIZE
            wounds = tuple(
                Wound(v[at + fr.CH_WOUNDS + 2 * i], v[at + fr.CH_WOUNDS + 2 * i + 1])
                for i in range(v[at + fr.CH_NWOUNDS])
            )
            dice = tuple(v[at + fr.CH_DICE : at + fr.CH_DICE + v[at + fr.CH_NDICE]])
            party.append(
                Character(v[at + fr.CH_CARD], v[at + fr.CH_SPENT], dice, wounds, bool(v[at + 2]))
            )
        parties.append(tuple(party))
    stack = []
    for i in range(v[fr.S_NSTACK]):
        at = fr.S_STACK + i * fr.PERF_SIZE

        def opt(value: int) -> int | None:
            return None if value < 0 else value

        stack.append(
            Performance(
                v[at + fr.P_PLAYER],
                v[at + fr.P_CARD],
                v[at + fr.P_SLOT],
                tuple(v[at + fr.P_DUE : at + fr.P_DUE + v[at + fr.P_NDUE]]),
                v[at + fr.P_CARDS_DUE],
                None if v[at + fr.P_TSEAT] < 0 else (v[at + fr.P_TSEAT], v[at + fr.P_TSLOT]),
                opt(v[at + fr.P_BOOST]),
                opt(v[at + fr.P_ADIE]),
                opt(v[at + fr.P_DDIE]),
                v[at + fr.P_ABONUS],
                v[at + fr.P_DBONUS],
                _seats(s, at + fr.P_NWIN, at + fr.P_WIN),
            )
        )
    hands = tuple(
        tuple(
            k for k in range(fr.MAX_KINDS) for _ in range(v[fr.S_HANDS + seat * fr.MAX_KINDS + k])
        )
        for seat in range(p)
    )

    def pile(start: int, n: int, seat: int) -> tuple[int, ...]:
        at = start + seat * fr.MAX_CARDS
        return tuple(v[at : at + v[n + seat]])

    ended = {
        fr.END_NONE: None,
        fr.END_LAST: LAST_STANDING,
        fr.END_STALEMATE: STALEMATE,
        fr.END_LIMIT: turn_limit_reached(game.options.turn_limit),
    }[v[fr.S_ENDED]]
    return SquadCombatState(
        game=game,
        seed=seed,
        rolls=v[fr.S_ROLLS],
        order=tuple(v[fr.S_ORDER : fr.S_ORDER + p]),
        turn=v[fr.S_TURN],
        lead=v[fr.S_LEAD],
        phase=v[fr.S_PHASE],
        passed=tuple(bool(x) for x in v[fr.S_PASSED : fr.S_PASSED + p]),
        parties=tuple(parties),
        hands=hands,
        decks=tuple(pile(fr.S_DECKS, fr.S_DECKN, seat) for seat in range(p)),
        discards=tuple(pile(fr.S_DISCARDS, fr.S_DISCN, seat) for seat in range(p)),
        stack=tuple(stack),
        dropping=v[fr.S_DROPPING],
        discarding=_seats(s, fr.S_NDISCARDING, fr.S_DISCARDING) or (),
        discarded=v[fr.S_DISCARDED],
        closing=_seats(s, fr.S_NCLOSING, fr.S_CLOSING) or (),
        refreshing=v[fr.S_REFRESHING],
        refresh_windows=_seats(s, fr.S_NREFRESH_WINDOWS, fr.S_REFRESH_WINDOWS) or (),
        winner=None if v[fr.S_WINNER] < 0 else v[fr.S_WINNER],
        ended=ended,
    )


# -- playing --------------------------------------------------------------------------------
NO_TAPE = np.zeros(0, dtype=np.int32)
"""The tape that says: draw chance from numba's generator."""


def to_act(s: np.ndarray, g: np.ndarray) -> int:
    """The seat that decides now; -1 once the game is over."""
    return int(fr.find_step(s, g)[1])


def legal_actions(s: np.ndarray, g: np.ndarray, out: np.ndarray) -> int:
    """Write the seat to act's legal action ids (the engine's ids, in the engine's order)
    into ``out`` (a :func:`moves_buffer`); return how many."""
    return int(fr.legal(s, g, out))


def moves_buffer() -> np.ndarray:
    """A buffer long enough for any list of legal actions of this game."""
    return np.empty(fr.MAX_ACTIONS, dtype=np.int32)


def apply(s: np.ndarray, g: np.ndarray, action: int, tape: np.ndarray = NO_TAPE) -> None:
    """Take legal ``action`` for the seat to act, in place, and carry on to the next real
    decision as the engine does. Chance comes from ``tape`` (``[1, n, value, n, value, ...]``:
    each draw Python's ``Random._randbelow(n)`` made, the first read at index 1) or, when it
    is empty, from numba's generator."""
    transitions.apply(s, g, action, tape)


def playouts(state: SquadCombatState, games: int, seed: int = 0) -> tuple[int, ...]:
    """How ``games`` uniformly random games from ``state`` end: each seat's wins, then the
    draws (stalemates and the turn limit), one count per seat plus one. Chance still to come
    is drawn from ``seed``, not the state's: the same arguments give the same counts."""
    counts = transitions.random_games(encode(state), game_array(state.game), games, seed)
    return tuple(int(c) for c in counts)


def playout(state: SquadCombatState, seed: int) -> tuple[float, ...]:
    """Each seat's returns after one uniformly random game from ``state`` (seeded), as
    :attr:`SquadCombatState.returns` gives them: a search's rollout on the compiled rules.
    ``state`` is the true state (a determinization, for a seat that does not see it all)."""
    counts = playouts(state, 1, seed)
    n = state.game.num_players
    if counts[n]:
        return (0.0,) * n
    return tuple(1.0 if counts[seat] else -1.0 for seat in range(n))
