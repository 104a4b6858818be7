"""``meeple solve erd``: the equilibrium of an Erd rules version, from the solver or cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.core.errors import MeepleError
from meeple.interfaces.console import console, fail


def _options(rules: str | None, pairs: list[str]) -> dict[str, Any]:
    """``--rules`` and ``--option name=value`` as game options."""
    options: dict[str, Any] = {}
    if rules is not None:
        options["rules"] = rules
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise MeepleError(
                f"--option takes name=value (e.g. turret_lifetime=one_combat), not {pair!r}"
            )
        key = name.strip().replace("-", "_")
        if key == "rules" and rules is not None:
            raise MeepleError("the rules version is given twice (--rules and --option rules=)")
        options[key] = value.strip()
    return options


def solve_erd(
    rules: str | None, pairs: list[str], cache_dir: Path | None, use_cache: bool, top: int
) -> None:
    """Solve (or read back) one Erd rules version and print the opening's value and mix."""
    from meeple.solvers.erd.solve import solve_erd as solve

    try:
        options = _options(rules, pairs)
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            build = progress.add_task("building states", total=None)
            sweep = progress.add_task("sweep 1", total=None, visible=False)

            def on_build(done: int, known: int) -> None:
                progress.update(build, completed=done, total=known)

            def on_sweep(k: int, done: int, due: int) -> None:
                # Heard after every state of every sweep (80,000 times for 200 rounds) while
                # the bar is drawn ten times a second: a sweep's first and last state and
                # every 32nd between show the same, at a fraction of the cost.
                if done % 32 and 1 < done < due:
                    return
                progress.update(build, visible=False)
                progress.update(
                    sweep, visible=True, description=f"sweep {k}", completed=done, total=due
                )

            def note(text: str) -> None:
                console.print(f"[yellow]note:[/] {text}", highlight=False)

            _, summary, cached = solve(options, cache_dir, use_cache, on_build, on_sweep, note)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    _print(options, summary, cached, top)


def _print(options: dict[str, Any], s: dict[str, Any], cached: bool, top: int) -> None:
    from meeple.solvers.erd.solve import solved_options

    play, horizon = solved_options(options)
    said = ", ".join(f"{k}={v}" for k, v in play.items())
    console.print(f"Erd ({said}), one game, round limit {horizon}", highlight=False)
    console.print(
        f"Value of the opening to Red: {s['opening_value']:+.9f} (+1 a sure win, -1 a sure loss)",
        highlight=False,
    )
    # "alike" was never said (a terminal newcomer's finding), and the title broke mid-phrase
    # at 80 columns.
    table = Table(title="Red's optimal opening mix (Blue's is the same)")
    table.add_column("allocation")
    table.add_column("alike", justify="right")
    table.add_column("probability", justify="right")
    for alloc, alike, p in s["opening_mix"][:top]:
        table.add_row(alloc, str(alike), f"{p:.6f}")
    console.print(table)
    console.print(
        "alike: how many allocations play as the one named against every reply (it stands "
        "for them all; the probability is of playing any of them)",
        highlight=False,
    )
    hidden = len(s["opening_mix"]) - top
    if hidden > 0:
        console.print(f"... and {hidden} more (--top)", highlight=False)
    where = "read from the cache (solved earlier in " if cached else "solved in "
    console.print(
        f"{s['states']} states (mirror pairs merged), {s['programs']:,} linear programs"
        + (
            f" and {s['reused']:,} stage games solved on their last support"
            if s.get("reused")
            else ""
        )
        + f" over {s['sweeps']} sweeps; {where}{s['build_seconds'] + s['seconds']:.1f} s: "
        f"{s['build_seconds']:.1f} s building states with the engine, "
        f"{s['seconds']:.1f} s of value iteration{')' if cached else ''}",
        highlight=False,
    )
    console.print(
        f"Checks: exploitability at every state {s['exploitability']:.1e} (best response to "
        f"each mix against the value); {s['cross_checked']} stage games re-solved by the "
        f"column player's own program agree within {s['cross_check_difference']:.1e}",
        highlight=False,
    )
    if not s["converged"]:
        console.print(
            f"The values still moved by {s['last_change']:.1e} in the last sweep: the solution "
            f"is for exactly {horizon} rounds (change it with -o round_limit=N)",
            highlight=False,
        )
