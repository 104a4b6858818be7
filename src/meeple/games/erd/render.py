"""The Erd table drawn for a terminal, as one seat (or a spectator) sees it.

Top: the match and the round. Then each player's Reserve, discard pile and Turrets, and who
has allocated this round (a seat sees its own allocation, never the opponent's). Then the last
combat: both revealed piles with their values, and what followed, in sentences.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.erd.rules import (
    EMPTY_PILE,
    NOTATION_HELP,
    REASON_TEXT,
    Cards,
    ErdGame,
    ErdState,
)
from meeple.games.erd.words import combat_when, describe_combat

SEAT_STYLES = ("bold red", "bold blue")
WINNING_OUTCOMES = ("one_rush", "both_total", "both_rush")


def _cards(cards: Cards) -> str:
    return f"H {cards.heavy}  L {cards.light}  D {cards.decoy}"


def _seat(game: ErdGame, player: Player) -> Text:
    return Text(f"{game.seat_name(player)} (seat {player})", style=SEAT_STYLES[player])


def render_header(state: ErdState) -> Text:
    """Rules version, game of the match, score and round."""
    game = state.game
    options = game.options
    a, b = state.score
    text = Text(f"{game.title}", style="bold")
    text.append(f"  rules {options.rules}")
    if options.best_of > 1:
        text.append(f"  game {state.game_number} of best of {options.best_of}")
        text.append(f"  (games won: {game.seat_name(0)} {a}, {game.seat_name(1)} {b})")
    if not state.match_over:
        text.append(f"  round {state.round}", style="bold")
    return text


def render_table(state: ErdState, viewer: Player | None) -> Table:
    """Reserve, discard and Turrets of both players, and this round's allocations."""
    game = state.game
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("")
    for p in (0, 1):
        table.add_column(_seat(game, p))
    # A game won in combat leaves the revealed piles on the table: the Reserve still counts them.
    last = state.last
    ended_in_combat = state.match_over and last is not None and last.outcome in WINNING_OUTCOMES
    reserve = "Reserve before the reveal" if ended_in_combat else "Reserve"
    table.add_row(reserve, *(_cards(s.reserve) for s in state.sides))
    table.add_row("Discard", *(_cards(s.discard) for s in state.sides))
    table.add_row(
        "Turrets",
        *(f"{s.turrets} (+{s.turrets} Defense)" if s.turrets else "0" for s in state.sides),
    )
    if not state.match_over:
        cells = []
        for p in (0, 1):
            mine = state.pending.of(p) if p == viewer else None
            if mine is not None:
                cells.append(Text(f"yours: {mine}", style="bold"))
            elif p in state.pending.waiting:
                cells.append(Text("not yet allocated", style="dim"))
            else:
                cells.append(Text("allocated (hidden)", style="italic"))
        table.add_row("This round", *cells)
    return table


def render_combat(state: ErdState) -> Group | Text:
    """The last revealed piles with their values, and what followed."""
    combat = state.last
    if combat is None:
        return Text("No combat yet: both players allocate for round 1.", style="dim")
    game = state.game
    title = Text(f"Last combat: {combat_when(combat)}", style="bold")
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("")
    for p in (0, 1):
        table.add_column(_seat(game, p))
    table.add_row(
        "Rush", *(f"{a.rush} = {v}" for a, v in zip(combat.allocations, combat.rush, strict=True))
    )
    cells = []
    for p in (0, 1):
        pile = combat.allocations[p].defense
        turrets = combat.turrets[p]
        extra = f" + {counted(turrets, 'Turret')}" if turrets else ""
        cells.append(f"{pile}{extra} = {combat.defense[p]}")
    table.add_row("Defense", *cells)
    story = Text("\n".join(describe_combat(game, combat)))
    return Group(title, table, story)


def _outcome(state: ErdState) -> str:
    """Who won the game or the match, in a few words (how it ended is told elsewhere)."""
    result = state.result
    last = result["games"][-1]
    if state.game.options.best_of == 1:
        if result["winner"] is None:  # the reason says "draw" already
            return str(last["reason_text"])
        return f"{result['winner_name']} wins ({last['reason_text']})"
    a, b = sorted(result["score"], reverse=True)
    games = f"{counted(a, 'game')} to {b}"
    if result["winner"] is None:
        return f"the match is drawn, {games}"
    return f"{result['winner_name']} won the match {games}"


def render_status(state: ErdState, viewer: Player | None) -> Text:
    """Who is to allocate and how, or how the match ended and why."""
    game = state.game
    text = Text()
    if state.match_over:
        result = state.result
        if game.options.best_of > 1:
            for entry in result["games"]:
                winner = entry["winner_name"] or "nobody (draw)"
                text.append(
                    f"Game {entry['game']}: {winner}, {entry['reason_text']} "
                    f"in round {entry['rounds']}.\n"
                )
        verdict = "Match over" if game.options.best_of > 1 else "Game over"
        last = state.last
        if last is not None and last.ending is not None:
            # The last combat above already tells how the game ended: say who won, once.
            text.append(f"{verdict}: {_outcome(state)}.", style="bold")
        else:
            text.append(f"{verdict}: {result['reason']}.", style="bold")
        return text
    if state.last is not None and state.last.ending is not None and state.round == 1:
        ended = state.last.ending
        text.append(
            f"Game {state.game_number - 1} ended ({REASON_TEXT[ended.reason]}). "
            f"Game {state.game_number} starts from full Reserves.\n",
            style="bold",
        )
    waiting = state.to_act
    if viewer is not None and viewer in waiting:
        text.append_text(_seat(game, viewer))
        text.append(f" to allocate for round {state.round}: {NOTATION_HELP}")
        rule = game.cards_to_place(state.sides[viewer].reserve)
        if rule is None:
            text.append(f" (up to three cards per pile; {EMPTY_PILE}).")
        else:
            per_pile, total = rule
            if total == 2 * per_pile:
                text.append(" (exactly three cards per pile).")
            else:
                # A Reserve of at most three cards leaves one pile empty.
                empty = f"; {EMPTY_PILE}" if total <= per_pile else ""
                text.append(f" (all {total} cards of your Reserve, at most three per pile{empty}).")
    else:
        text.append("Waiting for ")
        for k, p in enumerate(waiting):
            if k:
                text.append(" and ")
            text.append_text(_seat(game, p))
        text.append(" to allocate.")
    return text


def render_state(state: ErdState, viewer: Player | None = None) -> Group:
    """Everything ``viewer`` may see, top to bottom."""
    return Group(
        render_header(state),
        render_table(state, viewer),
        Text(""),
        render_combat(state),
        Text(""),
        render_status(state, viewer),
    )


# -- replays --------------------------------------------------------------------------------
def log_chapter(before: ErdState | None, after: ErdState) -> str | None:
    """A heading when a replay reaches a new game of the match or a new round (else None)."""
    if after.match_over:
        return None
    if before is None or after.game_number != before.game_number:  # a new game
        if after.game.options.best_of > 1:
            return f"Game {after.game_number}, round {after.round}"
        return f"Round {after.round}"
    if after.round != before.round:
        return f"Round {after.round}"
    return None
