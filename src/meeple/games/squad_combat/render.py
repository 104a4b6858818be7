"""Squad Combat drawn for a terminal: each squad, the seat's hand, the pending decision, a log.

Only what the seat may know is drawn: the table (Life, wounds, energy, dice, traits) for
everyone, the hand of the seat looking at it, and the log of public events. The screen fits
a terminal of :data:`SCREEN_LINES` lines: tables without rules or frames, one header for
all squads, and the log given whatever lines the rest leaves (at least :data:`LOG_MIN`), so
four squads and a full hand still leave the prompt on screen. The legend of every mark is in
``rules.md`` ("Reading the board").
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from meeple.core.game import Player
from meeple.games.squad_combat.pieces import END_DISCARD, END_WINDOW
from meeple.games.squad_combat.rules import (
    PARTY_SIZE,
    SLOTS,
    SquadCombatState,
)

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow")
TURN_END = (END_WINDOW, END_DISCARD)
"""The steps of a turn's end, after every action phase."""
SCREEN_LINES = 40
"""The height the whole screen fits in (the prompt's line included)."""
LOG_SHOWN = 14
"""The most log lines shown, when there is room."""
LOG_MIN = 3
"""The fewest log lines shown, however crowded the rest."""
LEGAL_SHOWN = 120
"""Characters of the legal moves listed under the status; a longer list is left to ``moves``."""
SQUAD_COLUMNS = ("", "character", "life", "wounds", "energy", "dice", "pool", "traits")


def _squad_rows(state: SquadCombatState, seat: int) -> list[tuple[Text, ...]]:
    """The cells of one squad's rows, in the order of :data:`SQUAD_COLUMNS`."""
    game = state.game
    rows: list[tuple[Text, ...]] = []
    for slot in range(PARTY_SIZE):
        ch = state.parties[seat][slot]
        card = game.characters[ch.card]
        ref = Text(f"{seat}{SLOTS[slot]}")
        if ch.removed:
            blank = (Text(""),) * 5
            rows.append((ref, Text(card.name, style="strike dim"), Text("removed"), *blank))
            continue
        damage = state.damage(seat, slot)
        # The damage of each wound (the log names the cards): names would not fit 80 columns.
        wounds = " ".join(str(game.damages[w.card]) for w in ch.wounds)
        rows.append(
            (
                ref,
                Text(card.name, style="bold"),
                Text(f"{card.life - damage}/{card.life}", style="red" if damage else ""),
                Text(wounds or "-"),
                Text(f"{card.energy - ch.spent}/{card.energy}"),
                Text(" ".join(f"[{d}]" for d in ch.dice) or "-"),
                Text(f"{card.dice_pool} <{card.refresh}>"),
                Text("/".join(card.traits)),
            )
        )
    return rows


def render_squad_title(state: SquadCombatState, seat: int) -> Text:
    """The line above a squad: its player, deck, card counts and state in the turn."""
    game = state.game
    deck = game.content.deck(game.deck_keys[seat])
    flags = []
    # Passing is a state of the turn: once the game is over nobody is "passed".
    if state.passed[seat] and state.alive(seat) and state.ended is None:
        flags.append("passed")
    if not state.alive(seat):
        flags.append("out")
    # The turn's end (its window, its discards) is no action phase: "[passed, action
    # phase]" there read as a contradiction.
    if seat == state.phase and state.ended is None and state.step.kind not in TURN_END:
        flags.append("action phase")
    title = Text()
    title.append(f"{game.seat_name(seat)} (seat {seat})", style=SEAT_STYLES[seat])
    title.append(
        f"  {deck.name}  hand {len(state.hands[seat])}  deck {len(state.decks[seat])}  "
        f"discard {len(state.discards[seat])}"
    )
    if flags:
        title.append(f"  [{', '.join(flags)}]", style="italic")
    return title


