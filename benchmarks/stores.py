"""What the benchmarks that store games share: opening the results database a ``--db`` names.

from stores import open_results
store = open_results(args.db)
"""

from __future__ import annotations

import sys

from meeple.core.errors import MeepleError
from meeple.store import ResultStore


def open_results(url: str, flag: str = "--db") -> ResultStore:
    """The results database at ``url``; a URL that is not one (a path where
    ``sqlite:///path`` is wanted) or a server that cannot be reached ends the benchmark in
    one line naming ``flag``, not a traceback."""
    try:
        return ResultStore(url)
    except MeepleError as error:
        sys.exit(f"{flag}: {error}")
