"""The levers a designer pulls, on the command line: ``meeple cards`` (per-card statistics of
a stored run) and ``meeple ranking`` (the rank frequencies of a Triangle Clock ranking
table). Each prints a table, ``--json`` the same figures for a script, ``--plot FILE`` a
picture with the figures' 95% intervals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.interfaces.console import console, fail, print_table
from meeple.interfaces.lab_common import Db, flagged_once
from meeple.lab.cards import PLAYED_NOTE, card_figure, card_report, card_table
from meeple.lab.ranks import MAX_DEALS, rank_figure, rank_frequencies, rank_table
from meeple.lab.replay import as_played
from meeple.lab.run import LEFT_OUT, read_run
from meeple.store import DEFAULT_URL

Json = Annotated[bool, typer.Option("--json", help="print the figures as JSON instead")]
Plot = Annotated[
    Path | None, typer.Option(help="also draw the figures, with 95% intervals, to this PNG file")
]


def _plot(fig: Any, path: Path) -> None:
    if path.suffix.lower() != ".png":
        raise MeepleError(f"--plot {path}: the picture is a PNG file; name it FILE.png")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # as results --csv makes its folder
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise MeepleError(f"cannot write {path}: {exc.strerror or exc}") from None


def cards_command(
    run: Annotated[str, typer.Argument(help="a stored run's key, or its first letters")],
    as_json: Json = False,
    plot: Plot = None,
    db: Db = DEFAULT_URL,
) -> None:
    """Per-card statistics of a stored run: each card's plays, by seat, won when played.

    For a card game's run: how often each card (or item) was played and by which seat,
    whether the side that played it won more often, which cards were never played.

    The run is any stored simulate run (meeple results lists them); its games are replayed
    from their moves, so nothing is played again.
    """
    from meeple.store import ResultStore, sqlite_file

    try:
        if (file := sqlite_file(db)) is not None and not file.exists():
            raise MeepleError(f"no run {run!r}: there is no results database {file}")
        store = ResultStore(db)
        stored = read_run(store, run)
        found = stored.run
        with as_played(store, stored.games.rows) as played:  # on the files the run read
            report = card_report(played)
        if plot is not None:
            _plot(card_figure(report), plot)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if as_json:
        damaged = [
            {"game": index if isinstance(index, int) else repr(index), "problem": why}
            for index, why in stored.games.damaged.items()
        ]
        out = {"run": found["key"], **report.model_dump(mode="json"), "damaged": damaged}
        print(json.dumps(out, indent=2))
        return
    if note := stored.games.note(found["key"], LEFT_OUT):
        console.print(f"[yellow]{escape(note)}[/]")
    title = f"cards of run {found['key']} ({found['game']}, {report.games} games; {report.agents})"
    headers, rows = card_table(report)
    rows, note = flagged_once(rows, [report.games])
    print_table(title, headers, rows, prose=(-1,))  # the difference, in words
    if note:
        console.print(escape(note))
    never = ", ".join(report.never_played) or "none"
    console.print(f"Never played: {escape(never)}.")
    console.print(escape(PLAYED_NOTE))
    if plot is not None:
        console.print(f"Plot {escape(str(plot))}")


def ranking_command(
    table: Annotated[
        str,
        typer.Argument(help="a ranking table (TOML); default: the one shipped with the game"),
    ] = "default",
    tie_break: Annotated[
        str, typer.Option(help="rank-first or whole-hand, as the game's --tie-break")
    ] = "rank-first",
    deals: Annotated[
        int,
        typer.Option(help="deals sampled for the best-of-deal column", min=100, max=MAX_DEALS),
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="seed of the sampled deals, 0 or more", min=0)] = 0,
    as_json: Json = False,
    plot: Plot = None,
) -> None:
    """The Triangle Clock's ranking table with how often each rank comes up.

    Exactly, in a round played at random, and as the best hand of a deal (sampled, with its
    interval).

    Edit a copy of the shipped table (meeple rules triangle-clock --full shows it) and read
    here whether each rank's strength follows its rarity.
    """
    try:
        if tie_break not in ("rank-first", "whole-hand"):
            raise MeepleError(f"--tie-break is rank-first or whole-hand, not {tie_break!r}")
        path = None if table.strip().lower() == "default" else table
        ranks = rank_frequencies(path, tie_break, deals, seed)  # type: ignore[arg-type]
        name = table if path else "the shipped ranking table"
        if plot is not None:
            _plot(rank_figure(ranks, f"{name}, {tie_break}"), plot)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if as_json:
        out = {"table": path, "tie_break": tie_break, "deals": deals, "seed": seed}
        print(json.dumps({**out, "ranks": [r.model_dump() for r in ranks]}, indent=2))
        return
    print_table(f"{name} ({tie_break})", *rank_table(ranks), whole=2, prose=(3,))
    console.print(
        f"Random play: exact shares of rounds played at random. Best of deal: the best hand "
        f"of {deals} sampled deals (seed {seed}), with 95% Wilson intervals."
    )
    if plot is not None:
        console.print(f"Plot {escape(str(plot))}")


__all__ = ["cards_command", "ranking_command"]