class Squads:
    """Every squad in turn order under one header, the columns lined up across squads.

    Where the columns do not fit the width (a 60-column terminal, or many dice), the
    squad's traits go on a line of their own under its table: the last column, which says
    who may play which card, was dropped without a sign."""

    def __init__(self, state: SquadCombatState) -> None:
        self.state = state
        self.rows = {seat: _squad_rows(state, seat) for seat in state.order}
        self.widths = [
            max([len(name)] + [len(row[k].plain) for rows in self.rows.values() for row in rows])
            for k, name in enumerate(SQUAD_COLUMNS)
        ]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Each squad's title and table, the traits a column where they fit."""
        # Rich pads each cell by one space a side, but for the table's two edges.
        fits = sum(self.widths) + 2 * (len(self.widths) - 1) <= options.max_width
        columns = SQUAD_COLUMNS if fits else SQUAD_COLUMNS[:-1]
        widths = self.widths[: len(columns)]
        for k, seat in enumerate(self.state.order):
            yield render_squad_title(self.state, seat)
            table = Table(box=None, pad_edge=False, show_header=k == 0, header_style="bold dim")
            for name, width in zip(columns, widths, strict=True):
                table.add_column(name, min_width=width)
            for row in self.rows[seat]:
                table.add_row(*row[: len(columns)])
            yield table
            if not fits:
                # "1c:Arcane/Medic", one word: a wrap never parts a reference from its traits.
                said = [
                    f"{row[0].plain}:{row[-1].plain}" for row in self.rows[seat] if row[-1].plain
                ]
                yield Text("    traits  " + "  ".join(said), style="dim")


def render_squads(state: SquadCombatState) -> Squads:
    """Every squad in turn order under one header (:class:`Squads`)."""
    return Squads(state)


def render_hand(state: SquadCombatState, player: Player) -> Text:
    """The seat's hand, a line a card: the id to type, its name, then its kind, traits,
    cost and what it does."""
    game = state.game
    text = Text(f"Hand of {game.seat_name(player)}", style="bold")
    keys = sorted(set(state.hands[player]), key=lambda k: game.cards[k].key)
    width = max((len(game.cards[k].key) for k in keys), default=0)
    for k in keys:
        card = game.cards[k]
        copies = state.hands[player].count(k)
        text.append(f"\n{card.key:<{width}}  ")
        text.append(card.name + (f" x{copies}" if copies > 1 else ""), style="bold")
        text.append(f": {card.describe()}")
    return text


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
            rating = perf.attack_rating(card.hit)
            text.append(f"; attack die {perf.attack_die} (rating {rating})")
        if perf.defense_die is not None:
            text.append(f"; defense die {perf.defense_die} (rating {perf.defense_rating()})")
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
        legal = ", ".join(str(a) for a in state.legal_actions(seat))
        if len(legal) > LEGAL_SHOWN:  # a long list would push the board off the screen
            legal = legal[: legal.rfind(", ", 0, LEGAL_SHOWN)] + ", ... (type moves for all)"
        text.append("\nLegal: " + legal, style="dim")
    return text


def render_log(state: SquadCombatState, lines: int = LOG_SHOWN) -> Text:
    """The most recent things that happened (the last ``lines`` of them)."""
    shown = state.log[-lines:] if lines > 0 else []
    return Text("\n".join(f"  {line}" for line in shown), style="dim")


class SquadScreen:
    """The whole screen, fitted to :data:`SCREEN_LINES` at the width it is drawn at: the
    log gets the lines the squads, hand and status leave (each log line may wrap)."""

    def __init__(self, state: SquadCombatState, player: Player | None) -> None:
        self.state = state
        self.player = player

    def body(self) -> Group:
        """Squads, hand, the card being performed, and the status: all but the log."""
        state, player = self.state, self.player
        parts: list[RenderableType] = [render_squads(state)]
        if player is not None:
            parts.append(render_hand(state, player))
        if state.stack:
            parts.append(render_stack(state))
        parts.append(render_status(state, player))
        return Group(*parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Draw the log (as many recent lines as fit), then the body."""
        body = self.body()
        used = len(console.render_lines(body, options, pad=False))
        room = SCREEN_LINES - 1 - used - 1  # the prompt's line, the log's title
        shown = min(LOG_SHOWN, len(self.state.log))
        log = render_log(self.state, shown)
        while shown > LOG_MIN and len(console.render_lines(log, options, pad=False)) > room:
            shown -= 1
            log = render_log(self.state, shown)
        yield Text("Log", style="bold")
        yield log
        yield body


def render_state(state: SquadCombatState, player: Player | None = None) -> RenderableType:
    """Everything ``player`` may see (``None``: a spectator, who sees no hand)."""
    return SquadScreen(state, player)


# -- replays --------------------------------------------------------------------------------
def log_chapter(before: SquadCombatState | None, after: SquadCombatState) -> str | None:
    """A heading when a replay reaches a new turn (None within a turn)."""
    if after.ended is None and (before is None or after.turn != before.turn):
        return f"Turn {after.turn}"
    return None
