"""The compiled twin of ``../rules.py``: Erd's rules written a second time for numba.

The readable rules (:mod:`meeple.games.erd.rules`, with its pieces and rounds modules) are
the reference; this package is the copy that batched environments run, proven equal to
them by ``tests/games/erd/test_fast.py``. :mod:`.rules` is a match as one small integer
array, the rules on it and the way in and out of the reference's states; :mod:`.batch`
steps many matches at once for :class:`meeple.envs.vector.MeepleVectorEnv`.
"""
