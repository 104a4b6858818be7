"""``meeple compare`` and ``meeple sweep``: a game's variants played on the same seeds and
shown side by side, with the paired differences from the first; a sweep is a comparison of
one option's or one data field's values, plotted by value.

They play and report through what every lab command shares (:mod:`.lab_common`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.options import describe_options
from meeple.core.registry import game_class, make
from meeple.interfaces.console import console, fail, text_table
from meeple.interfaces.lab_common import (
    Address,
    BackendOpt,
    Db,
    Duplicate,
    Fresh,
    Games,
    Jobs,
    LabError,
    Out,
    RotateSeats,
    Seats,
    Seed,
    agents_line,
    check_seats,
    check_writable,
    chosen_backend,
    command_line,
    given_seats,
    note_runs,
    one_backend,
    play_run,
    print_notable,
    print_notes,
    print_seats,
    print_warnings,
    report_folder,
    run_rows,
    seating_words,
    simulation_spec,
    summary_table,
    writing_report,
)
from meeple.interfaces.options_cli import flag, options_words, parse_option_flags, unknown_flag
from meeple.lab.metrics import Summary, summarize
from meeple.lab.paired import Pairing, paired_differences
from meeple.lab.replay import notable_lines
from meeple.lab.report import (
    comparison_report,
    difference_note,
    difference_table,
    markdown_table,
    paired_only,
    seat_label,
    summary_warnings,
)
from meeple.lab.run import RunSpec, write_jsonl
from meeple.lab.sweep import field_variants, sweep_figure, sweep_table, sweep_values
from meeple.store import DEFAULT_URL


def _variant_example(game: str) -> tuple[str, str, str]:
    """An option of ``game`` and two of its values, for the examples in compare's errors:
    the first option whose allowed values are a list of single words."""
    for info in describe_options(game_class(game).Options):
        values = info.allowed.split(" | ")
        if len(values) >= 2 and all(v and " " not in v for v in values[:2]):
            return info.name, values[0], values[1]
    return "auto_steps", "true", "false"


def variant_label(text: str) -> tuple[str, str]:
    """A ``--variant`` text as (its label, its option=value pairs): ``cheap firebolt:
    content=cards`` is labelled ``cheap firebolt``; a text with no ``: `` after a label (a
    label is any text without ``=`` before the first ``: ``) is its own label, and an empty
    one (the game as the other flags make it) is labelled ``defaults``."""
    head, colon, rest = text.partition(": ")
    if not colon or "=" in head:
        # An empty variant is the game as the other flags make it: named, not left blank.
        return text.strip() or "defaults", text
    if not head.strip():
        raise LabError(
            f"variant {text!r}: the label before ': ' is empty; write LABEL: option=value, "
            "e.g. 'cheap firebolt: content=my-cards', or leave out the ': '"
        )
    return head.strip(), rest


def _parse_variant(game: str, text: str) -> dict[str, str]:
    """A ``--variant`` text as option=value pairs (the values still to be checked by the game)."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            option, value, _ = _variant_example(game)
            raise LabError(
                f"variant {text!r}: write option=value pairs joined by commas (the parts "
                f"of one value joined by '/'), e.g. {option}={value}"
            )
        if ":" in key:
            # A label written without the space after its colon: no option has a colon.
            raise LabError(
                f"variant {text!r}: a label ends with ': ', a colon and a space: "
                f"{text.replace(':', ': ', 1)!r}"
            )
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def compare_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game whose variants to compare")],
    variant: Annotated[
        list[str],
        typer.Option(
            # In words that wrap: the syntax written as one token, [LABEL: ]option=value
            # [,option=value], was cut short in the help's column at 80 columns.
            help="one variant: option=value, several joined by commas, and an optional "
            "'LABEL: ' in front (any text without '=') naming it in tables and plots; one "
            "--variant each, two or more, e.g. --variant 'cheap firebolt: content=my-cards'"
        ),
    ],
    games: Games = 200,
    seat: Seats = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
    rotate_seats: RotateSeats = False,
    duplicate: Duplicate = False,
) -> None:
    """Simulate each variant with the same seeds and show the metrics side by side."""
    _compare(
        game,
        list(ctx.args),
        variant,
        games,
        seat or [],
        seed,
        jobs,
        backend,
        address,
        db,
        out,
        fresh,
        rotate_seats,
        duplicate,
    )


