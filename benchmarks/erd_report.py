"""The figures of docs/erd-solved.md: per rules version (and option), from the solution,
exactly (nothing sampled): the value, how long a game lasts and why it ends, how often
Escalations and Turrets happen, how mixed optimal play is, and a plot of the round-length
distributions side by side.

.venv/bin/python benchmarks/erd_report.py --plot docs/erd-solved-lengths.png

Solutions come from the cache (``meeple solve erd --rules ...`` fills it) or are solved.
Where a stage game has several optimal mixes, the figures of play (lengths, endings) are
those of the mixes kept; ``--programs`` solves every stage game by a program instead, another
equilibrium with the same values (in the original rules, much longer games).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from meeple.solvers.erd.analysis import PlayStatistics, play_statistics
from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import build_model, model_difference, tiny_start
from meeple.solvers.erd.solve import game_for, solve_erd, solved_options, summarise

VERSIONS = ("original", "0.01", "0.02")
OPTIONS: dict[str, dict[str, str]] = {
    "one_combat": {"turret_lifetime": "one_combat"},
    "own_lights": {"escalation_lights": "own"},
    "tiebreak_cards": {"rush_tiebreak": "cards"},
}
"""The options that change the rules' reading (each against its default), by label."""

SPECS: dict[str, dict[str, Any]] = {
    **{rules: {"rules": rules} for rules in VERSIONS},
    **{
        f"{rules} {label}": {"rules": rules, **option}
        for rules in VERSIONS
        for label, option in OPTIONS.items()
    },
    # Variants of the starting Reserve (Heavies, Lights, Decoys), through the same solver.
    "0.02 +1 Light": {"rules": "0.02", "start": (3, 4, 6)},
    "0.02 3 Decoys": {"rules": "0.02", "start": (3, 3, 3)},
}


def _solve(
    spec: dict[str, Any], round_limit: int, folder: Path | None, programs: bool = False
) -> tuple[Any, Any]:
    """The solution and summary of a spec: from the cache, or (a variant start, or a program
    for every stage game) solved here, not cached."""
    options = {k: v for k, v in spec.items() if k != "start"}
    options["round_limit"] = round_limit
    if "start" not in spec and not programs:
        solution, summary, _ = solve_erd(options, folder)
        return solution, summary
    play, horizon = solved_options(options)
    start = tiny_start(*spec["start"]) if "start" in spec else None
    model = build_model(game_for(play), start)
    solution = value_iteration(model, horizon, reuse=not programs)
    return solution, summarise(solution)


def _row(label: str, summary: dict[str, Any], stats: PlayStatistics) -> list[str]:
    ends = stats.ends_in_round
    by = [sum(ends[:k]) for k in (1, 2, 3, 5, 10)]
    reasons = stats.reasons
    return [
        label,
        f"{summary['opening_value']:+.2e}",
        *(f"{100 * p:.1f}%" for p in by),
        f"{100 * (1 - sum(ends[:20])):.2f}%",
        f"{100 * (1 - sum(ends[:100])):.3f}%",
        f"{stats.expected_length:.2f}",
        f"{100 * (reasons['rush'] + reasons['both_rushes']):.1f}%",
        f"{100 * reasons['mercy']:.2f}%",
        f"{100 * reasons['pre_escalation']:.2f}%",
        f"{100 * reasons['round_limit']:.4f}%",
        f"{100 * stats.any_escalation:.1f}%",
        f"{stats.escalations:.2f}",
        f"{100 * stats.any_turret:.1f}%",
        f"{len(summary['opening_mix'])}",
        f"{stats.support_by_round[1] if len(stats.support_by_round) > 1 else 0:.1f}",
    ]


HEADER = [
    "rules",
    "value",
    "ends in round 1",
    "by round 2",
    "by 3",
    "by 5",
    "by 10",
    "longer than 20",
    "longer than 100",
    "expected rounds",
    "Rush ends it",
    "mercy",
    "pre-Escalation",
    "round limit",
    "an Escalation",
    "Escalations per game",
    "a Turret made",
    "opening mix: allocations",
    "round 2: allocations (mean)",
]


