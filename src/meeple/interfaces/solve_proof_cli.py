"""``meeple solve edges --prove T``: a null-window proof of "can the first player reach at
least T?", run or resumed from its checkpoint, and the checkpoint read back (``--survey``,
``--check N``, ``--export-certificate``)."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from meeple.core.errors import MeepleError
from meeple.core.words import counted
from meeple.games.edges.rules import EdgesState
from meeple.interfaces.console import console, fail, solver_ready
from meeple.solvers.cache import OtherQuestion

if TYPE_CHECKING:
    from meeple.solvers.edges_proof import NullWindowProof, ProofProgress
    from meeple.solvers.edges_solver import EdgesSolver

# How often a proof run without a terminal prints where it is (seconds).
LOG_EVERY = 60.0


def prove_threshold(
    state: EdgesState,
    threshold: int,
    checkpoint: Path,
    split: int,
    budget: float | None,
    tt_bits: int,
    question: str,
    workers: int | None = None,
    backend: str = "threads",
    address: str | None = None,
) -> None:
    """Run (or resume) a null-window proof and say how far it got."""
    from meeple.solvers.edges_solver import EdgesSolver, SearchStopped

    if _past_the_board(state, threshold):
        return
    solver = EdgesSolver(state.game.board, tt_bits=tt_bits)
    deadline = None if budget is None else time.perf_counter() + budget
    threads = 1 if backend == "ray" else workers or 1
    proof, sign = _open_proof(state, threshold, checkpoint, split, question, solver,
                              deadline=deadline, workers=threads)  # fmt: skip
    runner = None
    if backend == "ray":
        from meeple.solvers.edges_ray import RayLeaves

        try:
            with console.status("starting Ray workers"):
                runner = RayLeaves(state.game.board, proof.threshold, tt_bits, workers, address)
        except MeepleError as exc:  # no Ray, or no cluster at the address
            raise fail(str(exc)) from None
        console.print(f"{len(runner.actors)} Ray workers search the leaves; this process "
                      "keeps the checkpoint", highlight=False)  # fmt: skip
        proof.runner = runner
    line = _ProgressLine()
    columns = (TextColumn("{task.description}"), TimeElapsedColumn())
    # Off without a terminal: there the plain lines of on_leaf say where the run is.
    progress = Progress(*columns, console=console, transient=True, disable=not console.is_terminal)
    task = progress.add_task("starting")

    logged = [-LOG_EVERY]

    def on_leaf(p: ProofProgress) -> None:
        line.leaves = (
            f"leaves searched {p.searched:,} (known {p.reused:,}), last leaf "
            f"{p.last_leaf_seconds:.1f} s, at {p.where_text()}"
        )
        progress.update(task, description=line.text())
        # Without a terminal (a run under nohup, a scheduler's log) the live line is not
        # drawn: say where the run is in plain lines instead, the first leaf's at once.
        now = time.perf_counter()
        if not console.is_terminal and now - logged[0] >= LOG_EVERY:
            logged[0] = now
            console.print(f"{time.strftime('%H:%M:%S')} {line.leaves}", highlight=False)

    def on_nodes(count: int) -> None:
        line.nodes = count
        progress.update(task, description=line.text())

    proof.on_leaf = on_leaf
    # With a live node count the search runs in a thread of its own, so that Ctrl-C and
    # SIGTERM are handled at once, not when the leaf being searched is done.
    solver.on_progress = on_nodes
    # A long proof is often stopped by a scheduler or `kill` (SIGTERM) rather than Ctrl-C:
    # both end it the same way, with the report of how far it got.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    _STOPPED_BY[:] = [signal.SIGINT]
    stopped: int | None = None
    try:
        # Loaded (or compiled) once the handlers are in: a SIGTERM meanwhile reports too.
        solver_ready()
        rejected = proof.rejected_lines
        console.print(
            f"checkpoint {checkpoint} ({len(proof.done):,} verified answers in it"
            + (f"; {_failed(rejected)} searched again" if rejected else "")
            + "); Ctrl-C or SIGTERM stops the run, the same command resumes it",
            highlight=False,
        )  # fmt: skip
        with progress:
            holds = proof.holds(state)
    except SearchStopped:
        holds, stopped = None, None
    except KeyboardInterrupt:
        holds, stopped = None, _STOPPED_BY[0]
    except MeepleError as exc:  # a leaf's Ray worker died again and again
        raise fail(str(exc)) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        if runner is not None:
            runner.close()
    p = proof.progress
    if holds is None:
        why = "the time budget ran out" if stopped is None else f"{signal.Signals(stopped).name}"
        console.print(
            f"[yellow]not finished[/] ({why}): stopped after {p.searched:,} leaves searched in "
            f"this run ({p.reused:,} answered by known answers, {len(proof.done):,} answers "
            f"in it now), at {p.where_text()} (the second player's reply at each level: which, "
            f"of how many; walked: the share of those replies behind the run, each counted "
            f"alike); run the same command again to resume from {checkpoint}"
        )
        # Not done: a scheduler must see a failure (128 + the signal, as shells report it;
        # NOT_FINISHED when the --budget ran out).
        raise typer.Exit(code=NOT_FINISHED if stopped is None else 128 + stopped)
    answer = _answer(holds, sign)
    if p.searched == 0:
        console.print(
            f"[bold]{answer}[/]: read back from {checkpoint} (every answer used passed its "
            "check), not searched in this run"
        )
        return
    # "Answered from the checkpoint" counted this run's own answers met again by another
    # order of moves: a fresh checkpoint "(0 verified answers in it)" then answered 3.
    console.print(
        f"[bold]{answer}[/]: proved with {p.searched:,} leaves searched in this run and "
        f"{p.reused:,} answered by known answers (read back from {checkpoint}, or this run's "
        f"own, met again); nodes {p.nodes:,}"
    )


def _open_proof(
    state: EdgesState,
    threshold: int,
    checkpoint: Path,
    split: int,
    question: str,
    solver: EdgesSolver,
    certificate: Path | None = None,
    read_only: bool = False,
    **options: Any,
) -> tuple[NullWindowProof, int]:
    """The proof of "can the first player reach at least ``threshold``?" on its checkpoint
    (or on a ``certificate``, to check it), and the sign that turns its answers (about seat
    0) into the first player's; says which question it is."""
    from meeple.solvers import edges_certificate
    from meeple.solvers.edges_proof import NullWindowProof

    if state.is_over:
        raise fail("the game is over: there is nothing to prove")
    # The proof is about seat 0; "the first player" may be seat 1 in a saved game.
    sign = 1 if state.order[0] == 0 else -1
    seat_threshold = threshold if sign > 0 else 1 - threshold
    try:
        if certificate is not None:
            options["store"] = edges_certificate.read(certificate, question, seat_threshold,
                                                      split)  # fmt: skip
        proof = NullWindowProof(
            solver, seat_threshold, checkpoint, split, question, read_only=read_only, **options
        )
    except OtherQuestion as exc:
        raise fail(_other_question(exc, state, threshold, split, sign)) from None
    except MeepleError as exc:
        raise fail(str(exc)) from None
    console.print(_question(state, threshold))
    if proof.started_empty:
        then = "it has none yet" if read_only else "it is taken as a new checkpoint"
        # The path whole on its line, to be copied (soft_wrap), as the command's other notes.
        console.print(f"[yellow]note:[/] {escape(str(checkpoint))} is empty (no header line, "
                      f"no answers): {then}", highlight=False, soft_wrap=True)  # fmt: skip
    return proof, sign


