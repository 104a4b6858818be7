"""The suite's own bookkeeping: every entry of ``SLOW`` (what ``make check`` leaves out)
names a file or test that exists, so a test renamed or moved to another file never slips
into the quick subset unnoticed, nor leaves a dead entry behind."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import SLOW

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("entry", SLOW)
def test_every_slow_entry_names_tests_that_exist(entry: str) -> None:
    path, _, name = entry.partition("::")
    target = ROOT / path
    assert target.exists(), f"{entry}: {path} does not exist"
    if not name:
        return
    assert target.is_file(), f"{entry}: {path} is not a test file"
    name = name.split("[")[0]  # a parametrized case: the test's own name comes first
    tree = ast.parse(target.read_text(encoding="utf-8"))
    tests = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    assert any(test.startswith(name) for test in tests), f"{entry}: no test in {path} is {name}"
