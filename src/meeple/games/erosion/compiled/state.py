"""Erosion's compiled position: where everything lies in its array, and the moves of cards
between piles and of steps in the agenda (numba; the rules are in :mod:`.transitions`).

A position ``s`` is one ``int16`` array: ``4n + 5`` card piles first (the WX, H and F
decks, top card last; each seat's hand, sorted; each mountain, top rock first; each delta,
sorted; each discard pile; the River; the cards whose 'upon uplift' architecture has fired,
sorted, kept only under ``uplift_architecture=once``), each a count then one slot per
process card (unused slots -1); then the scalars (``S_*``, from ``R[R_SCALARS]``) and the
other fields (``R[R_WEATHERED]`` ...: per seat, per Atmosphere, per legend card), then the
agenda: up to :data:`AGENDA_SLOTS` steps (more where a card's 'upon uplift' architecture
adds more, see :func:`.rules.layout`) of (kind, seat, number, card), front first; a
``trigger`` step, which has no card, holds its age's code (:data:`AGE_ANY` ...) there.
``R`` is the game's ``int32`` table (:func:`.rules.layout`): its header (``R_*``) says where
each part lies and holds the options, then the card catalogue and the action ids.
"""

from __future__ import annotations

import numpy as np

from meeple.core.kernels import kernel

compiled = kernel(nogil=True)

# -- the table R: header keys ---------------------------------------------------------------
R_PLAYERS, R_ERAS, R_CARDS, R_ATMS, R_BEFORE_UPLIFT, R_DRAW_ONE, R_HIGH, R_HAND = range(8)
R_ROCK_TYPES, R_SCALARS, R_WEATHERED, R_RUNOUT, R_SCORES = range(8, 13)
R_TIE_SEATS, R_TIE_CARDS, R_TIE_GUESSES, R_WINNERS, R_CHANCE_SEATS = range(13, 18)
R_AGED, R_ERA_SCORES, R_AGENDA, R_SIZE, R_NUM_ACTIONS = range(18, 23)
# per-card tables (deck, rock type, Mohs, fossil, process kind, number, hardness, listed
# types as a bit mask, elevation icon), then per-Atmosphere tables
R_DECK, R_ROCK, R_MOHS, R_FOSSIL, R_KIND, R_N, R_HARD, R_TYPES, R_ICON = range(23, 32)
R_UNDER, R_NORMAL, R_AGE, R_PARTS, R_TABLE, R_TABLE_X, R_MIX = range(32, 39)
# Advanced Rules and the Montane Legend Variant: options, fields, then tables (each card's
# architecture: kind, two numbers and its process's name as a number; each card's rock
# class; the ages 'upon uplift' triggers list; each Atmosphere's age; each legend card's
# height in rocks, two rock types and points; each challenge card's kind, number, rock
# class and points)
R_ADVANCED, R_ONCE, R_LEGEND, R_LEGENDS_N, R_TRIGGERED, R_LEGENDS, R_CHALLENGES = range(41, 48)
R_EFFECT, R_EFFECT_A, R_EFFECT_B, R_PROCESS, R_CLASS, R_ATM_AGE, R_AGE_LIST = range(48, 55)
R_LEGEND_HEIGHT, R_LEGEND_ROCK_A, R_LEGEND_ROCK_B, R_LEGEND_POINTS = range(55, 59)
R_CHALLENGE_KIND, R_CHALLENGE_N, R_CHALLENGE_CLASS, R_CHALLENGE_POINTS = range(59, 63)
R_TABLE_Y = 63
"""The action table's size in an action's last two numbers (counts: 7, more where a card's
count and an architecture bonus together pass 6)."""
R_MANUAL = 64
"""1 under ``auto_steps=false``: a step with a single possible choice is asked too."""
R_PASS_OVER, R_BELOW = 65, 66
"""1 under ``typed_weathering=pass-over``; where each card's flag lies: 1 for a weathered
rock below an unweathered one (``weathered_below``; only pass-over leaves any)."""
R_HEADER = 67
R_TABLES = (
    R_DECK,
    R_ROCK,
    R_MOHS,
    R_FOSSIL,
    R_KIND,
    R_N,
    R_HARD,
    R_TYPES,
    R_ICON,
    R_UNDER,
    R_NORMAL,
    R_AGE,
    R_EFFECT,
    R_EFFECT_A,
    R_EFFECT_B,
    R_PROCESS,
    R_CLASS,
    R_AGE_LIST,
    R_ATM_AGE,
    R_LEGEND_HEIGHT,
    R_LEGEND_ROCK_A,
    R_LEGEND_ROCK_B,
    R_LEGEND_POINTS,
    R_CHALLENGE_KIND,
    R_CHALLENGE_N,
    R_CHALLENGE_CLASS,
    R_CHALLENGE_POINTS,
)

