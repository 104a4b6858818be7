"""The compiled twin of ``../rules.py``: Erosion's rules written a second time for numba.

The readable rules (:mod:`meeple.games.erosion.rules`, with its transitions, legal actions
and eras) are the reference; this package is the copy that search runs, proven equal to
them by ``tests/games/erosion/test_fast.py``. :mod:`.rules` turns the reference's states
and options into arrays and back (read it first), :mod:`.state` lays out the position
array and moves cards in it, :mod:`.transitions` holds the compiled legal actions,
transitions, chance and random games.
"""
