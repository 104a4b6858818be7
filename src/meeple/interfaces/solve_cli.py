"""``meeple solve edges``: exact values of Edges boards and saved positions."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.core.errors import MeepleError, did_you_mean
from meeple.core.files import ensure_writable_folder
from meeple.core.position import position_argument, position_game
from meeple.core.ray_cluster import ADDRESSES
from meeple.core.record import GameRecord
from meeple.core.registry import game_class, make
from meeple.core.words import counted
from meeple.games.edges.rules import EdgesState
from meeple.interfaces import solve_proof_cli as proofs
from meeple.interfaces.console import console, fail, solver_ready
from meeple.interfaces.history import history_file
from meeple.interfaces.options_cli import flag, with_typed_files
from meeple.solvers import cache

if TYPE_CHECKING:
    pass

CACHE_HELP = "folder of solved results (default: $MEEPLE_CACHE_DIR or ~/.cache/meeple/solver)"

# The options in groups: 24 of them, most for one reading (a proof, an estimate) or one game.
PROOFS = "Edges: proofs (--prove)"
ESTIMATES = "Edges: a proof's size, estimated (--prove N --estimate K)"
ERD = "Erd"


# The options `meeple solve erd` reads; any other given with erd is refused, not ignored.
ERD_READS = frozenset({"game", "rules", "option", "top", "cache_dir", "use_cache"})


def solve_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="the game to solve (edges, erd)")],
    board: Annotated[str | None, typer.Option(help="rows x columns, e.g. 2x3")] = None,
    stash: Annotated[str | None, typer.Option(help="each player's L/M/S, e.g. 3/3/2")] = None,
    position: Annotated[
        str | None,
        typer.Option(
            help="solve a position: its text (as state.position() writes it), a file holding "
            "it, or a saved game's record (its last position)"
        ),
    ] = None,
    top: Annotated[int, typer.Option(help="how many best moves to list", min=1)] = 10,
    cache_dir: Annotated[Path | None, typer.Option(help=CACHE_HELP)] = None,
    use_cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="reuse and store solved results")
    ] = True,
    tt_bits: Annotated[
        int | None,
        typer.Option(
            help="transposition table of 2**bits entries (default: by the pyramids left)",
            min=10,
            max=30,
        ),
    ] = None,
    prove: Annotated[
        int | None,
        typer.Option(
            help="only answer 'can the first player reach at least T?' (null-window proof; "
            "a run stopped before the answer exits 3 for --budget, 130 for Ctrl-C, 143 for "
            "SIGTERM, and the same command resumes it)",
            rich_help_panel=PROOFS,
        ),
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            help="--prove: the resumable checkpoint file (default: in the cache)",
            rich_help_panel=PROOFS,
        ),
    ] = None,
    split: Annotated[
        int,
        typer.Option(
            help="--prove: plies expanded above the compiled searches",
            min=0,
            rich_help_panel=PROOFS,
        ),
    ] = 4,
    budget: Annotated[
        float | None,
        typer.Option(
            help="--prove: stop after this many seconds (run again to resume; exit code 3 "
            "says it is not finished)",
            min=1,
            rich_help_panel=PROOFS,
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="threads sharing one table: moves solved at once (--prove: leaves searched at "
            "once; with --backend ray, Ray workers, default one per CPU of the cluster)",
            min=1,
        ),
    ] = None,
    backend: Annotated[
        str | None,
        typer.Option(
            help="--prove: where leaves are searched: threads (here; the default) or ray",
            rich_help_panel=PROOFS,
            show_default=False,
        ),
    ] = None,
    address: Annotated[
        str | None,
        typer.Option(
            help=f"--backend ray: the cluster's address, {ADDRESSES} (default: a local "
            "cluster); implies --backend ray",
            rich_help_panel=PROOFS,
        ),
    ] = None,
    estimate: Annotated[
        int | None,
        typer.Option(
            help="--prove: estimate the proof's size (leaves, nodes, core-hours) by this many "
            "random probes, without running it",
            min=1,
            rich_help_panel=ESTIMATES,
        ),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(
            help="--estimate: plies down to each searched position (default: --split)",
            min=0,
            rich_help_panel=ESTIMATES,
        ),
    ] = None,
    expect: Annotated[
        str,
        typer.Option(
            help="--estimate: the answer whose proof is sized, yes or no", rich_help_panel=ESTIMATES
        ),
    ] = "yes",
    seed: Annotated[
        int, typer.Option(help="--estimate: the probes' random seed", rich_help_panel=ESTIMATES)
    ] = 0,
    survey: Annotated[
        bool,
        typer.Option(
            "--survey",
            help="--prove: say how far the checkpoint has got, without searching",
            rich_help_panel=PROOFS,
        ),
    ] = False,
    check: Annotated[
        int | None,
        typer.Option(
            help="--prove: check a finished proof from its leaves' answers, and search this "
            "many of its leaves again with other hash keys",
            min=0,
            rich_help_panel=PROOFS,
        ),
    ] = None,
    certificate: Annotated[
        Path | None,
        typer.Option(
            help="--check: read a proof's certificate (see --export-certificate) instead of "
            "its checkpoint",
            rich_help_panel=PROOFS,
        ),
    ] = None,
    export_certificate: Annotated[
        Path | None,
        typer.Option(
            help="--prove: check a finished proof and write its certificate (the answers a "
            "check needs, xz-compressed) to this file",
            rich_help_panel=PROOFS,
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            help="erd: rules version (original, 0.01, 0.02; default 0.02)", rich_help_panel=ERD
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="erd: another game option as name=value, one --option each",
            rich_help_panel=ERD,
        ),
    ] = None,
) -> None:
    """Solve an Edges position or an Erd rules version exactly: values, best moves, cost.

    Edges: --pie yes/no (also true/false, on/off, 1/0; or --no-pie) sets the pie rule on
    move two (default on).
    """
    try:
        pie = _pie_word(game, list(ctx.args))
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if game.strip().lower() == "erd":
        erd_takes = "erd takes --rules, --option, --top, --cache-dir and --no-cache"
        if pie is not None:
            raise fail(f"--pie is an option of edges; {erd_takes}")
        # By the source's name: typer's Context may be its own copy of click's.
        given = [
            name
            for name in ctx.params
            if name not in ERD_READS
            and getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
        ]
        if given:
            raise fail(f"{flag(given[0])} is an option of edges; {erd_takes}")
        from meeple.interfaces.solve_erd_cli import solve_erd

        solve_erd(rules, option or [], cache_dir, use_cache, top)
        return
    if rules is not None or option:
        raise fail("--rules and --option are options of erd; Edges takes --board, --stash, --pie")
    try:
        state = _position(game, board, stash, True if pie is None else pie, position)
    except (MeepleError, ValueError) as exc:
        raise fail(str(exc)) from None
    folder = cache_dir or cache.default_cache_dir()
    key = cache.position_id(state)
    if estimate is not None:
        if prove is None:
            raise fail("--estimate sizes a proof: give --prove T (and its --split)")
        if expect.strip().lower() not in ("yes", "no"):
            raise fail(f"--expect takes yes or no, not {expect!r}")
        from meeple.interfaces.solve_estimate_cli import estimate as run_estimate

        solver_ready()
        run_estimate(state, prove, split, depth, estimate, budget, tt_bits,
                     expect.strip().lower() == "yes", seed)  # fmt: skip
        return
    if tt_bits is None:
        from meeple.solvers.edges_solver import pyramids_left, table_bits

        # A proof's leaf searches share one table, one after the other: together they are
        # one search of the whole position, so the table is sized for that (on 3x3 a 2^25
        # table searched 1.8x the nodes of a 2^27 one over 416 leaves, benchmarks/edges_proof.py).
        tt_bits = table_bits(pyramids_left(state))
    readings = [name for name, given in (("--survey", survey), ("--check", check is not None),
                ("--export-certificate", export_certificate is not None)) if given]  # fmt: skip
    if backend not in (None, "threads", "ray"):
        raise fail(f"--backend takes threads or ray, not {backend!r}")
    if address is not None and backend == "threads":
        # Searched here instead, the proof would say nothing of the cluster it was sent to.
        raise fail("--address names a Ray cluster, which --backend threads does not use")
    backend = backend or ("ray" if address is not None else "threads")
    if (backend == "ray" or address is not None) and (prove is None or readings):
        raise fail("--backend ray and --address farm out a proof's leaves: give --prove T")
    if readings and prove is None:
        raise fail(f"{readings[0]} reads a proof's checkpoint: give --prove T (and its --split)")
    if len(readings) > 1:
        raise fail(f"{' and '.join(readings)} are ways of reading a checkpoint: give one")
    if certificate is not None and check is None:
        raise fail("--certificate is read by --check: give --prove T --check N too")
    if prove is not None:
        point = checkpoint or folder / f"proof-{key}-{prove}-{split}.json"
        if survey:
            solver_ready()
            proofs.survey(state, prove, point, split, key)
        elif check is not None:
            solver_ready()
            proofs.check(state, prove, point, split, key, check, tt_bits, certificate)
        elif export_certificate is not None:
            solver_ready()
            proofs.export(state, prove, point, split, key, export_certificate)
        else:
            try:
                ensure_writable_folder(point.parent)
            except OSError as exc:
                # A proof runs for hours and is only worth its checkpoint: refuse it now.
                raise fail(
                    f"cannot write the checkpoint {point} ({exc.strerror or exc}); give "
                    "--checkpoint FILE (or --cache-dir) in a folder you can write"
                ) from None
            proofs.prove_threshold(
                state, prove, point, split, budget, tt_bits, key, workers, backend, address
            )
        return
    result = None
    if use_cache:
        entry = cache.read(folder, key)
        if entry.problem:
            console.print(f"[yellow]note:[/] {entry.problem}; solving again", highlight=False)
        result = entry.result
    cached = result is not None
    if result is None and use_cache:
        try:
            ensure_writable_folder(folder)
        except OSError as exc:
            # The answer does not need the cache: solve, and say that nothing is kept.
            console.print(
                f"[yellow]note:[/] cannot write to the cache folder {folder} "
                f"({exc.strerror or exc}): nothing is kept, and Ctrl-C keeps no move "
                "(--cache-dir names a folder you can write)",
                highlight=False,
            )
            use_cache = False
    if result is None:
        try:
            moves = cache.SolvedMoves(folder, key) if use_cache else None
        except MeepleError as exc:
            raise fail(str(exc)) from None
        result = _solve(state, moves, tt_bits, workers or 1)
        if moves is not None:
            cache.store(folder, key, result)
            moves.discard()  # every move is in the stored result now
    _print(state, result, cached, top)


# Nodes a second assumed before a run has measured its own: this machine's speed on 2x3 and
# 3x4 positions, 1.7-2.0 million (docs/solving.md, "Using it").
ASSUMED_RATE = 2e6
# A solve expected to take longer than this is announced with a warning before it starts.
WARN_SECONDS = 60.0


def _solve(
    state: EdgesState, moves: cache.SolvedMoves | None, tt_bits: int, workers: int
) -> dict[str, Any]:
    """Solve every move of ``state`` with a progress bar and an estimate of the time left;
    each move solved goes to ``moves`` at once (unless --no-cache), so Ctrl-C keeps it and
    the same command resumes."""
    from meeple.solvers.edges_analysis import analyse, estimated_nodes
    from meeple.solvers.edges_solver import pyramids_left

    known = {m: (v[0], v[1]) for m, v in moves.answers.items()} if moves is not None else {}
    left = pyramids_left(state)
    guess = estimated_nodes(left)
    if guess / ASSUMED_RATE > WARN_SECONDS and not state.is_over:
        keep = (
            "Ctrl-C keeps the moves solved so far and the same command resumes"
            if moves is not None
            else "with no cache to keep them in, Ctrl-C keeps nothing"
        )
        console.print(
            f"[yellow]warning:[/] solving every move of this position ({left} pyramids to "
            f"place) exactly may take {_duration(guess / ASSUMED_RATE)} or more: about "
            f"{guess:.0e} nodes at {ASSUMED_RATE:.0e} nodes/s, a rough guess from how fast the "
            "tree grows on smaller boards (the bar's estimate improves as moves are solved). "
            f"{keep}; --prove T answers one yes/no question with a resumable checkpoint.",
            highlight=False,
        )
    if known:
        console.print(f"resuming: {counted(len(known), 'move')} solved by an earlier run, from "
                      f"{moves.path if moves else ''}", highlight=False)  # fmt: skip
    solver_ready()
    estimate = _Estimate(guess, sum(n for _, n in known.values()), len(known), workers)
    columns = (
        TextColumn("solving moves"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("solve", total=None, note="")

        def report(done: int, total: int) -> None:
            estimate.total = total
            progress.update(task, completed=done, total=total, note=estimate.text())

        def nodes(count: int) -> None:
            estimate.live = count
            progress.update(task, note=estimate.text())

        def solved(action: object, value: int, cost: int) -> None:
            estimate.solved(cost)
            if moves is not None:
                moves.add(str(action), [value, cost])

        try:
            return analyse(state, tt_bits=tt_bits, progress=report, on_nodes=nodes,
                           workers=workers, known=known, on_move=solved)  # fmt: skip
        except KeyboardInterrupt:
            if moves is None:
                console.print("stopped; nothing was stored (no cache)")
            elif not moves.answers:
                console.print("stopped before the first move was solved; nothing to keep")
            else:
                console.print(
                    f"stopped: the {len(moves.answers)} of {estimate.total or '?'} moves solved "
                    f"so far are kept in {moves.path}; the same command resumes from them",
                    highlight=False,
                )
            raise typer.Exit(code=130) from None


class _Estimate:
    """The time a solve of every move has left, from what it has cost so far: before any
    move is solved, the rough size of the whole tree (``guess`` nodes); after, the mean
    nodes of the moves solved times the moves left. Either at the speed measured in this
    run."""

    def __init__(self, guess: float, earlier_nodes: int, earlier_moves: int, workers: int) -> None:
        self.guess = guess
        self.nodes = earlier_nodes  # of the moves solved (by this run and earlier ones)
        self.moves = earlier_moves
        self.workers = workers
        self.started = time.perf_counter()
        self.run_nodes = 0  # of the moves solved by this run
        self.live = 0  # the node count of this run (the first worker's, with several)
        self.total = 0

    def solved(self, cost: int) -> None:
        """Count in a move just solved, which cost ``cost`` nodes."""
        self.nodes += cost
        self.run_nodes += cost
        self.moves += 1

    def text(self) -> str:
        """Nodes, speed and what is left, as the bar shows them."""
        elapsed = time.perf_counter() - self.started
        count = max(self.live, self.run_nodes // self.workers)
        rate = count / elapsed if elapsed > 0 and count else 0.0
        shown = f"{count:,} nodes, {rate:,.0f}/s" if count else "starting"
        if rate <= 0 or not self.total:
            return shown
        if self.moves:
            per_move = self.nodes / self.moves
            remaining = per_move * (self.total - self.moves) - max(0, count - self.run_nodes)
            how = f"{counted(self.moves, 'move')} solved: {per_move:,.0f} nodes each"
        else:
            remaining = self.guess - count
            how = "a rough guess until a move is solved"
        left = max(remaining, 0) / (rate * self.workers)
        return f"{shown}; about {_duration(left)} left ({how})"


def _duration(seconds: float) -> str:
    """A length of time as people say it: 40 s, 12 min, 3.5 hours, 40 days, 3 years."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    if seconds < 730 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365 * 86400):.0f} years"


