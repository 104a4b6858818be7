"""The measured part of what ``make check`` leaves out: ``tests/measured_slow.txt``.

``SLOW`` in ``tests/conftest.py`` names by hand the tests slow by kind (real servers and
browsers, Ray, whole-game property tests), each with its reason. The rest of the suite is
thousands of quick tests and a few hundred that each take a noticeable part of a second;
those few hundred took most of the quick subset's time, and no hand-kept list followed
them as tests were added. ``make durations`` runs the quick subset with this file's tests
included (``--measure-slow``) and writes the file again: each test whose setup, call and
teardown took ``OVER`` seconds or more. ``make check`` then leaves those out too; ``make
test`` runs everything.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

MEASURED = Path(__file__).with_name("measured_slow.txt")
"""One node id a line, sorted; lines starting with ``#`` say what the file is."""

OVER = 0.3
"""Seconds (wall clock, a test's setup, call and teardown) from which a test is left out of
``make check``: the quick subset's tests under it take about a quarter of its time."""

HEADER = f"""\
# The tests `make check` leaves out besides SLOW (tests/conftest.py): each took {OVER} s or
# more (setup, call and teardown) when `make durations` last ran the quick subset, which
# writes this file (tests/quick_subset.py). `make test` runs them all.
"""


def measured_slow(path: Path = MEASURED) -> frozenset[str]:
    """The node ids the file lists (none where it is missing)."""
    if not path.exists():
        return frozenset()
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def remeasured(listed: frozenset[str], took: dict[str, float], whole: bool) -> list[str]:
    """The list after a run that measured ``took`` (node id -> seconds): the tests it ran
    over ``OVER``, and, unless it ran the whole quick subset (``whole``), the listed tests it
    did not run (a run of one file keeps the others' entries; a whole run drops the entries
    of tests that are gone)."""
    kept = set() if whole else {test for test in listed if test not in took}
    return sorted(kept | {test for test, seconds in took.items() if seconds >= OVER})


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--measure-slow``: what ``make durations`` passes."""
    parser.addoption(
        "--measure-slow",
        action="store_true",
        help=f"run the tests {MEASURED.name} lists too, and write it again from this run",
    )


_took: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Adds up each test's phases (with xdist, the main process hears every worker's); a
    test ``SLOW`` names is left out already."""
    if "slow" not in report.keywords:
        _took[report.nodeid] += report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Writes the file after a measuring run (in the main process, not in each worker)."""
    config = session.config
    if not config.getoption("measure_slow") or hasattr(config, "workerinput"):
        return
    if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or not _took:
        return
    # Only a whole quick subset that ran to its end may drop entries: a run of some files, of
    # other marks, or stopped at a failure (-x) keeps the entries of the tests it did not run.
    whole = (
        exitstatus == pytest.ExitCode.OK
        and config.args_source == pytest.Config.ArgsSource.TESTPATHS
        and not config.getoption("keyword")
        and config.getoption("markexpr") == "not slow"
    )
    listed = remeasured(measured_slow(), dict(_took), whole)
    MEASURED.write_text(HEADER + "".join(f"{test}\n" for test in listed), encoding="utf-8")
