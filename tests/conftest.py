"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import sys

# numba's OpenMP threads spin while they wait for work; where other processes share the
# cores, a batched environment's step waited on them (measured: 18 ms a step of 4 Squad
# Combat games, 0.15 ms with waiting threads asleep). Set before any kernel runs.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from meeple.interfaces.cli import app
from tests.processes import server_tracebacks

# Registered (and its asserts rewritten) before any module imports it.
pytest_plugins = ["tests.quick_subset"]

# Fuzz tests (marked ``fuzz``) run a few hundred examples in ``make test``; ``make fuzz`` sets
# MEEPLE_FUZZ=long for a run a hundred times longer.
settings.register_profile(
    "long",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
LONG_FUZZ = os.environ.get("MEEPLE_FUZZ") == "long"
if LONG_FUZZ:
    settings.load_profile("long")


# The tests `make check` leaves out for a quick edit-test loop (`make test` runs them all),
# by kind, each group with its reason. The others it leaves out are measured: `make
# durations` writes tests/measured_slow.txt (tests/quick_subset.py). A node id is matched by
# its start.
SLOW = (
    # Real server processes and browsers.
    "tests/web/",
    "tests/server/",
    "tests/interfaces/test_cli.py::test_the_launchers_first_choice_serves_the_lobby",
    # Ray: a local cluster started, lost and joined again.
    "tests/solvers/test_edges_ray.py",
    "tests/solvers/test_edges_ray_lost.py",
    "tests/lab/test_lab.py::test_same_rows_on_a_local_ray_instance",
    "tests/lab/test_ray_backend.py::test_a_batch_ray_lost_for_good_ends_the_run_in_one_line",
    "tests/lab/test_ray_backend.py::test_a_comparison_starts_one_local_ray_for_all_its_variants",
    "tests/lab/test_lab_reliability.py",
    # Processes stopped by signals, or started to see what a fresh process reads back.
    "tests/solvers/test_solver_files.py::test_a_proof_stopped_by_a_signal",
    "tests/solvers/test_edges_proofs.py::test_a_proof_stopped_by_sigterm",
    "tests/core/test_kernels.py",
    # The built wheel unpacked and its commands run, each a process (about 4 s).
    "tests/test_wheel.py::test_the_unpacked_wheel_runs_from_another_folder",
    # The example game installed and run as a user would (seconds of set-up per worker).
    "tests/test_new_game.py",
    # The example agent installed and run as a user would; the in-process tests stay quick.
    "tests/test_new_agent.py::test_the_agent_is_listed_with_its_parameters",
    "tests/test_new_agent.py::test_it_plays_in_the_terminal_and_the_lab",
    "tests/test_new_agent.py::test_its_refusals_are_one_line",
    "tests/test_new_agent.py::test_the_example_s_own_tests_and_a_research_adapter",
    "tests/test_new_agent.py::test_a_broken_agent_package_is_refused_in_one_line",
    # Erd's designer and hard levels solve the rules first (seconds, once per run).
    "tests/agents/test_designer_level.py::test_the_designer_level_plays_a_whole_game_legally[erd",
    "tests/agents/test_levels.py::test_every_game_has_three_levels_that_build[erd",
    "tests/agents/test_search.py::test_every_agent_of_every_hidden_information_game_keeps_the"
    "_information_rule[erd-equilibrium:solve=true",
    "tests/agents/test_search.py::test_every_agent_of_every_hidden_information_game_keeps_the"
    "_information_rule[erd-exploit:solve=true",
    "tests/interfaces/test_cli_play.py::test_erds_hard_opponent_says_what_its_first_game_waits",
    # Agents' strength and consistency, over many games each.
    "tests/agents/test_compiled_rollouts.py",
    "tests/agents/test_not_exploitable.py",
    "tests/agents/test_catch_up.py",
    # Thousands of random games: the property tests, and the readable rules played along the
    # compiled twins (the other tests there play tens).
    "tests/games/squad_combat/test_properties.py",
    "tests/games/erosion/test_properties.py",
    "tests/games/triangle_clock/test_properties.py",
    "tests/games/erd/test_properties.py",
    "tests/games/erosion/test_fast.py::test_compiled_rules_agree_with_the_engine",
    "tests/games/triangle_clock/test_fast.py::test_compiled",
    "tests/envs/test_envs.py::test_openspiel_random_sim_test",
    "tests/envs/test_designed_observation.py::test_openspiel_random_sim_test",
    "tests/envs/test_vector.py::test_thousands_of_random_games",
    "tests/envs/test_vector_erosion.py::test_thousands_of_random_games",
    "tests/envs/test_vector_squad_combat.py::test_thousands_of_random_games",
    "tests/envs/test_vector_triangle_clock.py::test_thousands_of_random_games",
    "tests/envs/test_vector_erd.py::test_thousands_of_random_matches",
    # The README's commands, each a process, as chains.
    "tests/test_readme.py",
)


WHOLE_SLOW = tuple(entry for entry in SLOW if "::" not in entry)
"""The folders and files ``SLOW`` names whole."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m "not slow"`` (``make check``) a folder or file that ``SLOW`` names whole is
    not collected at all: importing its modules (browsers, servers, their clients) costs each
    worker seconds for tests it would only deselect."""
    if config.getoption("markexpr", "") != "not slow" or not collection_path.is_relative_to(
        config.rootpath
    ):
        return None
    where = collection_path.relative_to(config.rootpath).as_posix()
    if where in WHOLE_SLOW or f"{where}/" in WHOLE_SLOW:
        return True
    return None


# The order the folders run in. xdist's worksteal hands each of `make test`'s two workers
# one half of the collected tests to start with (then a worker that runs out takes half
# of what the other has left), so the order decides what runs beside what. The server
# tests and the browser tests wait for much of their time (real timers, pages, other
# processes), and beside a worker running the rules' single-core tests a waiting worker
# leaves its core idle. So each half starts with one of them (the server tests, then the
# rules, agents and kernels; the browser tests, then the environments, solvers, lab and
# commands: about 2,080 tests to 2,160), and for the rest of the run both workers' tests
# keep a core each busy. docs/contributing.md gives what it saves; a folder not named
# here runs last.
SCHEDULE = (
    "tests/server/",
    "tests/games/",
    "tests/agents/",
    "tests/core/",
    "tests/web/",
    "tests/envs/",
    "tests/solvers/",
    "tests/lab/",
    "tests/interfaces/",
)


# Under `make fuzz` (MEEPLE_FUZZ=long) this test is most of the run (about 980 s: 20,000
# corrupted checkpoints, each proof done again). Started where its folder comes, about
# 640 s into the run, it ran on alone long after the other worker had finished (1,620 s in
# all); started first, it runs on one worker while the other takes every other test (1,172
# s). docs/reliability.md gives the command.
FUZZ_FIRST = (
    "tests/solvers/test_solver_files.py::test_no_corruption_of_a_checkpoint_changes_an_answer",
)


def _scheduled(item: pytest.Item) -> tuple[bool, int]:
    """Where ``item`` comes: under ``make fuzz`` the tests of :data:`FUZZ_FIRST` first,
    then by folder in :data:`SCHEDULE`'s order (those not named last)."""
    later = not (LONG_FUZZ and item.nodeid.startswith(FUZZ_FIRST))
    for rank, folder in enumerate(SCHEDULE):
        if item.nodeid.startswith(folder):
            return later, rank
    return later, len(SCHEDULE)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests in :data:`SCHEDULE`'s order (a stable sort: a module's tests stay
    together, in their order; under ``make fuzz`` :data:`FUZZ_FIRST` first), and mark the
    tests in ``SLOW`` and those ``make durations`` measured slow
    (``tests/measured_slow.txt``) ``slow``, so ``make check`` (``-m "not slow"``) leaves
    them out; a measuring run (``--measure-slow``) runs the measured ones again."""
    from tests.quick_subset import measured_slow

    items.sort(key=_scheduled)
    measured = frozenset() if config.getoption("measure_slow") else measured_slow()
    for item in items:
        if item.nodeid.startswith(SLOW) or item.nodeid in measured:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _history_in_tmp(tmp_path, monkeypatch):
    """Games played by tests are kept in a temporary history folder, never the user's."""
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "history"))


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory) -> Iterator[str]:
    """One solver cache for the whole run, set in the environment before any session
    fixture starts: a server process a fixture starts inherits it (and solves there, never
    in the user's cache)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # Workers of one run share the folder (their base folders sit side by side), so a
        # solve that takes seconds is done once per run, not once per worker. Writes are
        # atomic (meeple.core.files.atomic_write), so two workers may store the same result.
        shared = tmp_path_factory.getbasetemp().parent / "solver-cache"
        shared.mkdir(exist_ok=True)
        folder = str(shared)
    else:
        folder = str(tmp_path_factory.mktemp("solver-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEEPLE_CACHE_DIR", folder)
        # The user's cache folder too (the research adapters' learned encoders): shared by
        # the run's workers and the processes they start, never this machine's own.
        patch.setenv("XDG_CACHE_HOME", str(Path(folder).with_name(Path(folder).name + "-user")))
        yield folder


@pytest.fixture(scope="session", autouse=True)
def _servers_forked() -> Iterator[None]:
    """The servers the tests start are forked from one Python per worker that has imported
    the server already (tests/forked_servers.py): a fresh ``meeple serve`` spends about a
    CPU-second on its imports before it answers, and the suite starts about a hundred."""
    from meeple.interfaces.web.client import ServerProcess
    from tests.forked_servers import Forker

    forker = Forker()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ServerProcess, "launch", forker.popen)
        yield
    forker.close()


@pytest.fixture(autouse=True)
def _started_by_exec(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked ``started_by_exec`` starts its servers as a person does: the installed
    ``meeple`` script, in a new Python."""
    if request.node.get_closest_marker("started_by_exec") is None:
        yield
        return
    import subprocess

    from meeple.interfaces.web.client import ServerProcess

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ServerProcess, "launch", subprocess.Popen)
        yield


