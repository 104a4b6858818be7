"""The one way the lab starts a plot: a matplotlib figure that shows people's words as
they are written.

A plot shows a designer's labels (``--variant "cheap: ..."``), card and rank names read
from their files, and agent specs. matplotlib reads text between two ``$`` as TeX: a label
``$\\frac{x$`` raised a ParseSyntaxException when the plot was drawn, and ``price $5 to $7``
came out in italics. Plain text it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def new_figure(width: float, height: float) -> Figure:
    """A matplotlib figure of this size in inches, its text never read as TeX.

    The object API (Figure, not pyplot) draws straight to files: no window. Imported here:
    matplotlib takes about 0.3 s to import, and every ``meeple`` command imports the lab,
    plotting or not.
    """
    import matplotlib
    from matplotlib.figure import Figure

    # A Text reads this when it is made, and tick labels are made as late as the drawing:
    # set for the process (meeple draws no TeX anywhere), not around one call.
    matplotlib.rcParams["text.parse_math"] = False
    return Figure(figsize=(width, height))
