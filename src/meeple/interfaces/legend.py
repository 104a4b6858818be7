"""What the marks on a game's terminal board mean: the legend, for ``legend`` at the prompt.

The legend is written once, in the "Reading the board" section of each game's ``rules.md``
(so ``meeple rules`` shows it with the rules); this module reads that section back.
"""

from __future__ import annotations

from meeple.core.errors import GamePackageError
from meeple.core.game import Game
from meeple.interfaces.console import console, print_error, print_markdown
from meeple.interfaces.prompt_words import Turn, prompt_command

LEGEND_HEADING = "## Reading the board"


def legend_markdown(game: Game | type[Game]) -> str:
    """The "Reading the board" section of the game's rules, heading included ('' if none)."""
    text = game.rules_markdown()
    start = text.find(f"\n{LEGEND_HEADING}\n")
    if start < 0:
        return ""
    end = text.find("\n## ", start + len(LEGEND_HEADING) + 2)
    return text[start + 1 : end if end >= 0 else len(text)].rstrip() + "\n"


def print_legend(game: Game) -> None:
    """Show the legend at the terminal (or say that the game has none, or why it cannot be
    read: a game whose package lacks its rules.md is still played on)."""
    try:
        legend = legend_markdown(game)
    except GamePackageError as exc:
        print_error(str(exc))
        return
    if legend:
        print_markdown(legend)
    else:
        console.print(f"{game.title} has no legend: its board uses no marks to explain.")


@prompt_command("legend", "key", help="what the marks on the board mean")
def _legend(turn: Turn, rest: str) -> bool:
    print_legend(turn.play.game)
    return False
