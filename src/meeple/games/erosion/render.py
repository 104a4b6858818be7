"""Erosion drawn for a terminal, as one seat sees it.

Every mountain is a column standing on a common base line (mountains grow from below), top
rock first; a weathered rock is shifted to the left, as the seed shows it on the table, and
marked with ``<``. Rock types are written in full, never clipped: where the columns with
each rock's card id would not fit the terminal, the ids are left out. Below each column: its
height in metres. Then the River, the deltas (face down: the owner sees the cards, the
others a count), the discards, the decks with their draw limits and Atmosphere cards, the
viewer's hand, and whose step it is. The legend of every mark is in ``rules.md`` ("Reading
the board").
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from meeple.core.game import Player
from meeple.core.words import counted, listed
from meeple.games.erosion.cards import AGE_NAMES, PROCESS_DECKS
from meeple.games.erosion.rules import HIGH_METRES, ErosionState

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan")
FOSSIL_MARK = "*"
ARCHITECTURE_MARK = "!"
WEATHERED_MARK = "<"


def rock_label(state: ErosionState, card: int, with_id: bool = True, in_force: bool = False) -> str:
    """``WX12 limestone*``: card id (unless not ``with_id``), rock type, ``*`` for a fossil,
    ``!`` when ``in_force``: its red architecture applies now
    (:meth:`.ErosionState.architecture_in_force`)."""
    cat = state.game.catalog
    mark = FOSSIL_MARK if cat.fossil[card] else ""
    if in_force:
        mark += ARCHITECTURE_MARK
    rock = f"{cat.rock[card]}{mark}"
    return f"{cat.ids[card]} {rock}" if with_id else rock


class Mountains:
    """The mountains at the width they are drawn at: with each rock's card id when that
    fits, else the rock types alone (in full either way: a name is never clipped)."""

    def __init__(self, state: ErosionState) -> None:
        self.state = state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The widest layout that fits: ids, then no ids, then weathered rocks offset by one
        column instead of two."""
        wide = options.update_width(max(options.max_width, 10_000))  # unclamped: the need
        for with_ids, indent in ((True, 2), (False, 2), (False, 1)):
            table = render_mountains(self.state, with_ids, indent)
            if console.measure(table, options=wide).maximum <= options.max_width:
                break
        yield table


def render_mountains(state: ErosionState, with_ids: bool = True, indent: int = 2) -> Table:
    """The mountains side by side, bottoms aligned, weathered rocks offset to the left (the
    others indented by ``indent``)."""
    game = state.game
    n = game.num_players
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 1))
    for p in range(n):
        # Not "<": that marks a weathered rock just below.
        marker = " (to act)" if p == state.current and not state.over else ""
        table.add_column(
            Text(f"{p} {game.seat_name(p)}{marker}", style=SEAT_STYLES[p]), overflow="fold"
        )
    tallest = max((len(m) for m in state.mountains), default=0)
    in_force = [set(state.architecture_in_force(p)) for p in range(n)]
    for row in range(tallest):
        cells = []
        for p in range(n):
            rocks = state.mountains[p]
            i = row - (tallest - len(rocks))
            if i < 0:
                cells.append(Text(""))
            elif i < state.weathered[p] or rocks[i] in state.below(p):
                label = rock_label(state, rocks[i], with_ids)
                cells.append(Text(WEATHERED_MARK + label, style="yellow"))
            else:
                label = rock_label(state, rocks[i], with_ids, rocks[i] in in_force[p])
                cells.append(Text(" " * indent + label))
        table.add_row(*cells)
    base = max(
        (
            len(rock_label(state, r, with_ids, r in in_force[p])) + indent
            for p, m in enumerate(state.mountains)
            for r in m
        ),
        default=len("base"),
    )
    table.add_row(*[Text("═" * base, style="dim") for _ in range(n)])
    heights = []
    for p in range(n):
        h = state.height_m(p)
        style = "bold" if state.counts_as_high(p) else ""
        note = " high" if h < HIGH_METRES and state.counts_as_high(p) else ""
        heights.append(Text(f"{h} m{note}", style=style))
    table.add_row(*heights)
    return table


