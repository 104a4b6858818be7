"""The Edges board drawn for a terminal.

Each pyramid is its size letter and its player's number (``L1`` is player 1's Large), in the
player's colour. Inside each square is its score mark as in the seed's figure: the side that
takes it and the points (``R+2``), ``=`` for equal sums, blank while nobody touches it.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from meeple.core.game import Player
from meeple.games.edges.rules import EdgesState, Pyramid

SEAT_STYLES = ("bold red", "bold blue", "bold magenta", "bold cyan")
SIDE_STYLES = ("red", "blue")
CELL = 7  # characters of a horizontal edge between two corners


def _token(state: EdgesState, edge: int) -> tuple[str, str]:
    seat = state.owner[edge]
    return f"{Pyramid(state.pyramid[edge]).letter}{seat + 1}", SEAT_STYLES[seat]


def render_board(state: EdgesState) -> Text:
    """The grid with pyramids on its edges and score marks in its squares."""
    game = state.game
    b = game.board
    squares = state.square_scores()
    side_initial = [game.side_name(s).split()[-1][0] for s in (0, 1)]
    text = Text()
    text.append("h col ", style="dim")
    for c in range(b.cols):
        text.append(" " + f"{c:^{CELL}}", style="dim")
    text.append("\nv col ", style="dim")
    for c in range(b.cols + 1):
        text.append(f"{c:<{CELL + 1}}", style="dim")
    text.append("\n")
    for r in range(b.rows + 1):
        text.append(f"{'h' + str(r):>4}  ", style="dim")
        for c in range(b.cols):
            text.append("+")
            e = b.index[("h", r, c)]  # type: ignore[index]
            if state.owner[e] >= 0:
                token, style = _token(state, e)
                text.append("──", style="dim")
                text.append(token, style=style)
                text.append("───", style="dim")
            else:
                text.append("─" * CELL, style="dim")
        text.append("+\n")
        if r == b.rows:
            break
        text.append(f"{'v' + str(r):>4}  ", style="dim")
        for c in range(b.cols + 1):
            e = b.index[("v", r, c)]  # type: ignore[index]
            if state.owner[e] >= 0:
                token, style = _token(state, e)
                text.append(token, style=style)
            else:
                text.append("│ ", style="dim")
            if c == b.cols:
                break
            sq = squares[r * b.cols + c]
            if sq.side is not None:
                text.append(
                    f"{side_initial[sq.side]}+{sq.points}".center(CELL - 1), SIDE_STYLES[sq.side]
                )
            elif sq.strength != (0, 0):
                text.append("=".center(CELL - 1), style="yellow")
            else:
                text.append(" " * (CELL - 1))
        text.append("\n")
    return text


def render_status(state: EdgesState) -> Text:
    """Stashes, score, and whose turn it is (or the result)."""
    game = state.game
    text = Text()
    for seat in range(game.num_players):
        stash = state.stashes[seat]
        text.append(f"{seat + 1} ", style=SEAT_STYLES[seat])
        text.append(f"{game.seat_name(seat)} (seat {seat})", style=SEAT_STYLES[seat])
        text.append(f"  stash L {stash.large}  M {stash.medium}  S {stash.small}\n")
    scores = state.scores()
    text.append("Score: ")
    text.append(f"{game.side_name(0)} {scores[0]}", style=SIDE_STYLES[0])
    text.append("  ")
    text.append(f"{game.side_name(1)} {scores[1]}", style=SIDE_STYLES[1])
    text.append("\n")
    if state.is_over:
        result = state.result
        verdict = "a draw" if result["winner"] is None else f"{result['winner_name']} wins"
        text.append(f"Game over ({result['reason']}): {verdict}.", style="bold")
    else:
        seat = state.to_act[0]
        text.append(f"Turn {state.turn + 1}: ")
        text.append(f"{game.seat_name(seat)} (seat {seat})", style=SEAT_STYLES[seat])
        text.append(" to place a pyramid.")
        if state.pie_available:
            first = game.board.edges[state.first_edge]
            text.append(f" Pie rule: 'pie <size>' takes over the pyramid on {first}.")
    return text


def render_state(state: EdgesState, player: Player | None = None) -> Group:
    """Board and status together, the same for every ``player``: everything in Edges is
    public."""
    return Group(render_board(state), render_status(state))