def main() -> None:
    """Print the table (markdown) and the first rounds' distribution; write the plot."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=list(VERSIONS), choices=list(SPECS))
    parser.add_argument("--plot", type=Path, default=None, help="write the PNG here")
    parser.add_argument("--rounds", type=int, default=12, help="rounds shown in the plot")
    parser.add_argument("--round-limit", type=int, default=200, help="the games' round limit")
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument(
        "--programs",
        action="store_true",
        help="solve every stage game by a program, not on its last support (another "
        "equilibrium where a stage game has several; solved here, not cached: minutes)",
    )
    parser.add_argument(
        "--differences",
        action="store_true",
        help="say where each option's game differs from its rules version's (both in --only)",
    )
    args = parser.parse_args()
    results: dict[str, tuple[dict[str, Any], PlayStatistics]] = {}
    solutions: dict[str, Solution] = {}
    for label in args.only:
        solution, summary = _solve(SPECS[label], args.round_limit, args.cache_dir, args.programs)
        results[label] = (summary, play_statistics(solution))
        solutions[label] = solution
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for label, (summary, stats) in results.items():
        print("| " + " | ".join(_row(label, summary, stats)) + " |")
    print()
    print("P(game ends in round r), r = 1..", args.rounds)
    for label, (_, stats) in results.items():
        cells = " ".join(f"{p:.4f}" for p in stats.ends_in_round[: args.rounds])
        print(f"{label:>16}: {cells}")
    print()
    for label, (summary, _) in results.items():
        mix = ", ".join(f"{a} {p:.3f}" for a, _, p in summary["opening_mix"])
        print(f"{label} opening mix: {mix}")
    if args.differences:
        print()
        _differences(solutions)
    if args.plot is not None:
        _plot(results, args.rounds, args.plot)
        print(f"\nplot: {args.plot}")


def _differences(solutions: dict[str, Solution]) -> None:
    """Per option: the states and stage games where it differs from its version's game, and
    how far apart the values of the states both reach are."""
    for label, solution in solutions.items():
        rules, _, option = label.partition(" ")
        if option not in OPTIONS or rules not in solutions:
            continue
        base = solutions[rules]
        d = model_difference(base.model, solution.model)
        verdict = "the same game" if d.same_game else "a different game"
        shared = base.model.index.keys() & solution.model.index.keys()
        mine = [solution.model.index[s] for s in shared]
        theirs = [base.model.index[s] for s in shared]
        apart = max(
            float(np.abs(solution.values[k][mine] - base.values[k][theirs]).max())
            for k in range(min(solution.sweeps, base.sweeps) + 1)
        )
        print(
            f"{label} against {rules}: {verdict} ({len(solution.model.states)} states against "
            f"{len(base.model.states)}; {d.only_second} only with the option, "
            f"{d.only_first} only without; {d.different} shared states play differently; "
            f"their values differ by up to {apart:.3g}, the opening's by "
            f"{abs(solution.opening_value - base.opening_value):.1e})"
        )


def _plot(
    results: dict[str, tuple[dict[str, Any], PlayStatistics]], rounds: int, path: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=110)
    width = 0.8 / len(results)
    x = np.arange(1, rounds + 2)
    for k, (label, (_, stats)) in enumerate(results.items()):
        ends = stats.ends_in_round[:rounds]
        ends = ends + [0.0] * (rounds - len(ends))
        later = 1.0 - sum(ends)
        ax.bar(x + (k - (len(results) - 1) / 2) * width, [*ends, later], width, label=label)
    ax.set_xticks(x, [*(str(r) for r in range(1, rounds + 1)), f">{rounds}"])
    ax.set_xlabel("round in which the game ends")
    ax.set_ylabel("probability under equilibrium play")
    ax.set_title("Erd solved: how long a game lasts, per rules version (exact)")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


if __name__ == "__main__":
    main()