def _question(state: EdgesState, threshold: int) -> str:
    """The question a proof answers, in words: ``Edges 2x2, pie rule on: can the first
    player reach at least +0?``."""
    return (
        f"Edges {state.game.board}, pie rule {'on' if state.game.options.pie else 'off'}: "
        f"can the first player reach at least {threshold:+d}?"
    )


def _other_question(
    exc: OtherQuestion, state: EdgesState, threshold: int, split: int, sign: int
) -> str:
    """The refusal of a checkpoint or certificate of another question, both questions in
    words (the file's header holds its position only as a key, so another position is
    named as such)."""
    theirs, ours = exc.theirs, exc.ours
    option = "--certificate" if "certificate" in exc.what else "--checkpoint"
    this = f'"{_question(state, threshold)}" (--split {split})'
    for name in ("format", "engine"):
        if theirs.get(name) != ours[name]:
            return (f"{exc.path} is a {exc.what} of another {name} ({theirs.get(name)}, not "
                    f"this meeple's {ours[name]}); give another {option}")  # fmt: skip
    seat, their_split = theirs.get("threshold"), theirs.get("split")
    if theirs.get("question") != ours["question"] or type(seat) is not int:
        return (f"{exc.path} is a {exc.what} of another question, about another position "
                f"(its board, stash, pie rule or moves played differ), not of {this}; give "
                f"another {option}")  # fmt: skip
    # The header holds seat 0's threshold; the same position has the same first player.
    their_threshold = seat if sign > 0 else 1 - seat
    return (f'{exc.path} is a {exc.what} of another question, "'
            f'{_question(state, their_threshold)}" (--split {their_split}), not of {this}; '
            f"give another {option}, or that question's --prove and --split")  # fmt: skip


