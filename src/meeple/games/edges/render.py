"""The Edges board drawn for a terminal.

Each pyramid is its size letter and its player's number (``L1`` is player 1's Large), in the
player's colour. Inside each square is its score mark as in the seed's figure: the side that
takes it and the points (``R+2``), ``=`` for equal sums, blank while nobody touches it.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from meeple.core.game import Player
from meeple.games.edges.rules import EdgesState, Pyramid

SEAT_STYLES = ("bold red", "bold blue", "bold magenta", "bold cyan")
SIDE_STYLES = ("red", "blue")
CELL = 7  # characters of a horizontal edge between two corners
NARROW_CELLS = (6, 5)  # where the console is too narrow for the full cell (7x7 in 60 columns)
_MARGIN = 6  # the row labels' column, "  h0  "


def _token(state: EdgesState, edge: int) -> tuple[str, str]:
    seat = state.owner[edge]
    return f"{Pyramid(state.pyramid[edge]).letter}{seat + 1}", SEAT_STYLES[seat]


def board_width(cols: int, cell: int = CELL) -> int:
    """Columns the board of ``cols`` squares takes with edges ``cell`` characters long."""
    return _MARGIN + cols * (cell + 1) + 1


def render_board(state: EdgesState, cell: int = CELL) -> Text:
    """The grid with pyramids on its edges and score marks in its squares, each horizontal
    edge ``cell`` characters long (room for a pyramid and, in a square, its score mark)."""
    game = state.game
    b = game.board
    squares = state.square_scores()
    side_initial = [game.side_name(s).split()[-1][0] for s in (0, 1)]
    before = (cell - 2) // 2  # a pyramid's two characters sit a little left of the middle
    text = Text()
    text.append("h col ", style="dim")
    for c in range(b.cols):
        text.append(" " + f"{c:^{cell}}", style="dim")
    text.append("\nv col ", style="dim")
    labels = "".join(f"{c:<{cell + 1}}" for c in range(b.cols + 1))
    text.append(labels.rstrip(), style="dim")  # no trailing blanks to wrap a narrow console
    text.append("\n")
    for r in range(b.rows + 1):
        text.append(f"{'h' + str(r):>4}  ", style="dim")
        for c in range(b.cols):
            text.append("+")
            e = b.index[("h", r, c)]  # type: ignore[index]
            if state.owner[e] >= 0:
                token, style = _token(state, e)
                text.append("─" * before, style="dim")
                text.append(token, style=style)
                text.append("─" * (cell - 2 - before), style="dim")
            else:
                text.append("─" * cell, style="dim")
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
                    f"{side_initial[sq.side]}+{sq.points}".center(cell - 1), SIDE_STYLES[sq.side]
                )
            elif sq.strength != (0, 0):
                text.append("=".center(cell - 1), style="yellow")
            else:
                text.append(" " * (cell - 1))
        text.append("\n")
    return text


class _Board:
    """The board as wide as the console allows: the widest cell that fits, the narrowest
    where none does (Rich asks a renderable to draw itself for a width)."""

    def __init__(self, state: EdgesState) -> None:
        self.state = state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cols = self.state.game.board.cols
        cells = (CELL, *NARROW_CELLS)
        cell = next((c for c in cells if board_width(cols, c) <= options.max_width), cells[-1])
        yield render_board(self.state, cell)


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
    return Group(_Board(state), render_status(state))
