"""meeple's games in research frameworks: PettingZoo, OpenSpiel and Gymnasium.

``meeple.envs.pettingzoo``, ``meeple.envs.openspiel`` and ``meeple.envs.gym`` each need
their framework (``pip install 'meeple[envs]'``); they use only the core API, and no game
imports them. docs/envs.md describes the observations, actions and rewards.
"""

from __future__ import annotations

INSTALL = "pip install 'meeple[envs]'"
"""What installs the research frameworks (the ``envs`` extra)."""


def framework_missing(missing: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for a research framework that is not installed: which, and what installs it
    (Python's own named only the module, with no word of meeple's extra)."""
    return ModuleNotFoundError(
        f"meeple's research environments need {missing.name}, which is not installed: {INSTALL}",
        name=missing.name,
    )