# -- a position's scalars, from R[R_SCALARS] -------------------------------------------------
S_ERA, S_CURRENT, S_PASSES, S_RUNOUT_ON, S_OVER, S_TURN, S_REASON = range(7)
S_TIE_PURPOSE, S_TIE_N, S_WINNERS_N, S_ERAS_SCORED, S_AGENDA_N, S_CHANCE, S_CHANCE_N = range(7, 14)
S_TRIGGERED_N, S_SHOWN = range(14, 16)
SCALARS = 16
AGENDA_SLOTS = 8
"""At most: a guess per seat and the tie's settling; a turn needs four (and three, with
the steps one uplifted card's 'upon uplift' architecture adds)."""

CHANCE_TIE_START, CHANCE_TIE_WIN, CHANCE_NEW_ERA = 1, 2, 3
"""The chance a position waits for: the tie-breaker's draws (for the start or the win), or
the next era (its start among ``CHANCE_SEATS`` and its shuffled decks)."""

STEP_NAMES = (
    "",
    "draw",
    "uplift",
    "trigger",
    "fault",
    "transport",
    "pay",
    "refill",
    "end",
    "guess",
    "choose",
    "settle_tie",
)
"""The agenda's step kinds by code (:class:`~.pieces.Step`)."""
K_DRAW, K_UPLIFT, K_TRIGGER, K_FAULT, K_TRANSPORT, K_PAY = range(1, 7)
K_REFILL, K_END, K_GUESS, K_CHOOSE, K_SETTLE_TIE = range(7, 12)

KIND_WEATHER_N, KIND_WEATHER_TYPES, KIND_HILLSLOPE, KIND_TRANSPORT = range(4)
ICON_NONE, ICON_HILL, ICON_MOUNTAIN = range(3)

EFFECT_NAMES = (
    "",
    "uplift_trigger",
    "uplift_hillslope",
    "score_bonus",
    "draw_limit_bonus",
    "resists_icon",
    "resists_except",
    "weather_bonus",
    "counts_as_high",
    "transport_bonus_if_high",
)
"""Architecture kinds by code (:data:`~meeple.games.erosion.cards.Effect`); 0: none."""
E_NONE, E_UPLIFT_TRIGGER, E_UPLIFT_HILLSLOPE, E_SCORE_BONUS, E_DRAW_LIMIT_BONUS = range(5)
E_RESISTS_ICON, E_RESISTS_EXCEPT, E_WEATHER_BONUS, E_COUNTS_AS_HIGH, E_TRANSPORT_BONUS = range(
    5, 10
)
AGE_NAMES = ("any", "hypoxic", "ice", "arid")
"""A trigger's age by code (:data:`~meeple.games.erosion.cards.Age`, and ``any``)."""
AGE_ANY = 0
LEGEND_OFF, LEGEND_BASIC, LEGEND_ADVANCED = range(3)

CHALLENGE_NAMES = (
    "height_at_least",
    "delta_at_least",
    "weathered_fossils_at_least",
    "class_in_mountain_at_least",
    "unweathered_at_least",
    "capstone_unweathered",
)
"""Challenge conditions by code (:data:`~meeple.games.erosion.cards.Challenge`)."""
C_HEIGHT, C_DELTA, C_FOSSILS, C_CLASS, C_UNWEATHERED, C_CAPSTONE = range(6)

A_PASS, A_WEATHER, A_HILLSLOPE, A_FLUVIAL, A_DRAW, A_REDRAW, A_UPLIFT = range(7)
A_TRANSPORT, A_PAY, A_TRIGGER, A_FAULT, A_GUESS, A_CHOOSE = range(7, 13)
A_KINDS = 13
PURPOSE_START, PURPOSE_WIN = 1, 2
"""What a tie is broken for (``Tie.purpose``): the next era's start, or the win."""


# -- piles ----------------------------------------------------------------------------------
@compiled
def base(R: np.ndarray, pile: int) -> int:
    """Where a pile starts (its count; its cards follow)."""
    return pile * (R[R_CARDS] + 1)


@compiled
def hand(R: np.ndarray, p: int) -> int:
    """The pile number of a seat's hand (decks are 0, 1, 2)."""
    return 3 + p


@compiled
def mountain(R: np.ndarray, p: int) -> int:
    """The pile number of a seat's mountain."""
    return 3 + R[R_PLAYERS] + p


@compiled
def delta(R: np.ndarray, p: int) -> int:
    """The pile number of a seat's delta."""
    return 3 + 2 * R[R_PLAYERS] + p


@compiled
def discards(R: np.ndarray, p: int) -> int:
    """The pile number of a seat's discard pile."""
    return 3 + 3 * R[R_PLAYERS] + p


@compiled
def river(R: np.ndarray) -> int:
    """The pile number of the River."""
    return 3 + 4 * R[R_PLAYERS]


@compiled
def fired(R: np.ndarray) -> int:
    """The pile number of the cards whose 'upon uplift' architecture has fired."""
    return 4 + 4 * R[R_PLAYERS]