def _compare(
    game: str,
    args: list[str],
    variant: list[str],
    games: int,
    seat: list[str],
    seed: int,
    jobs: int,
    backend: str | None,
    address: str | None,
    db: str,
    out: Path,
    fresh: bool,
    rotate_seats: bool,
    duplicate: bool,
    prefix: str = "compare",
) -> tuple[dict[str, Summary], Path]:
    """What `compare` does: play each variant on the same seeds, print the tables and the
    paired differences, write the report (in a folder named from ``prefix``); returns each
    variant's summary, by label, and the report's path."""
    try:
        check_writable(out)
        base = parse_option_flags(game, args)
        name = game_class(game).name
        specs: dict[str, RunSpec] = {}
        # Each variant is checked before their number, so a malformed one is named as such.
        seen: dict[str, str] = {}
        labels: dict[str, str] = {}  # each label -> the --variant text that gave it
        checked: list[tuple[Any, str]] = []  # each variant's game, by label: its notes
        said = ""
        for given in variant:
            label, text = variant_label(given)
            if labels.setdefault(label, given) != given:
                raise LabError(
                    f"two variants are labelled {label!r}; give each its own label "
                    "(LABEL: option=value)"
                )
            variant_game = make(name, **{**base, **_parse_variant(name, text)})
            options = variant_game.options.changed()
            try:
                seats = check_seats(name, options, seat)
                spec = simulation_spec(name, options, seats, games, seed, rotate_seats, duplicate)
            except LabError as exc:
                # Which variant: another may seat another number of players.
                raise LabError(f"{label}: {exc}") from None
            if spec.key in seen and seen[spec.key] != given:
                raise LabError(
                    f"variants {seen[spec.key]!r} and {given!r} are the same rules"
                    f" ({options_words(options) or 'the defaults'}); compare different ones"
                )
            seen[spec.key] = given
            if not specs:
                # The seats are the same in every variant: said once, once all are checked.
                said = agents_line(given_seats(seat, seats), seats, rotate_seats)
            specs[label] = spec
            checked.append((variant_game, label))
        if len(specs) < 2:
            option, one, other = _variant_example(name)
            raise LabError(
                "compare needs at least two different variants: give --variant more than "
                f"once, e.g. --variant {option}={one} --variant {option}={other}"
            )
        console.print(escape(said))
        for variant_game, label in checked:
            print_notes(variant_game, f"variant {label}: ")
        chosen = chosen_backend(backend, jobs, address)
        with one_backend(chosen, jobs, address):
            rows = {
                label: play_run(
                    s,
                    games,
                    db,
                    chosen,
                    jobs,
                    address,
                    fresh,
                    f"{label} {s.key}",
                    out / f"{name}-{s.key}.jsonl",
                )
                for label, s in specs.items()
            }
    except MeepleError as exc:
        raise fail(str(exc)) from None
    summaries = {label: summarize(r) for label, r in rows.items()}
    # The options every variant shares belong in the title: the labels give only the rest.
    title = f"{name} {options_words(base)}".rstrip() + ": variants compared"
    title += seating_words(next(iter(specs.values())))
    console.print(summary_table(title, summaries))
    print_seats(summaries)
    pairings = _pairings(rows, summaries)
    first = next(iter(rows))
    if shown := paired_only(pairings):
        headers = ["measure", *(f"{label} - {first}" for label in shown)]
        console.print(
            text_table(f"Differences from {first}", headers, difference_table(first, shown))
        )
    console.print(escape(difference_note(first, pairings)))
    print_warnings(summary_warnings(summaries))
    notable = [
        f"{label}, {line}"
        for label, s in specs.items()
        for line in notable_lines(rows[label], s.key)
    ]
    print_notable(notable)
    key = "-".join(s.key[:6] for s in specs.values())
    keys = [s.key for s in specs.values()]
    folder, past = report_folder(out / f"{prefix}-{name}-{key}", db, keys, games)
    with writing_report(out):
        for label, s in specs.items():
            write_jsonl(run_rows(db, s, rows[label], past), out / f"{name}-{s.key}.jsonl")
        report = comparison_report(
            title,
            summaries,
            {label: [float(x["length"]) for x in r] for label, r in rows.items()},
            folder,
            command_line(),
            pairings,
            notable,
            runs={label: (s.key, s.content or {}) for label, s in specs.items()},
        )
    note_runs(db, keys, report, past)
    console.print(escape(f"Report {report}"))
    return summaries, report