@pytest.fixture(scope="session", autouse=True)
def _servers_write_no_traceback(tmp_path_factory) -> Iterator[None]:
    """At the end of the run (of each worker), every server a test started has written no
    traceback in its log: however a test ends it (killed, stopped, crashed on purpose) and
    whatever its clients did. A test's own checks look at the moments it names; this one
    covers all the rest (a client gone at an unlucky moment, say)."""
    yield
    found = server_tracebacks(tmp_path_factory.getbasetemp())
    assert not found, "a server wrote a traceback:\n" + "\n".join(found)


@pytest.fixture(autouse=True)
def _solver_cache_in_tmp(_session_cache, monkeypatch):
    """Solved results go to one folder for the whole test run, never the user's cache: a test
    must not pass here because a solve that takes minutes happens to be cached on this
    machine (and fail on a fresh one)."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", _session_cache)


@pytest.fixture
def run():
    """Run the ``meeple`` command with arguments (and typed input) as a person would."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return invoke


@pytest.fixture(autouse=True)
def _asyncio_run_beside_playwright(monkeypatch):
    """Playwright's sync API keeps an event loop running in the worker's main thread once a
    browser test has started one, and ``asyncio.run`` refuses to start inside it; a test
    process runs browser and server tests alike (pytest-xdist), so a coroutine of a server
    test then runs in a thread of its own, with its own loop, exactly as it would alone."""
    import asyncio
    import concurrent.futures

    original = asyncio.run

    def run(main, **kwargs):
        if asyncio._get_running_loop() is None:
            return original(main, **kwargs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(original, main, **kwargs).result()

    monkeypatch.setattr(asyncio, "run", run)


TICTACTOE = Path(__file__).parents[1] / "examples" / "tic_tac_toe" / "src"
"""Where the example game's package lies (docs/new-game.md)."""


@pytest.fixture
def tictactoe() -> Iterator[Any]:
    """The example game's rules module (examples/tic_tac_toe), imported in this process for
    the length of one test: its registration is undone afterwards, so that every other test
    of the worker meets the built-in five games only."""
    from meeple.core import game as core_game
    from meeple.core import registry

    sys.path.insert(0, str(TICTACTOE))
    try:
        import meeple_tictactoe.rules as rules

        yield rules
    finally:
        sys.path.remove(str(TICTACTOE))
        registry._GAMES.pop("tic-tac-toe", None)
        registry._EXTRA_AGENTS.pop("tic-tac-toe", None)
        for name in [m for m in sys.modules if m.startswith("meeple_tictactoe")]:
            cls = getattr(sys.modules[name], "TicTacToeGame", None)
            core_game._RENDERERS.pop(cls, None)
            del sys.modules[name]
