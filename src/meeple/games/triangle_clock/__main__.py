"""Print the ranking table of ``rules.md`` with its measured frequencies.

``python -m meeple.games.triangle_clock`` measures the shipped table;
``python -m meeple.games.triangle_clock my_ranking.toml whole-hand`` measures another table
(and tie-break). The output is the Markdown between the ranking markers of ``rules.md``.
A designer's command for the same figures, with intervals, JSON and a plot, is
``meeple ranking``.
"""

from __future__ import annotations

import sys

from meeple.core.errors import MeepleError
from meeple.games.triangle_clock.hands import ranking, ranking_markdown


def main(argv: list[str]) -> None:
    """Print the table for ``[path [tie-break]]``."""
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return
    path = argv[0] if argv else None
    tie_break = argv[1] if len(argv) > 1 else "rank-first"
    if tie_break not in ("rank-first", "whole-hand"):
        raise SystemExit(f"tie-break is rank-first or whole-hand, not {tie_break!r}")
    try:
        print(ranking_markdown(ranking(path, tie_break)))  # type: ignore[arg-type]
    except MeepleError as exc:
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main(sys.argv[1:])
