"""``meeple solve edges --prove T --estimate N``: how big a proof will be, before running it."""

from __future__ import annotations

import time

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.games.edges.rules import EdgesState
from meeple.interfaces.console import console, fail


def estimate(
    state: EdgesState,
    threshold: int,
    split: int,
    depth: int | None,
    probes: int,
    budget: float | None,
    tt_bits: int | None,
    expect: bool,
    seed: int,
) -> None:
    """Run ``probes`` random probes of the proof of "can the first player reach at least
    ``threshold``?" at ``split`` (each sampled position searched ``depth`` plies down) and
    print the estimated leaves, nodes and core-hours with their 95% intervals. ``expect``
    is the answer whose tree is walked (see :mod:`meeple.solvers.edges_estimate`)."""
    from meeple.solvers.edges_estimate import ProofEstimate, estimate_proof

    depth = split if depth is None else depth
    if depth < split:
        raise fail(f"--depth {depth} is above the --split {split}: give a depth >= the split")
    if state.is_over:
        raise fail("the game is over: there is nothing to prove")
    # The proof is about seat 0; "the first player" may be seat 1 in a saved game.
    first_is_seat0 = state.order[0] == 0
    seat_threshold = threshold if first_is_seat0 else 1 - threshold
    claim = expect if first_is_seat0 else not expect
    answer = "yes" if expect else "no"
    console.print(
        f"Edges {state.game.board}, pie rule {'on' if state.game.options.pie else 'off'}: the "
        f"size of the proof that the answer to 'can the first player reach at least "
        f"{threshold:+d}?' is {answer}, split {split}, by {probes} random probes each searched "
        f"{depth} plies down",
        highlight=False,
    )
    deadline = None if budget is None else time.perf_counter() + budget
    columns = (TextColumn("probes"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[note]}"))  # fmt: skip
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("probes", total=probes, note="")

        def on_probe(e: ProofEstimate) -> None:
            leaves, hours = e.leaves, e.core_hours
            progress.update(task, completed=len(e.probes), note=f"leaves ~{leaves.mean:.3g}, "
                            f"core-hours ~{hours.mean:.3g}")  # fmt: skip

        try:
            result = estimate_proof(state, seat_threshold, probes, split, depth, claim, seed,
                                    tt_bits, deadline, on_probe)  # fmt: skip
        except KeyboardInterrupt:
            console.print("stopped; nothing was kept")
            raise typer.Exit(code=130) from None
    if not result.probes:
        raise fail("no probe finished within the --budget: give more time or a deeper --depth")
    table = Table()
    for name in ("", "estimate", "95% low", "95% high"):
        table.add_column(name, justify="right" if name else "left")
    rows = [(f"leaves (at the split, {split} plies)", result.leaves)]
    if depth > split:
        rows.append((f"positions searched at {depth} plies", result.sampled))
    rows += [("nodes", result.nodes), ("core-hours", result.core_hours)]
    for name, value in rows:
        table.add_row(name, *(f"{x:.3g}" for x in (value.mean, value.low, value.high)))
    console.print(table)
    console.print(
        f"{len(result.probes)} probes; {100 * result.agreeing:.0f}% of the sampled positions "
        f"answered {answer} (where one does not, the proof tries another move: more cost); "
        f"{result.nodes_per_second:,.0f} nodes per CPU second. Counted in the tree, every "
        "position searched alone with a cleared table: a proof searches a transposed leaf "
        "once and shares one table among sibling leaves, so it costs less "
        "(docs/solving-edges.md, '3x4: how big is the proof')",
        highlight=False,
    )
