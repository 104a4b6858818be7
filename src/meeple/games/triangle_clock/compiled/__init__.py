"""The compiled twin of ``../rules.py``: The Triangle Clock's rules written a second time
for numba.

The readable rules (:mod:`meeple.games.triangle_clock.rules`, with its pieces, cards, hands
and hidden modules) are the reference; this package is the copy that search runs, proven
equal to them by ``tests/games/triangle_clock/test_fast.py``. :mod:`.rules` is the position
as one small integer array, the rules on it and the way in from the reference's states;
:mod:`.plans` the greedy hand planner's plan of picks and the strength of the cards it
keeps; :mod:`.guided` that planner as a rollout policy (``rollout=guided``, ``ahead``,
``deep``).
"""