def render_piles(state: ErosionState, player: Player | None) -> Text:
    """River, deltas, discards, decks and Atmospheres, hands and scores."""
    game = state.game
    cat = game.catalog
    view = state.view(player)
    text = Text()
    text.append("River: ", style="bold")
    text.append(", ".join(rock_label(state, c) for c in state.river) or "(empty)")
    text.append("\n")
    for p in range(game.num_players):
        text.append(f"{p} {game.seat_name(p)}", style=SEAT_STYLES[p])
        delta = view["deltas"][p]
        shown = f" ({', '.join(delta['cards'])})" if delta["cards"] else ""
        text.append(f"  delta {delta['count']}{shown}")
        hand = view["hands"][p]
        by_deck = " ".join(f"{d}{k}" for d, k in hand["by_deck"].items() if k)
        text.append(f"  hand {hand['count']} ({by_deck or '-'})")
        discards = state.discards[p]
        if discards:
            text.append(f"  discards {len(discards)}, last {cat.ids[discards[-1]]}")
        text.append(f"  points now {state.points(p, hidden=p == player)}")
        if state.era_scores:
            text.append(f"  recorded {state.scores[p]}")
        text.append("\n")
    text.append("Draw limits: ", style="bold")
    for name in PROCESS_DECKS:
        deck = view["decks"][name]
        limit = deck["draw_limit"]
        own = view["draw_limits"][name] if view["draw_limits"] else limit
        extra = f", you {own}" if own != limit else ""
        ages = [
            AGE_NAMES[atm.age] if state.aged[i] else "normal"
            for i, atm in enumerate(cat.atmospheres)
            if atm.under == name
        ]
        status = "deck empty" if deck["empty"] else f"{limit}{extra}"
        text.append(f"{name} {status} ({', '.join(ages)})   ")
    text.append("\n")
    if game.legend_cards:
        text.append("Legends: ", style="bold")
        for card, owner in zip(game.legend_cards, state.legends, strict=True):
            who = "unclaimed" if owner < 0 else game.seat_name(owner)
            text.append(f"{card.name} ({game.legend_condition(card)}; {card.points} pts) {who}. ")
        text.append("\n")
        if player is not None and state.challenges:
            mine = game.challenge_cards[state.challenges[player]]
            text.append(f"Your challenge: {mine.name}: {mine.text} ({mine.points} pts)\n")
    if player is not None and state.hands[player]:
        text.append("Your hand:\n", style="bold")
        for c in state.hands[player]:
            text.append(f"  {describe_card(state, c)}\n")
    return text


def describe_card(state: ErosionState, card: int) -> str:
    """One line: rock portion, then process portion (architecture with Advanced Rules)."""
    pc = state.game.catalog.process_cards[card]
    fossil = f", {pc.fossil} fossil" if pc.fossil else ""
    p = pc.process
    does = p.does
    icon = f" [{p.elevation} icon]" if p.elevation else ""
    arch = ""
    if state.game.options.advanced and pc.architecture is not None:
        arch = f"  | {pc.architecture.text}"
    return f"{pc.id} {pc.rock} (Mohs {pc.mohs}{fossil}) | {p.name}: {does}{icon}{arch}"