def _pie_word(game: str, args: list[str]) -> str | bool | None:
    """The pie rule from the words Typer left over (``--pie``, ``--pie false``, ``--no-pie``,
    ``--pie=off``), read as ``meeple play`` reads game options; None when not given. Any
    other word is refused; Erd's own options, written as ``meeple play`` takes them
    (``--round-limit 50``), with the ``--option`` that takes them here."""
    from meeple.interfaces.options_cli import parse_option_flags

    given = parse_option_flags("edges", args, known=False)
    pie = given.pop("pie", None)
    if given:
        words = ", ".join(flag(k) for k in given)
        erd = set(game_class("erd").Options.model_fields)
        if game.strip().lower() == "erd" and set(given) <= erd:
            written = " ".join(f"-o {k}={'false' if v is False else v}" for k, v in given.items())
            raise MeepleError(
                f"meeple solve takes Erd's options other than --rules as --option name=value: "
                f"{written}, not {words}"
            )
        raise MeepleError(f"meeple solve does not take {words}; see meeple solve --help")
    return pie


def _position(
    game: str, board: str | None, stash: str | None, pie: bool | str, position: str | None
) -> EdgesState:
    wanted = game.strip().lower()
    if wanted != "edges":
        near = did_you_mean(wanted, ("edges", "erd"))
        raise MeepleError(
            f"there is no solver for {game!r}{near}; the solvable games are: edges, erd"
        )
    if position is not None:
        if board or stash:
            raise MeepleError("--position takes the board and stash from the position")
        # A file holding something other than a position is a saved game's record.
        if not position.lstrip().startswith("meeple "):
            position = str(history_file(position))  # a game `meeple history` lists
        text = position_argument(position)
        if text is None:
            record = with_typed_files(GameRecord.load(position), [], f"the record {position}")
            state = record.replay()
        else:
            state = position_game("edges", text).from_position(text)
    else:
        options: dict[str, Any] = {"pie": pie, "first": 0}
        if board:
            options["board"] = board
        if stash:
            options["stash"] = stash
        state = make("edges", **options).new_game(0)
    if not isinstance(state, EdgesState):
        # Which game it is, and what solves that one where anything does.
        name = state.game.name
        other = " (meeple solve erd solves Erd's rules)" if name == "erd" else ""
        raise MeepleError(f"the record is a game of {state.game.title}, not of Edges{other}")
    if state.game.num_players != 2:
        raise MeepleError("the solver plays two-player Edges only, not Double Edges")
    from meeple.solvers.edges_solver import check_board

    check_board(state.game.board)  # before the size warning, not after it
    return state


