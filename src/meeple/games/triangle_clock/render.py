"""The Triangle Clock drawn for a terminal, as one seat (or a spectator) sees it.

A symbol is a triangle pointing its way, filled and bold yellow when solid, outlined and cyan
when clear, followed by its notation (``▲Ns``, ``◺SWc``), so the two colours differ in
shape, colour and text. The screen shows the round and the step, the shared symbol, both
seats' scores, items and revealed symbols, the seat's own hand with the letters to type, and
the last round's result. During a memorise step it shows the order of shared symbols.
"""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.triangle_clock.cards import (
    CARDS,
    SYMBOL_NAMES,
    Symbol,
    describe_symbol,
    symbol_label,
)
from meeple.games.triangle_clock.hands import Ranking
from meeple.games.triangle_clock.pieces import SeatNamed
from meeple.games.triangle_clock.rules import (
    ITEM_USES,
    LETTERS,
    ROUNDS,
    SEAT_NAMES,
    Item,
    Phase,
    Pick,
    RoundResult,
    TriangleClockState,
)

SOLID_STYLE = "bold yellow"
CLEAR_STYLE = "cyan"
SEAT_STYLES = ("bold magenta", "bold green")
STEP_TEXT = {
    Phase.MEMORISE: "memorise the order of shared symbols",
    Phase.FIRST: "first choice: a symbol from a card",
    Phase.SECOND: "second choice: a symbol from another card",
    Phase.THIRD: "third choice: the other symbol of one of the two cards played",
}


def symbol_text(s: Symbol) -> Text:
    """A symbol as glyph and notation, styled by colour: ``▲Ns`` or ``△Nc``."""
    return Text(symbol_label(s), style=SOLID_STYLE if s & 1 == 0 else CLEAR_STYLE)


def seat_text(player: Player) -> Text:
    """``Tick (seat 0)`` in the seat's colour."""
    return Text(f"{SEAT_NAMES[player]} (seat {player})", style=SEAT_STYLES[player])


def render_header(state: TriangleClockState) -> Text:
    """Round, step and shared symbol."""
    text = Text()
    text.append("The Triangle Clock", style="bold")
    if state.phase is Phase.OVER:
        text.append(f"  after {ROUNDS} rounds: game over")
        return text
    text.append(f"  round {state.round} of {ROUNDS}: {STEP_TEXT[state.phase]}")
    shared = state.shared
    if shared is not None:
        text.append("\nShared symbol: ")
        text.append_text(symbol_text(shared))
        text.append(f" ({describe_symbol(shared)})")
    return text


ORDER_ENTRY = 8
"""Columns of one entry of the order: the round's number and a blank (3), the symbol's glyph
and notation padded to the longest (5)."""
ORDER_GAP = 2  # the blanks between two entries of a row
ORDER_ROW = 8  # entries a row where the width allows: half of the 16 rounds of a step