def sweep_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game whose option or data field to sweep")],
    values: Annotated[
        str, typer.Option(help="the values to try, separated by commas: --values 2,3,4")
    ],
    option: Annotated[
        str | None, typer.Option(help="the game option to vary (meeple rules GAME lists them)")
    ] = None,
    field: Annotated[
        str | None,
        typer.Option(
            help="instead, a field of the game's data, FILE:TABLE.KEY (e.g. Slash's damage: "
            "cards.toml:slash.damage), in the copy that the data option names (--content "
            "my-cards)"
        ),
    ] = None,
    games: Games = 200,
    seat: Seats = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
    rotate_seats: RotateSeats = False,
    duplicate: Duplicate = False,
) -> None:
    """Play one option or one data field at several values, and plot the results by value.

    Each value is a variant of a comparison on the same seeds; then each seat's win rate and
    the game's length by value, in a table and a plot with their 95% intervals.

    meeple sweep erd --option round-limit --values 20,40,80; meeple sweep squad-combat
    --content my-cards --field cards.toml:quick-shot.damage --values 2,3,4.
    """
    try:
        if (option is None) == (field is None):
            raise LabError("give what to vary: --option NAME or --field FILE:TABLE.KEY (one)")
        tried = sweep_values(values)
        args = list(ctx.args)
        name = game_class(game).name
        if option is not None:
            key = option.removeprefix("--").replace("-", "_")
            if key not in game_class(name).Options.model_fields:
                raise unknown_flag(name, key, negations=False)
            what = key.replace("_", "-")
            variants = [f"{what} {v}: {key}={v}" for v in tried]
        else:
            assert field is not None
            chosen = make(name, **parse_option_flags(name, args))
            copies = out / f"sweep-{name}-data" / re.sub(r"[^\w.=+-]", "_", field)
            edited = field_variants(chosen.options, field, tried, copies, chosen.data_problems)
            what = field.split(":", 1)[1]
            variants = [
                f"{label}: " + ",".join(f"{o}={v}" for o, v in opts.items())
                for label, opts in edited
            ]
            given = {o for _, opts in edited for o in opts}
            args = _without_options(name, args, given)
        summaries, report = _compare(
            name, args, variants, games, seat or [], seed, jobs, backend, address, db, out,
            fresh, rotate_seats, duplicate, prefix="sweep",
        )  # fmt: skip
    except MeepleError as exc:
        raise fail(str(exc)) from None
    in_order = list(summaries.values())
    # A seat's role only where every value gives it the same (a swept --items moves them).
    seats = [seat_label(summaries, p) for p in range(max(len(s.seats) for s in in_order))]
    headers, rows = sweep_table(what, tried, in_order, seats)
    table = text_table(f"{name}: {what} swept", headers, rows, whole=1)  # the value: whole
    console.print(table)
    with writing_report(out):
        figure = sweep_figure(what, tried, in_order, seats)
        plot = report.parent / "sweep.png"
        figure.savefig(plot, dpi=110)
        # The sweep's table and plot first, under the title and the command; the comparison
        # of the values (side by side, differences from the first value) follows.
        parts = report.read_text(encoding="utf-8").split("\n\n")
        swept = [f"## {what} swept", markdown_table(headers, rows), "![sweep](sweep.png)"]
        report.write_text("\n\n".join([*parts[:2], *swept, *parts[2:]]), encoding="utf-8")
    console.print(escape(f"Sweep plot {plot}"))


def _without_options(game: str, args: list[str], names: set[str]) -> list[str]:
    """``args`` (option flags) less the options ``names``, which each variant gives."""
    parsed = parse_option_flags(game, args)
    kept = {k: v for k, v in parsed.items() if k not in names}
    return [f"{flag(k)}={v}" for k, v in kept.items()]


def _pairings(
    rows: dict[str, list[Mapping[str, Any]]], summaries: dict[str, Summary]
) -> dict[str, Pairing]:
    """Each variant after the first, paired game by game with the first (same seeds)."""
    [base, *others] = list(rows)
    return {
        label: paired_differences(
            rows[base],
            rows[label],
            # A game that scores only at the end says nothing of the lead (metrics: n/a).
            leads=summaries[base].lead_changes is not None
            and summaries[label].lead_changes is not None,
        )
        for label in others
    }