def render_status(state: ErosionState, player: Player | None) -> Text:
    """Whose step it is and what it asks for, or the result, as ``player`` may see them."""
    game = state.game
    text = Text()
    if state.over:
        result = state.result
        scores = ", ".join(f"{game.seat_name(p)} {s}" for p, s in enumerate(result["scores"]))
        if result["winner"] is not None:
            verdict = " ".join(filter(None, (f"{result['winner_name']} wins", state.level_with())))
        else:
            winners = result["winners"]
            names = [game.seat_name(p) for p in winners]
            verdict = f"{listed(names)} share the win"
            if len({result["scores"][p] for p in winners}) == 1:
                verdict += f" with {result['scores'][winners[0]]} each"
        # Why the era ended; the verdict says how a tie was settled.
        text.append(f"Game over ({state.end_reason}). {scores}. {verdict}.", style="bold")
        return text
    seat = state.to_act[0]
    # A game of one era (two or three players) names no era: "Era 1/1" said nothing.
    era = f"Era {state.era}/{game.eras}, turn" if game.eras > 1 else "Turn"
    text.append(f"{era} {state.turn}: ")
    text.append(f"{game.seat_name(seat)} (seat {seat})", style=SEAT_STYLES[seat])
    step = state.agenda[0] if state.agenda else None
    cat = game.catalog
    asks = {
        None: "chooses an action (weather, hillslope, fluvial, draw, redraw) or passes",
        "draw": f"draws {counted(step.number if step else 0, 'card')}: choose the decks",
        "uplift": "has more than 6 cards: uplift one to the base of the mountain",
        "transport": f"transports {counted(step.number if step else 0, 'more rock')} from "
        "the River",
        "pay": f"pays for {cat.ids[step.card] if step and step.card >= 0 else ''} with a "
        "rock of the same type",
        "trigger": f"triggers one {AGE_NAMES.get(step.age if step else '', 'any')} Atmosphere",
        "fault": "hillslopes one weathered rock (Earthquake Fault): choose a mountain",
        "guess": "guesses the Mohs hardness of the rock drawn for the tie-breaker",
        "choose": "chooses which tied seat takes the tie",
    }
    text.append(" " + asks.get(step.kind if step else None, "acts"))
    # How a step inside a turn is typed, to the seat that types it only: an example may
    # name a card of its hand (a payment's rock), which no other seat may see. A draw's is
    # one of its own draws (a fixed "draw WX1 H0 F0" drew one card where two were asked).
    if player == seat and step is not None and (legal := state.legal_actions(seat)):
        text.append(f" (e.g. '{legal[0]}')")
    if state.runout_passes is not None:
        text.append("  (a deck has run out: a second pass by one player ends the era)")
    # Said before the pass, as the browser's pass button says it: a player's single pass
    # ended the game with no word of warning.
    if step is None and state.pass_ends_era(seat):
        ends = "the game" if state.era >= game.eras else f"era {state.era}"
        text.append(f"  A pass by {game.seat_name(seat)} now ends {ends}.", style="bold")
    if state.tie is not None:
        tie = state.tie
        drawn = ", ".join(
            f"{game.seat_name(p)}: {cat.ids[c] if c >= 0 else 'no card'}"
            + (f" guessed {g}" if g else "")
            for p, c, g in zip(tie.seats, tie.cards, tie.guesses, strict=True)
        )
        text.append(f"\nTie-breaker for the {tie.purpose}: {drawn}")
    return text


def render_state(state: ErosionState, player: Player | None = None) -> Group:
    """Mountains, piles and status together, as ``player`` may see them."""
    return Group(Mountains(state), render_piles(state, player), render_status(state, player))


# -- replays --------------------------------------------------------------------------------
def log_steps(before: ErosionState, player: Player, text: str) -> Text | None:
    """What the terminal's log and a replay add after a move's words: the steps with a
    single possible choice that the engine took after it (a forced draw or uplift), in
    notation, since the record does not hold them as moves. None when there were none."""
    steps = before.automatic_steps(player, before.game.parse_action(text))
    if not steps:
        return None
    taken = "; ".join(f"{before.game.seat_name(seat)}: {step}" for seat, step in steps)
    return Text(f"  (then the only choice: {taken})", style="dim")


def log_chapter(before: ErosionState | None, after: ErosionState) -> str | None:
    """A heading when a replay reaches a new era (None within an era, and in a game of one
    era, whose only heading would be "Era 1 of 1")."""
    if after.game.eras > 1 and not after.over and (before is None or after.era != before.era):
        return f"Era {after.era} of {after.game.eras}"
    return None