def order_per_row(width: int) -> int:
    """How many entries of the order fit a row of ``width`` columns, aligned: ORDER_ROW at
    most, one at least."""
    return max(1, min(ORDER_ROW, (width + ORDER_GAP) // (ORDER_ENTRY + ORDER_GAP)))


class Order:
    """The order of shared symbols as wide as the console allows (Rich asks a renderable to
    draw itself for a width): eight entries a row took 78 columns, and in 60 each row
    wrapped into the next, its entries no longer in columns."""

    def __init__(self, state: TriangleClockState) -> None:
        self.state = state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield render_order(self.state, order_per_row(options.max_width))


def render_order(state: TriangleClockState, per_row: int = ORDER_ROW) -> Text:
    """The order of shared symbols shown in a memorise step, round by round, ``per_row``
    entries a row."""
    first, last = state.block_rounds
    text = Text(f"Shared symbols for rounds {first} to {last}:\n", style="bold")
    order = state.orders[state.block]
    for k, s in enumerate(order):
        text.append(f"{first + k:>2} ", style="dim")
        text.append_text(symbol_text(s).append(" " * (4 - len(SYMBOL_NAMES[s]))))
        text.append("\n" if k % per_row == per_row - 1 or k == len(order) - 1 else " " * ORDER_GAP)
    return text


def render_seats(state: TriangleClockState) -> Table:
    """Score, items left and this round's revealed symbols of both seats."""
    game = state.game
    table = Table(box=box.SIMPLE, show_header=True, pad_edge=False)
    table.add_column("")
    for p in (0, 1):
        table.add_column(seat_text(p))
    table.add_row("score", *(str(seat.score) for seat in state.seats))
    items = []
    for p, seat in enumerate(state.seats):
        lines = [
            f"{item.title} {seat.uses[item]}/{ITEM_USES[item]}"
            + (
                " (used this round)"
                if item is not Item.MULLIGAN and seat.used_this_round(item)
                else ""
            )
            for item in sorted(game.holdings[p])
        ]
        items.append("\n".join(lines) or "none")
    table.add_row("items", *items)
    if state.phase in (Phase.FIRST, Phase.SECOND, Phase.THIRD):
        revealed = []
        for seat in state.seats:
            text = Text()
            for k, pick in enumerate(seat.picks):
                if k:
                    text.append("  ")
                text.append_text(symbol_text(seat.revealed(pick)))
                for item in pick.items:
                    text.append(f" +{item.label}", style="dim")
            revealed.append(text if seat.picks else Text("-", style="dim"))
        table.add_row("revealed", *revealed)
        # "to choose", not "thinking": the person at the terminal read it as said of them
        # while the program waited for them.
        waiting = state.to_act
        table.add_row(
            "this choice",
            *(
                Text("to choose", style="dim") if p in waiting else Text("chosen", style="bold")
                for p in (0, 1)
            ),
        )
    return table


def render_hand(state: TriangleClockState, player: Player) -> Text:
    """The seat's cards with the letter of each symbol, and which were played."""
    seat = state.seats[player]
    text = Text("Your hand", style="bold")
    text.append(f" ({SEAT_NAMES[player]}):\n")
    played_at = {p.letter: k + 1 for k, p in enumerate(seat.picks)}
    for slot, card in enumerate(seat.hand):
        text.append(f"  card {slot + 1}  ", style="dim")
        for side in (0, 1):
            letter = 2 * slot + side
            s = CARDS[card][side]
            text.append(f"{LETTERS[letter]} ", style="bold")
            text.append_text(symbol_text(s))
            note = f" choice {played_at[letter]}" if letter in played_at else ""
            text.append(f"{note:<10}" + " " * (4 - len(SYMBOL_NAMES[s])), style="dim")
        text.append("\n")
    pending = state.pending.of(player)
    if pending is not None:
        text.append(f"Submitted: {pending} (hidden until both have chosen)\n", style="dim")
    return text


def render_round(result: RoundResult, ranking: Ranking) -> Text:
    """One finished round (:meth:`RoundResult.told`): each seat's hand, rank and strength,
    with the legend's ``+palette-swap`` / ``+right-angle`` after a symbol an item was used
    on, and who scored; where the ranks were equal, which tie-break separated the hands and
    at which symbols (the ranks alone would not say why one of two equal ranks scored)."""
    text = Text()
    for line in result.told(ranking, marks=True):
        for part in line:
            if isinstance(part, str):
                text.append(part)
            elif isinstance(part, SeatNamed):
                text.append_text(seat_text(part.player))
            else:
                text.append_text(symbol_text(part))
        text.append("\n")
    return text


def render_status(state: TriangleClockState, player: Player | None) -> Text:
    """Deck, discard pile, and what to type (or the result)."""
    supply = state.supply
    # 'You may not take written notes': the discard pile is to be remembered, not read.
    pile = "not shown" if no_notes(state) else str(len(supply.discards))
    text = Text(
        f"Deck {counted(len(supply.deck), 'card')}, discard pile {pile}, "
        f"reshuffled {counted(supply.reshuffles, 'time')}.\n",
        style="dim",
    )
    if state.phase is Phase.OVER:
        result = state.result
        a, b = result["scores"]
        text.append(f"Final score {SEAT_NAMES[0]} {a}, {SEAT_NAMES[1]} {b}: ", style="bold")
        verdict = "a draw" if result["winner"] is None else f"{result['winner_name']} wins"
        text.append(f"{verdict}.", style="bold")
        if result["decided_by"] != "score":
            # A tie on points is settled by the items held, which the scores do not show:
            # the result's reason says how, in the same words for every allocation.
            text.append(f"\n{result['reason'][0].upper()}{result['reason'][1:]}.")
        return text
    if player is not None and player in state.to_act:
        if state.phase is Phase.MEMORISE:
            text.append("Type 'memorised' when you have it in mind.")
        else:
            text.append("Type the letter of the symbol to reveal")
            extras = []
            seat = state.seats[player]
            for item in (Item.PALETTE_SWAP, Item.RIGHT_ANGLE):
                if seat.may_use(item):
                    extras.append(f"+{item.label}")
            if extras:
                text.append(f", optionally {' and/or '.join(extras)}")
            if state.phase is Phase.FIRST and seat.uses[Item.MULLIGAN]:
                text.append(", or 'mulligan'")
            text.append(".")
    return text


def no_notes(state: TriangleClockState) -> bool:
    """Whether the game forbids written notes (option ``notes``): a person's screen then
    leaves out what the seed expects them to remember."""
    return state.game.options.notes == "forbidden"


def render_state(state: TriangleClockState, player: Player | None = None) -> RenderableType:
    """Everything ``player`` may see (``None``: the spectator, who sees no hand)."""
    parts: list[RenderableType] = [render_header(state)]
    if state.phase is Phase.MEMORISE:
        parts.append(Order(state))
    parts.append(render_seats(state))
    # Without notes the last round's reveals stay on screen only until the next round's
    # first symbols are submitted.
    if state.history and not (no_notes(state) and state.phase in (Phase.SECOND, Phase.THIRD)):
        parts.append(render_round(state.history[-1], state.game.ranking))
    if player is not None and state.phase is not Phase.OVER:
        parts.append(render_hand(state, player))
    parts.append(render_status(state, player))
    return Group(*parts)


# -- replays --------------------------------------------------------------------------------
def log_move(before: TriangleClockState, player: Player, text: str) -> Text | None:
    """A move as a replay shows it: a pick as the symbol it revealed (``C +palette-swap`` is
    ``◁Wc +palette-swap``), not the hand letter, which means nothing once the hand is gone.
    None: the text as written (``mulligan``, ``memorised``: its words say what was shown)."""
    action = before.game.parse_action(text)
    if not isinstance(action, Pick):
        return None
    shown = symbol_text(before.seats[player].revealed(action))
    for item in action.items:
        shown.append(f" +{item.label}", style="dim")
    return shown


def log_chapter(before: TriangleClockState | None, after: TriangleClockState) -> str | None:
    """A heading when a replay reaches a new round (None within a round)."""
    if after.phase is Phase.OVER:
        return None
    if before is None or after.round != before.round:
        return f"Round {after.round} of {ROUNDS}"
    return None
