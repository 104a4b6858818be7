"""Per-process use in stored Erosion runs (meeple cards counts only Squad Combat and The
Triangle Clock): plays a game of each process, the share of games it was played in, and
whether the seat that played it won, from a run's JSONL rows (`meeple simulate ... --out`).

    python docs/design/erosion/process_use.py results/sim/erosion-RUN.jsonl [--cards FILE]
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from meeple.lab.stats import wilson_interval

VERBS = ("weather", "hillslope", "fluvial")


def pct(k: int, n: int) -> str:
    """A share with its 95% Wilson interval."""
    lo, hi = wilson_interval(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {n}"


def main(path: str, cards: str) -> None:
    """Print a Markdown table of every process's use in the run at ``path``."""
    table = json.loads(Path(cards).read_text())["cards"]
    process = {c["id"]: c["process"]["name"] for c in table if c.get("process")}
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
    plays: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    held: dict[str, int] = defaultdict(int)  # seat-games a process was played in
    won: dict[str, int] = defaultdict(int)
    for row in rows:
        per_seat: dict[int, set[str]] = defaultdict(set)
        for seat, move in row["moves"]:
            verb, *rest = move.split()
            actions[verb] += 1
            if verb in VERBS:
                name = process[rest[0]]
                plays[name] += 1
                per_seat[seat].add(name)
        for seat, names in per_seat.items():
            for name in names:
                held[name] += 1
                won[name] += seat in (row["winners"] or [])
    n = len(rows)
    print(
        f"{n} games; actions a game: "
        + ", ".join(
            f"{v} {actions[v] / n:.2f}"
            for v in ("weather", "hillslope", "fluvial", "draw", "redraw", "uplift", "pass")
        )
    )
    print("| process | plays a game | seat-games played in | that seat won (alone or shared) |")
    print("|---|---|---|---|")
    for name, count in plays.most_common():
        print(f"| {name} | {count / n:.2f} | {held[name]} | {pct(won[name], held[name])} |")
    never = sorted(set(process.values()) - set(plays))
    print("never played:", ", ".join(never) or "none")


if __name__ == "__main__":
    args = sys.argv[1:]
    cards = "src/meeple/games/erosion/cards.json"
    if "--cards" in args:
        i = args.index("--cards")
        cards = args[i + 1]
        del args[i : i + 2]
    main(args[0], cards)