def _print(state: EdgesState, result: dict[str, Any], cached: bool, top: int) -> None:
    game = state.game
    first = game.seat_name(state.order[0])
    console.print(
        f"Edges {result['board']}, stash {'/'.join(str(x) for x in game.stash)}, "
        f"pie rule {'on' if result['pie'] else 'off'}, {result['left']} pyramids to place"
    )
    console.print(
        f"[bold]value {result['value']:+d}[/] (first player {first}'s score minus the "
        "second player's, perfect play)"
    )
    moves = result["moves"]
    if moves:
        second = game.seat_name(state.order[1])
        mover = game.seat_name(state.to_act[0])
        # The values stay the first player's; when the second player is to move its best is
        # the lowest, so say whose move it is and which way the column reads.
        console.print(
            f"{mover} to move: {len(moves)} different moves (up to symmetry and equivalent "
            f"edges), {mover}'s best first; each value is {first}'s score minus {second}'s "
            "after the move, perfect play:",
            highlight=False,
        )
        table = Table()
        table.add_column("move")
        table.add_column(f"{first} - {second}", justify="right")
        for text, value in moves[:top]:
            table.add_row(text, f"{value:+d}")
        console.print(table)
    rate = result["nodes_per_second"]
    note = (
        " (read back from the cache, its check passed; the figures are from the first solve)"
        if cached
        else ""
    )
    console.print(
        f"nodes {result['nodes']:,}  nodes/s {rate:,}  time {result['seconds']:.2f} s{note}"
    )
