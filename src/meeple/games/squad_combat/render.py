"""Squad Combat drawn for a terminal: each squad, the seat's hand, the pending decision, a log.

Only what the seat may know is drawn: the table (Life, wounds, energy, dice, traits) for
everyone, the hand of the seat looking at it, and the log of public events.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.game import Player
from meeple.games.squad_combat.rules import (
    PARTY_SIZE,
    SLOTS,
    SquadCombatState,
)

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow")
LOG_SHOWN = 14


def render_squad(state: SquadCombatState, seat: int) -> Table:
    """One player's characters in their row, left to right."""
    game = state.game
    deck = game.content.deck(game.deck_keys[seat])
    flags = []
    if state.passed[seat] and state.alive(seat):
        flags.append("passed")
    if not state.alive(seat):
        flags.append("out")
    if seat == state.phase and state.ended is None:
        flags.append("action phase")
    title = Text()
    title.append(f"{game.seat_name(seat)} (seat {seat})", style=SEAT_STYLES[seat])
    title.append(
        f"  {deck.name}  hand {len(state.hands[seat])}  deck {len(state.decks[seat])}  "
        f"discard {len(state.discards[seat])}"
    )
    if flags:
        title.append(f"  [{', '.join(flags)}]", style="italic")
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for column in ("", "character", "life", "wounds", "energy", "dice", "pool", "traits"):
        table.add_column(column)
    for slot in range(PARTY_SIZE):
        ch = state.parties[seat][slot]
        card = game.characters[ch.card]
        ref = f"{seat}{SLOTS[slot]}"
        if ch.removed:
            table.add_row(ref, Text(card.name, style="strike dim"), "removed", "", "", "", "", "")
            continue
        damage = state.damage(seat, slot)
        wounds = " ".join(f"{game.cards[w.card].name}:{game.damages[w.card]}" for w in ch.wounds)
        table.add_row(
            ref,
            Text(card.name, style="bold"),
            Text(f"{card.life - damage}/{card.life}", style="red" if damage else ""),
            wounds or "-",
            f"{card.energy - ch.spent}/{card.energy}",
            " ".join(f"[{d}]" for d in ch.dice) or "-",
            f"{card.dice_pool} (refresh <{card.refresh}>)",
            "/".join(card.traits),
        )
    return table


def render_hand(state: SquadCombatState, player: Player) -> Table:
    """The seat's hand, each card with its traits, cost and what it does."""
    game = state.game
    table = Table(title=f"Hand of {game.seat_name(player)}", title_justify="left", show_edge=False)
    for column in ("id", "card", "cost", "what it does"):
        table.add_column(column)
    for k in sorted(set(state.hands[player]), key=lambda k: game.cards[k].key):
        card = game.cards[k]
        copies = state.hands[player].count(k)
        name = card.name + (f" x{copies}" if copies > 1 else "")
        table.add_row(card.key, name, str(card.cost), card.describe())
    return table


def render_stack(state: SquadCombatState) -> Text:
    """The card being performed, with any edge answering it."""
    game = state.game
    text = Text()
    for perf in state.stack:
        card = game.cards[perf.card]
        text.append("Performing: ", style="bold")
        text.append(f"{game.who(perf.player, perf.slot, state)} plays {card.name} {card.cost}")
        if perf.dice_due:
            text.append(f"; dice due {' '.join(f'[{d}]' for d in perf.dice_due)}")
        if perf.cards_due:
            text.append(f"; cards due {perf.cards_due}")
        if perf.target is not None:
            text.append(f" -> {game.who(perf.target[0], perf.target[1], state)}")
        if perf.attack_die is not None:
            rating = perf.attack_die + (card.hit or 0) + perf.attack_bonus
            text.append(f"; attack die {perf.attack_die} (rating {rating})")
        if perf.defense_die is not None:
            rating = perf.defense_die + perf.defense_bonus
            text.append(f"; defense die {perf.defense_die} (rating {rating})")
        text.append("\n")
    return text


def render_status(state: SquadCombatState, player: Player | None) -> Text:
    """Whose decision it is, and what they may do (or how the game ended)."""
    game = state.game
    text = Text()
    if state.ended is not None:
        verdict = "a draw" if state.winner is None else f"{game.seat_name(state.winner)} wins"
        text.append(f"Game over after turn {state.turn} ({state.ended}): {verdict}.", style="bold")
        return text
    kind, seat = state.step
    text.append(f"Turn {state.turn}. ")
    text.append(game.seat_name(seat), style=SEAT_STYLES[seat])
    text.append(f": {kind}.")
    if player == seat:
        legal = state.legal_actions(seat)
        text.append("\nLegal: " + ", ".join(str(a) for a in legal), style="dim")
    return text


def render_log(state: SquadCombatState) -> Text:
    """The most recent things that happened."""
    text = Text()
    for line in state.log[-LOG_SHOWN:]:
        text.append(f"  {line}\n", style="dim")
    return text


def render_state(state: SquadCombatState, player: Player | None = None) -> RenderableType:
    """Everything ``player`` may see (``None``: a spectator, who sees no hand)."""
    parts: list[RenderableType] = [Text("Log", style="bold"), render_log(state)]
    parts += [render_squad(state, seat) for seat in state.order]
    if player is not None:
        parts.append(render_hand(state, player))
    if state.stack:
        parts.append(render_stack(state))
    parts.append(render_status(state, player))
    return Group(*parts)
