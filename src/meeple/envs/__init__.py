"""meeple's games in research frameworks: PettingZoo, OpenSpiel and Gymnasium.

``meeple.envs.pettingzoo``, ``meeple.envs.openspiel`` and ``meeple.envs.gym`` each need
their framework (``pip install 'meeple[envs]'``); they use only the core API, and no game
imports them. docs/envs.md describes the observations, actions and rewards.
"""