def _past_the_board(state: EdgesState, threshold: int) -> bool:
    """Answer, without a search, a threshold past what the board allows either way (a
    square scores at most 2 for either side): say the question and why, and return True;
    else False."""
    most = 2 * state.game.board.num_squares
    on = f"on a {state.game.board} board (at most 2 points a square)"
    done = "nothing searched, no checkpoint written"
    if threshold > most:
        answer = (f"[bold]no[/]: the first player can win by at most {most} {on}, never by "
                  f"{threshold}; {done}")  # fmt: skip
    elif threshold <= -most:
        answer = (f"[bold]yes[/]: the first player can lose by at most {most} {on}, so it "
                  f"always reaches at least {threshold:+d}; {done}")  # fmt: skip
    else:
        return False
    console.print(_question(state, threshold))
    console.print(answer, highlight=False)
    return True


def _answer(seat0_holds: bool, sign: int) -> str:
    """The answer to the first player's question ("yes"/"no") from the proof's about seat 0
    (``sign`` from :func:`_open_proof`: -1 where the first player is seat 1, whose question
    "at least T?" is seat 0's "not at least 1 - T")."""
    return "yes" if seat0_holds == (sign > 0) else "no"


def _read_proof(
    state: EdgesState,
    threshold: int,
    checkpoint: Path,
    split: int,
    question: str,
    how: str,
    certificate: Path | None = None,
) -> tuple[NullWindowProof, int]:
    """A proof opened on its checkpoint (or ``certificate``) only to read it (``how`` names
    the option)."""
    from meeple.solvers.edges_solver import EdgesSolver

    if _past_the_board(state, threshold):  # no run writes a checkpoint for it: none to read
        raise typer.Exit(code=0)
    if certificate is None and not checkpoint.exists():
        raise fail(f"there is no checkpoint {checkpoint} yet: run the same command without "
                   f"{how} to start the proof")  # fmt: skip
    solver = EdgesSolver(state.game.board, tt_bits=12)  # for the positions' keys: no search
    proof, sign = _open_proof(
        state, threshold, checkpoint, split, question, solver, certificate, read_only=True
    )
    if proof.rejected_lines:
        console.print(
            f"[yellow]note:[/] {_failed(proof.rejected_lines)} not used ({checkpoint} is left "
            f"as it is); the same command without {how} searches "
            + ("it" if proof.rejected_lines == 1 else "them")
            + " again",
            highlight=False,
        )
    return proof, sign


def _run_on(exc: Exception, option: str) -> typer.Exit:
    """A proof read for ``option`` before it has an answer: not one that fails (exit code 1)
    but one to run on, with the exit code of a run whose --budget ran out."""
    console.print(escape(f"{exc}: run the same command without {option} to go on (--survey "
                         "says how far it got)"), highlight=False)  # fmt: skip
    return typer.Exit(code=NOT_FINISHED)


def _failed(lines: int) -> str:
    """``1 line failed its check and is``, ``3 lines failed their check and are``."""
    its, verb = ("its", "is") if lines == 1 else ("their", "are")
    return f"{counted(lines, 'line')} failed {its} check and {verb}"


def export(
    state: EdgesState, threshold: int, checkpoint: Path, split: int, question: str, path: Path
) -> None:
    """Check a finished proof and write its certificate; exit code 1 if it does not hold."""
    from meeple.solvers import edges_certificate
    from meeple.solvers.edges_proof import ProofUnfinished

    proof, sign = _read_proof(state, threshold, checkpoint, split, question,
                              "--export-certificate")  # fmt: skip
    with console.status("walking the proof"):
        try:
            report = edges_certificate.export(proof, state, path)
        except OSError as exc:
            raise fail(f"cannot write the certificate {path}: {exc}") from None
        except ProofUnfinished as exc:
            raise _run_on(exc, "--export-certificate") from None
        except MeepleError as exc:
            console.print(f"[bold red]not confirmed[/]: {escape(str(exc))}", highlight=False)
            raise typer.Exit(code=1) from None
    size = path.stat().st_size
    console.print(
        f"[bold]{_answer(report.claim, sign)}[/] confirmed from {report.leaves:,} leaves; "
        f"certificate {path}: {len(report.confirming):,} positions, {size:,} bytes. Check it "
        f"with the same command and --check N --certificate {path}",
        highlight=False,
    )


