"""The suite's own bookkeeping: every entry of ``SLOW`` (what ``make check`` leaves out)
names a file or test that exists, so a test renamed or moved to another file never slips
into the quick subset unnoticed, nor leaves a dead entry behind."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FUZZ_FIRST, SCHEDULE, SLOW
from tests.quick_subset import MEASURED, OVER, measured_slow, remeasured

ROOT = Path(__file__).resolve().parents[1]


DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


@functools.cache
def _test_names(path: Path) -> tuple[str, ...]:
    # Every line that defines a function, read as text: parsing each file the lists name
    # (about a hundred) took 1.4 s, which kept this check out of `make check`'s quick subset,
    # the edit loop in which a renamed test is caught. A function a snippet of code in a
    # string defines is read too: it hides a missing test only under that test's exact name.
    return tuple(DEF.findall(path.read_text(encoding="utf-8")))


def _missing(entry: str, whole: bool) -> str | None:
    """Why ``entry`` names no test that exists (None where it does): a file or folder, or
    (``whole``: a complete node id) a test in a file, parametrized or not."""
    path, _, name = entry.partition("::")
    target = ROOT / path
    if not target.exists():
        return f"{entry}: {path} does not exist"
    if not name:
        return None
    if not target.is_file():
        return f"{entry}: {path} is not a test file"
    # A parametrized case: the test's own name comes first; a class's test: last.
    name = name.split("[")[0].split("::")[-1]
    names = _test_names(target)
    found = name in names if whole else any(test.startswith(name) for test in names)
    return None if found else f"{entry}: no test in {path} is {name}"


@pytest.mark.parametrize("entry", SLOW)
def test_every_slow_entry_names_tests_that_exist(entry: str) -> None:
    missing = _missing(entry, whole=False)
    assert missing is None, missing


@pytest.mark.parametrize("entry", FUZZ_FIRST)
def test_a_test_make_fuzz_starts_first_exists_and_is_marked_fuzz(entry: str) -> None:
    missing = _missing(entry, whole=True)
    assert missing is None, missing
    path, _, name = entry.partition("::")
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    [test] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    assert any(_marked_fuzz(d) for d in test.decorator_list), f"{entry}: not marked fuzz"


def test_every_measured_slow_test_exists_and_none_is_in_slow_already() -> None:
    """The measured list (``make durations``) names whole node ids of tests that exist;
    a test renamed since is measured again by the next ``make durations``."""
    listed = measured_slow()
    assert listed, f"{MEASURED.name} lists no test"
    missing = [why for entry in sorted(listed) if (why := _missing(entry, whole=True))]
    assert not missing, f"run make durations: {missing[:5]}"
    assert not [entry for entry in listed if entry.startswith(SLOW)]


def test_a_measuring_run_lists_what_it_measured_over_the_bound_and_keeps_what_it_did_not_run():
    listed = frozenset({"a.py::kept", "a.py::quick_now", "a.py::gone"})
    took = {"a.py::quick_now": OVER / 2, "a.py::slow_now": OVER * 2, "a.py::at": OVER}
    assert remeasured(listed, took, whole=True) == ["a.py::at", "a.py::slow_now"]
    partial = remeasured(listed, took, whole=False)
    assert partial == ["a.py::at", "a.py::gone", "a.py::kept", "a.py::slow_now"]


def _longer_under_make_fuzz(tree: ast.Module) -> set[str]:
    """The module-level names (constants, helpers) whose value or body reads ``MEEPLE_FUZZ``,
    directly or through another such name."""
    found: set[str] = set()
    while True:
        before = len(found)
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.FunctionDef) and not node.name.startswith("test"):
                names = [node.name]
            else:
                continue
            text = ast.unparse(node)
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if "MEEPLE_FUZZ" in text or used & found:
                found.update(names)
        if len(found) == before:
            return found


def _marked_fuzz(node: ast.AST) -> bool:
    return "pytest.mark.fuzz" in ast.unparse(node)


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for p in (ROOT / "tests").rglob("test_*.py")
        if p != Path(__file__).resolve() and "MEEPLE_FUZZ" in p.read_text(encoding="utf-8")
    ),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_every_test_that_plays_longer_under_make_fuzz_is_marked_fuzz(path: Path) -> None:
    """``make fuzz`` runs only the tests marked ``fuzz`` (``-m fuzz``): a test that plays more
    under ``MEEPLE_FUZZ=long`` but lacks the mark never plays more at all."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and _marked_fuzz(node.value)
        for node in tree.body
    ):
        return
    longer = _longer_under_make_fuzz(tree)
    unmarked = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test")
        and {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & longer
        and not any(_marked_fuzz(d) for d in node.decorator_list)
    ]
    assert not unmarked, f"{path.relative_to(ROOT)}: not marked fuzz: {', '.join(unmarked)}"


def test_make_screenshots_runs_every_screenshot_test() -> None:
    """``make screenshots`` names its test files; a picture taken in a file it does not name
    would never be taken again (the mark alone leaves it out of every other run)."""
    done = subprocess.run(
        ["make", "-n", "screenshots"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    named = {word for word in done.stdout.split() if word.startswith("tests/")}
    marked = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if path != Path(__file__).resolve()
        and "pytest.mark.screenshots" in path.read_text(encoding="utf-8")
    }
    assert marked, "no test is marked screenshots"
    missed = {m for m in marked if not any(m == n or m.startswith(f"{n}/") for n in named)}
    assert not missed, f"make screenshots does not run {sorted(missed)}"


@pytest.mark.parametrize("target", ["test", "check", "durations", "fuzz"])
def test_every_target_that_runs_the_suite_compiles_the_kernels_first(target: str) -> None:
    """Two workers that start on a cold kernel cache each compile the same kernels (tens of
    seconds a game) inside whatever test asks first: ``meeple compile`` runs before pytest,
    so a run's times are the tests' own (docs/contributing.md)."""
    done = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True
    )
    steps = done.stdout
    assert "meeple compile" in steps, f"make {target} runs no meeple compile"
    assert steps.index("meeple compile") < steps.index("pytest "), (
        f"make {target} runs pytest before meeple compile"
    )


def test_every_test_folder_has_its_place_in_the_schedule() -> None:
    """A new folder of tests would run at the end, after the half of the run it was meant
    for; every folder that holds tests is named in ``SCHEDULE``, and each entry exists."""
    folders = {
        f"tests/{path.parent.relative_to(ROOT / 'tests').parts[0]}/"
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.parent != ROOT / "tests"
    }
    assert folders == set(SCHEDULE), (
        f"not scheduled: {sorted(folders - set(SCHEDULE))}; "
        f"no such folder: {sorted(set(SCHEDULE) - folders)}"
    )