@compiled
def weathered_rocks(s: np.ndarray, R: np.ndarray, p: int) -> tuple[int, int]:
    """How many rocks of the seat's mountain are weathered, the run at the top and those
    below an unweathered rock, and how many of them bear a fossil (``weathered_rocks``)."""
    b = base(R, mountain(R, p))
    top = s[R[R_WEATHERED] + p]
    count, fossils = 0, 0
    for i in range(s[b]):
        rock = s[b + 1 + i]
        if i < top or s[R[R_BELOW] + rock] == 1:
            count += 1
            fossils += R[R[R_FOSSIL] + rock]
    return count, fossils


@compiled
def size(s: np.ndarray, R: np.ndarray, pile: int) -> int:
    """How many cards a pile holds."""
    return s[base(R, pile)]


@compiled
def push(s: np.ndarray, R: np.ndarray, pile: int, card: int) -> None:
    """Put a card at the end of a pile (a deck's top, a mountain's base)."""
    b = base(R, pile)
    s[b + 1 + s[b]] = card
    s[b] += 1


@compiled
def pop(s: np.ndarray, R: np.ndarray, pile: int) -> int:
    """Take the card at the end of a pile (a deck's top card)."""
    b = base(R, pile)
    k = s[b]
    card = s[b + k]
    s[b + k] = -1
    s[b] = k - 1
    return card


@compiled
def holds(s: np.ndarray, R: np.ndarray, pile: int, card: int) -> bool:
    """Whether a pile holds a card."""
    b = base(R, pile)
    for i in range(s[b]):  # noqa: SIM110 -- numba compiles no generator
        if s[b + 1 + i] == card:
            return True
    return False


@compiled
def remove(s: np.ndarray, R: np.ndarray, pile: int, card: int) -> None:
    """Take a card out of a pile, keeping the others' order (``pieces.without``)."""
    b = base(R, pile)
    k = s[b]
    i = 1
    while s[b + i] != card:
        i += 1
    while i < k:
        s[b + i] = s[b + i + 1]
        i += 1
    s[b + k] = -1
    s[b] = k - 1


@compiled
def insert(s: np.ndarray, R: np.ndarray, pile: int, card: int) -> None:
    """Put a card into a sorted pile (a hand, a delta) in its place."""
    b = base(R, pile)
    i = b + s[b]
    while i > b and s[i] > card:
        s[i + 1] = s[i]
        i -= 1
    s[i + 1] = card
    s[b] += 1


@compiled
def clear(s: np.ndarray, R: np.ndarray, pile: int) -> None:
    """Empty a pile."""
    b = base(R, pile)
    s[b + 1 : b + 1 + s[b]] = -1
    s[b] = 0


# -- actions --------------------------------------------------------------------------------
@compiled
def action_id(R: np.ndarray, kind: int, x: int, y: int, z: int) -> int:
    """The engine's id of an action from its parts (-1 for none)."""
    depth = R[R_TABLE_Y]
    return R[R[R_TABLE] + ((kind * R[R_TABLE_X] + x) * depth + y) * depth + z]


# -- the agenda -----------------------------------------------------------------------------
@compiled
def agenda_pop(s: np.ndarray, R: np.ndarray) -> None:
    """Drop the front step (``_pop``)."""
    sc, a = R[R_SCALARS], R[R_AGENDA]
    k = s[sc + S_AGENDA_N]
    for i in range(a, a + 4 * (k - 1)):
        s[i] = s[i + 4]
    s[a + 4 * (k - 1) : a + 4 * k] = -1
    s[sc + S_AGENDA_N] = k - 1


@compiled
def agenda_push(s: np.ndarray, R: np.ndarray, kind: int, seat: int, number: int, card: int) -> None:
    """Add a step at the back."""
    sc, a = R[R_SCALARS], R[R_AGENDA]
    at = a + 4 * s[sc + S_AGENDA_N]
    s[at], s[at + 1], s[at + 2], s[at + 3] = kind, seat, number, card
    s[sc + S_AGENDA_N] += 1


@compiled
def agenda_push_front(
    s: np.ndarray, R: np.ndarray, kind: int, seat: int, number: int, card: int
) -> None:
    """Add a step at the front."""
    sc, a = R[R_SCALARS], R[R_AGENDA]
    k = s[sc + S_AGENDA_N]
    for i in range(a + 4 * k - 1, a - 1, -1):
        s[i + 4] = s[i]
    s[sc + S_AGENDA_N] = k + 1
    agenda_front(s, R, kind, seat, number, card)


@compiled
def agenda_front(
    s: np.ndarray, R: np.ndarray, kind: int, seat: int, number: int, card: int
) -> None:
    """Replace the front step."""
    a = R[R_AGENDA]
    s[a], s[a + 1], s[a + 2], s[a + 3] = kind, seat, number, card


@compiled
def agenda_clear(s: np.ndarray, R: np.ndarray) -> None:
    """Drop every step."""
    sc, a = R[R_SCALARS], R[R_AGENDA]
    s[a : a + 4 * s[sc + S_AGENDA_N]] = -1
    s[sc + S_AGENDA_N] = 0