def survey(state: EdgesState, threshold: int, checkpoint: Path, split: int, question: str) -> None:
    """Say how far a proof's checkpoint has got: its answers, and the path a run walks."""
    proof, sign = _read_proof(state, threshold, checkpoint, split, question, "--survey")
    names = ("first player", "second player")[::sign]
    answers = proof.done
    noes = sum(1 for holds in answers.values() if not holds)
    console.print(escape(f"checkpoint {checkpoint}: {len(answers):,} answers, {noes:,} of "
                         "them 'no'"), highlight=False)  # fmt: skip
    root, steps = proof.survey(state)
    if root is not None:
        answer = _answer(root, sign)
        console.print(f"[bold]{answer}[/]: settled in the checkpoint")
        return
    console.print("not settled yet; the path a run walks to its next leaf:")
    for step in steps:
        if step.mover == 0:
            failed = f" (after {step.failed} that failed)" if step.failed else ""
            console.print(f"  {names[0]}: {step.move}{failed}", highlight=False)
        else:
            console.print(
                f"  {names[1]}: reply {step.position}/{step.replies} ({step.hold} hold, "
                f"{step.open} open): the run is in {step.move}",
                highlight=False,
            )
    from meeple.solvers.edges_proof import ProofProgress

    # The same count as a run's progress line, so the two can be compared directly.
    where = ProofProgress.from_survey(steps).where_text()
    console.print(f"where: {where}, as the run's progress line counts it", highlight=False)


def check(
    state: EdgesState,
    threshold: int,
    checkpoint: Path,
    split: int,
    question: str,
    resample: int,
    tt_bits: int,
    certificate: Path | None = None,
) -> None:
    """Check a finished proof from its leaves' answers and search some leaves again; exit
    code 1 if it does not hold up."""
    from meeple.solvers.edges_proof import ProofCheck, ProofUnfinished
    from meeple.solvers.edges_solver import EdgesSolver

    proof, sign = _read_proof(state, threshold, checkpoint, split, question, "--check",
                              certificate)  # fmt: skip
    # Other random words, so other hash keys: a collision in the run's is not repeated.
    searcher = None
    if resample > 0:
        searcher = EdgesSolver(state.game.board, tt_bits=tt_bits, seed=proof.solver.seed + 1)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    # Off without a terminal, where a transient display leaves a blank line behind.
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as progress:
        task = progress.add_task("walking the proof", total=None)

        searched = [0]

        def on_step(report: ProofCheck) -> None:
            if report.searched:
                searched[0] = report.searched
                progress.update(task, completed=report.searched)
            else:
                progress.update(task, description=f"walking the proof: {report.leaves:,} "
                                f"leaves", completed=report.positions)  # fmt: skip

        def on_nodes(count: int) -> None:
            progress.update(task, description=f"searching leaves again: {count:,} nodes",
                            completed=searched[0], total=resample)  # fmt: skip

        if searcher is not None:
            # With a live node count the search runs in a thread, so Ctrl-C stops it at once.
            searcher.on_progress = on_nodes
        try:
            report = proof.check(state, resample, searcher, on_step=on_step)
        except KeyboardInterrupt:
            console.print("stopped; nothing was changed")
            raise typer.Exit(code=130) from None
        except ProofUnfinished as exc:
            raise _run_on(exc, "--check") from None
        except MeepleError as exc:
            console.print(escape(f"{exc}; --survey says how far it got"))
            raise typer.Exit(code=1) from None
    answer = _answer(report.claim, sign)
    if not report.confirmed:
        console.print(
            f"[bold red]not confirmed[/]: the checkpoint answers '{answer}', but its leaves "
            f"do not imply it; the first position that fails: {report.unconfirmed}",
            highlight=False,
        )
        raise typer.Exit(code=1)
    console.print(
        f"[bold]confirmed[/]: '{answer}' follows from the answers of {report.leaves:,} leaves "
        f"below {report.positions:,} positions (the answers recorded above the leaves were "
        "not used)",
        highlight=False,
    )
    if report.searched:
        agree = report.searched - len(report.disagree)
        console.print(
            f"{report.searched} leaves drawn at random searched again with other hash keys: "
            f"{agree} agree, {len(report.disagree)} disagree"
            + (f" ({', '.join(report.disagree)})" if report.disagree else ""),
            highlight=False,
        )
        if report.disagree:
            raise typer.Exit(code=1)


class _ProgressLine:
    """The proof's progress line: the last leaf's report and the first worker's live node
    count."""

    def __init__(self) -> None:
        self.leaves = "searching"
        self.nodes = 0

    def text(self) -> str:
        """The line as shown."""
        return f"{self.leaves}; worker 1 has searched {self.nodes:,} nodes"


NOT_FINISHED = 3
"""Exit code of a ``--prove`` run whose ``--budget`` ran out before the answer."""

_STOPPED_BY: list[int] = [signal.SIGINT]


def _interrupt(signum: int, frame: object) -> None:
    _STOPPED_BY[:] = [signum]
    raise KeyboardInterrupt
