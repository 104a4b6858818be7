"""The compiled twin of ``../rules.py``: Edges' rules written a second time for numba.

The readable rules (:mod:`meeple.games.edges.rules`, with :mod:`~meeple.games.edges.board`)
are the reference; this package is the copy that search runs, proven equal to them by
``tests/games/edges/test_fast.py``. :mod:`.rules` is the position as one small integer
array and the rules on it; :mod:`.uct_search` the compiled UCT search behind the ``uct``
agent (:mod:`meeple.games.edges.uct`, which stays outside: it is plain Python).
"""
