"""Erosion positions as text: see "Position notation" in ``rules.md``.

Cards are written by their id in the card file (``WX01``). The seed is part of the
position: the era's later chance (tie-breaker draws, the next era's shuffle) draws from it.
A seat's view position writes as ``?`` the seed, the other seats' hands and deltas, the
order of the decks and, until they are shown, the other seats' challenge cards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.core.position import UNKNOWN, FieldForm, PositionCodec, count_problem, seats_problem
from meeple.games.erosion.cards import PROCESS_DECKS
from meeple.games.erosion.pieces import HARDNESSES, Tie
from meeple.games.erosion.rules import ErosionGame, ErosionState
from meeple.games.erosion.transitions import ALL_PASSED, second_pass


def _write_card(card: int, game: ErosionGame) -> str:
    return game.catalog.ids[card]


def _read_card(raw: Any, game: ErosionGame) -> int:
    index = game.catalog.index
    if not isinstance(raw, str) or raw not in index or index[raw] >= game.catalog.num_process:
        raise ValueError(f"{raw!r} is not a process card id (like 'WX01', 'H12', 'F30')")
    return index[raw]


def _write_drawn(card: int, game: ErosionGame) -> str | None:
    return None if card < 0 else _write_card(card, game)


def _read_drawn(raw: Any, game: ErosionGame) -> int:
    return -1 if raw is None else _read_card(raw, game)


CARD = FieldForm(_write_card, _read_card)
DRAWN = FieldForm(_write_drawn, _read_drawn)
"""A card that may be none: a tie-breaker's, drawn from an empty hand, or a step's."""
PILES = ("decks", "hands", "mountains", "deltas", "discards")


def check(state: ErosionState) -> str | None:
    """Every process card exactly once (decks, hands, mountains, deltas, discard piles, the
    River, a tie-breaker's drawn cards), each deck holding only its own cards, sorted hands,
    possible counts."""
    game: ErosionGame = state.game
    cat = game.catalog
    n = game.num_players
    for name in ("hands", "mountains", "weathered", "deltas", "discards", "scores"):
        if len(getattr(state, name)) != n:
            return f"{name} has {len(getattr(state, name))} entries for {n} seats"
    cards: Counter[int] = Counter(state.river)
    if state.tie is not None:
        cards.update(c for c in state.tie.cards if c >= 0)
    for name in PILES:
        for pile in getattr(state, name):
            cards.update(pile)
    problem = count_problem(cards, Counter(range(cat.num_process)), cat.ids.__getitem__)
    if problem is not None:
        return problem
    for d, deck in enumerate(state.decks):
        stray = [c for c in deck if cat.deck[c] != d]
        if stray:
            return (
                f"card {cat.ids[stray[0]]} is not a {PROCESS_DECKS[d]} card but lies in that deck"
            )
    for p in range(n):
        name = game.seat_name(p)
        if tuple(sorted(state.hands[p])) != state.hands[p]:
            return f"{name}'s hand must be sorted by card id (a hand has no order)"
        if not 0 <= state.weathered[p] <= len(state.mountains[p]):
            rocks = len(state.mountains[p])
            return f"{name} has {state.weathered[p]} weathered rocks on a mountain of {rocks}"
    if not 0 <= state.current < n:
        return f"current is seat {state.current}; the seats are 0 to {n - 1}"
    if len(state.aged) != len(cat.atmospheres):
        return f"aged has {len(state.aged)} entries for {len(cat.atmospheres)} Atmosphere cards"
    if not 1 <= state.era <= game.eras:
        return f"era {state.era} is outside 1..{game.eras}"
    for step in state.agenda:
        if not 0 <= step.seat < n and (step.seat, step.kind) != (-1, "settle_tie"):
            return f"a {step.kind} step names seat {step.seat} (-1 only settling a tie)"
        if step.number < 0 or not -1 <= step.card < len(cat.cards):
            return f"a step of the agenda owes {step.number} of card {step.card}"
        if step.kind == "pay" and (step.card not in state.river or step.number < 1):
            return (
                "a pay step pays for a rock in the River (its card), with 1 or more rocks "
                "left to transport, that one included (its number)"
            )
    return _counts_problem(state) or _legends_problem(state) or _end_problem(state)


TIE_STEPS = frozenset({"guess", "choose", "settle_tie"})
"""The agenda's steps of a tie being broken at the end of an era."""


def _counts_problem(state: ErosionState) -> str | None:
    """The turn's and the era's counts: passes, Atmosphere cards triggered, era scores."""
    game: ErosionGame = state.game
    cat = game.catalog
    n = game.num_players
    if state.turn < 1 or not 0 <= state.passes_in_row <= n:
        return f"turn is at least 1 and passes_in_row 0 to {n}"
    runout = state.runout_passes
    if runout is not None and (len(runout) != n or any(not 0 <= p <= 2 for p in runout)):
        return f"runout_passes is null or a count of 0 to 2 for each of the {n} seats"
    # An era ends on the pass that makes every seat's in a row, or a second pass after a
    # deck ran out: the game is then over, or a tie is being broken (nothing else follows).
    ending = state.passes_in_row == n or (runout is not None and max(runout) == 2)
    kinds = {step.kind for step in state.agenda}
    breaking_tie = bool(kinds) and kinds <= TIE_STEPS
    if breaking_tie != (state.tie is not None) or (breaking_tie and not ending):
        return "a tie is broken (guess, choose) as the passes end an era, and only then"
    if ending and not (state.over or breaking_tie):
        return "the passes end the era, but the game is not over nor a tie being broken"
    if state.passes_in_row and kinds and not breaking_tie:
        return "passes_in_row counts passes in a row, but a turn's steps are under way"
    scored = state.era - 1 + (state.over or breaking_tie)
    if len(state.era_scores) != scored:
        return f"era_scores holds a row for each era scored: {scored} in era {state.era}"
    if any(not 0 <= a < len(cat.atmospheres) for a in state.triggered):
        return f"triggered names Atmosphere cards 0 to {len(cat.atmospheres) - 1}"
    if any(len(era) != n for era in state.era_scores):
        return f"each row of era_scores holds a score for each of the {n} seats"
    if state.weathered_below and len(state.weathered_below) != n:
        return f"weathered_below is empty or one list of rocks for each of the {n} seats"
    if any(not 0 <= c < len(cat.cards) for c in state.fired):
        return "fired names cards of the game"
    return None


def _legends_problem(state: ErosionState) -> str | None:
    """The Legend variant's challenge cards and claimed legends."""
    game: ErosionGame = state.game
    n = game.num_players
    dealt = n if game.challenge_cards else 0
    if len(state.challenges) != dealt or any(
        not 0 <= c < len(game.challenge_cards) for c in state.challenges
    ):
        return f"challenges holds {dealt} challenge cards, one per seat"
    if len(state.legends) != len(game.legend_cards) or any(not -1 <= s < n for s in state.legends):
        return (
            f"legends holds the seat that claimed each of the {len(game.legend_cards)} "
            "legend cards, -1 while unclaimed"
        )
    return None


def _tie_steps_problem(tie: Tie, steps: list[tuple[str, int]]) -> str | None:
    """The agenda of a tie being broken, as the era's end and the guesses leave it: each
    tied seat that drew a card guesses, in the tie's order (where two or more drew one),
    then the tie is settled; or, settled, the closest guesser alone chooses."""
    guessers = list(tie.guessers)
    made = [seat for seat, guess in zip(tie.seats, tie.guesses, strict=True) if guess]
    if made != guessers[: len(made)]:
        return (
            f"the tie's guesses are made by {made}, but its guessers (the tied seats that "
            f"drew a card, where two or more did) are {guessers}, in that order"
        )
    if steps and steps[0][0] == "choose":
        if len(steps) > 1 or steps[0][1] not in tie.drew or made != guessers:
            return (
                "choosing is a tie's last step, once every guess is made, by a tied seat "
                "that drew a card"
            )
        return None
    expected = [*(("guess", seat) for seat in guessers[len(made) :]), ("settle_tie", -1)]
    if steps != expected:
        return (
            f"the agenda of the tie is {_steps_text(steps)}; with the guesses made so far it "
            f"is {_steps_text(expected)}: each guesser still to guess, in the tie's order, "
            "then settle_tie"
        )
    return None


def _steps_text(steps: list[tuple[str, int]]) -> str:
    """Steps as a person reads them: ``guess 0, guess 2, settle_tie``."""
    return ", ".join(kind if seat < 0 else f"{kind} {seat}" for kind, seat in steps)


def _end_problem(state: ErosionState) -> str | None:
    """A tie being broken, and the winners of a game that is over."""
    n = state.game.num_players
    tie = state.tie
    if tie is not None:
        problem = seats_problem("the tie's seats", tie.seats, n)
        if problem is not None:
            return problem
        if not len(tie.seats) == len(tie.cards) == len(tie.guesses):
            return "a tie holds a card and a guess for each tied seat"
        if any(g != 0 and g not in HARDNESSES for g in tie.guesses):
            return "a tie's guesses are Mohs hardnesses 1 to 10, 0 until made"
        problem = _tie_steps_problem(tie, [(step.kind, step.seat) for step in state.agenda])
        if problem is not None:
            return problem
    problem = seats_problem("the winners", state.winners, n)
    if problem is not None:
        return problem
    if state.over != bool(state.winners):
        return "a game that is over has its winners, and only such a game"
    reasons = ("", ALL_PASSED, *(second_pass(state.game.seat_name(p)) for p in range(n)))
    if state.end_reason not in reasons:
        return "end_reason is empty or why the last era ended: " + "; ".join(reasons[1:])
    return None


def hidden(state: ErosionState, player: int | None) -> dict[str, Any]:
    """The seed, the other hands and deltas, the decks' order, unshown challenges and the
    cards a tie-breaker drew."""
    game: ErosionGame = state.game
    ids = game.catalog.ids

    def own(piles: tuple[tuple[int, ...], ...]) -> list[list[str]]:
        return [
            [ids[c] for c in pile] if p == player else [UNKNOWN] * len(pile)
            for p, pile in enumerate(piles)
        ]

    out: dict[str, Any] = {
        "seed": UNKNOWN,
        "hands": own(state.hands),
        "deltas": own(state.deltas),
        "decks": [[UNKNOWN] * len(deck) for deck in state.decks],
    }
    if state.tie is not None:
        # Each tied seat guesses the hardness of a card drawn unseen from its own hand.
        tie = codec.encode_field(game, "tie", state.tie, codec.hints["tie"])
        out["tie"] = {**tie, "cards": [UNKNOWN] * len(state.tie.cards)}
    if not state.challenges_shown:
        out["challenges"] = [c if p == player else UNKNOWN for p, c in enumerate(state.challenges)]
    return out


codec = PositionCodec(
    ErosionState,
    path_forms={f"{name}[][]": CARD for name in PILES}
    | {"river[]": CARD, "tie.cards[]": DRAWN, "agenda[].card": DRAWN},
    check=check,
    hidden=hidden,
)
"""Reads and writes Erosion positions (found by ``ErosionGame.from_position``)."""
