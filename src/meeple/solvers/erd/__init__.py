"""Erd solved: every state's value and both players' optimal mixed strategies.

:mod:`.model` builds the stochastic game from the rules engine, :mod:`.lp` solves matrix
games, :mod:`.iteration` runs Shapley's value iteration, :mod:`.checks` verifies the result,
:mod:`.analysis` reads the designer's statistics off it exactly, :mod:`.store` caches it on
disk and :mod:`.agent` plays it.
"""
