"""The compiled twin of ``../rules.py``: Squad Combat's rules written a second time for numba.

The readable rules (:mod:`meeple.games.squad_combat.rules`, with its reading, turns, combat,
windows and edits modules) are the reference; this package is the copy that search runs,
proven equal to them by ``tests/games/squad_combat/test_fast.py``. :mod:`.rules` turns the
reference's states and options into arrays and back (read it first), :mod:`.reading` lays
out the arrays and answers questions about a position, :mod:`.transitions` holds the
transitions and random games, and :mod:`.guided` the heuristic's choices compiled as a
rollout policy (``rollout=guided``).
"""
