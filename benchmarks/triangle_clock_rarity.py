"""A Triangle Clock ranking table whose strengths follow each rank's rarity.

    .venv/bin/python benchmarks/triangle_clock_rarity.py \
        --out docs/design/triangle-clock/rarity.toml

Keeps the order of a ranking table (default: the shipped one, or ``--table PATH``) and
gives each rank the strength ``round(log2(1 / p))``, where ``p`` is the exact share of rounds
played at random whose hand ranks this high or higher (``meeple ranking``'s "random play"
column, summed from the top): a hand this good comes up about one round in ``2**strength``.
The share of the rank alone would not do: it does not fall down the table (Nothing is rarer
than a Pair), and a lower rank must not score more than a higher one. The top rank of the
shipped table comes up about one round in a thousand, so it keeps strength 10; Nothing, which
every hand reaches, keeps 0. Prints the table (TOML) or writes it to ``--out``; the result
plays with ``--ranking PATH``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from meeple.games.triangle_clock.hands import RankingTable, random_play_frequencies, ranking

HEADER = """\
# The Triangle Clock: how hands rank, highest first. A variant of the {source} table for
# docs/design/triangle-clock.md: the order is unchanged, and each rank's strength follows its
# rarity: round(log2(1 / p)), where p is the exact share of rounds played at random whose
# hand ranks this high or higher (meeple ranking's "random play" column, summed from the
# top), so a hand this good comes up about one round in 2^strength. Written by
#     .venv/bin/python benchmarks/triangle_clock_rarity.py --out {out}
#
{rows}
#
# Each [[rank]] has a name, a pattern (kind, rotate, nothing), the size of symbols it uses, a
# flush flag and the strength the winner scores when this hand loses (meeple rules
# triangle-clock --full). A hand takes the highest rank it satisfies.
"""


def rarity_strengths(table: RankingTable, shares: list[float]) -> list[int]:
    """Each rank's strength: round(log2(1 / share of hands at this rank or higher))."""
    strengths, at_least = [], 0.0
    for spec, share in zip(table.rank, shares, strict=True):
        at_least += share
        if at_least == 0:
            raise ValueError(f"no round played at random reaches {spec.name}: no rarity to follow")
        # The last rank's cumulative share is 1 up to rounding: never below 0.
        strengths.append(max(0, round(-math.log2(min(at_least, 1.0)))))
    return strengths


def rarity_table(source: str | None, out: str) -> str:
    """The TOML text of ``source``'s table (None: the shipped one) with rarity strengths."""
    played = ranking(source)
    shares = random_play_frequencies(played)
    strengths = rarity_strengths(played.table, shares)
    rows, at_least = [], 0.0
    for spec, share, strength in zip(played.ranks, shares, strengths, strict=True):
        at_least += share
        rows.append(
            f"#   {spec.name:<20} {100 * share:6.2f}% of rounds, {100 * at_least:6.2f}% this"
            f" high or higher: strength {strength} (was {spec.strength})"
        )
    text = HEADER.format(source=source or "shipped", out=out, rows="\n".join(rows))
    for spec, strength in zip(played.ranks, strengths, strict=True):
        text += (
            f'\n[[rank]]\nname = "{spec.name}"\npattern = "{spec.pattern}"\n'
            f"size = {spec.size}\nflush = {str(spec.flush).lower()}\nstrength = {strength}\n"
        )
    return text


def main() -> None:
    """Print or write the rarity table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default=None, help="ranking table to start from (TOML)")
    parser.add_argument("--out", default=None, help="write the table here instead of printing")
    args = parser.parse_args()
    out = args.out or "rarity.toml"
    text = rarity_table(args.table, out)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
