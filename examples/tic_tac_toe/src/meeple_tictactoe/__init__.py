"""Tic-tac-toe for meeple, installed as a package of its own (docs/new-game.md).

Importing it registers the game (the ``@register`` in :mod:`.rules`), its agent and its
terminal drawing. meeple imports it through the ``meeple.games`` entry point that this
package's ``pyproject.toml`` declares, the first time it looks up a game.
"""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent
from meeple_tictactoe.agents import HeuristicAgent
from meeple_tictactoe.render import render_state
from meeple_tictactoe.rules import Mark, TicTacToeGame, TicTacToeOptions, TicTacToeState

# The agent and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("tic-tac-toe", "heuristic", HeuristicAgent)
register_renderer(TicTacToeGame, render_state)

__all__ = ["Mark", "TicTacToeGame", "TicTacToeOptions", "TicTacToeState"]
