"""How the Edges engine's functions are compiled: numba, through
:func:`meeple.core.kernels.kernel`.

Every function is compiled with ``nogil=True``: the solver may run a search in a worker
thread and read the node counter (or raise the stop flag) from Python while it runs. And
with numba's reference counting off (``_nrt=False``): nothing here allocates, every array
is owned by the caller for the whole search, and the counting cost an atomic increment and
decrement per array argument per node -- about 14% of the search's time under ``perf``, and
the search ran 1.4x faster without it (benchmarks/edges_solver.py --left 14).
"""

from __future__ import annotations

from meeple.core.kernels import kernel

compiled = kernel(nogil=True, _nrt=False)
"""A function of its own (called, not inlined)."""
inlined = kernel(nogil=True, inline="always", _nrt=False)
"""A small helper, inlined into its callers at numba's IR level."""
