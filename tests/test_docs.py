"""Documentation that the project promises exists and agrees with the code."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.core.registry import game_class

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_every_game_has_its_rules_document(name):
    """docs/rules/<game>.md is the text `meeple rules <game>` prints (one text, no copy)."""
    doc = ROOT / "docs" / "rules" / f"{name}.md"
    assert doc.exists(), f"missing {doc}"
    text = doc.read_text(encoding="utf-8")
    assert text == game_class(name).rules_markdown()
    assert "## Interpretations" in text or "Interpretation" in text


def test_readme_documents_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in (
        "make run",
        "make test",
        "meeple games",
        "meeple rules edges",
        "meeple play edges",
        "meeple replay",
        "meeple agents",
        "--resume",
        "meeple simulate",
        "meeple compare",
        "meeple tournament",
        "meeple results",
        "meeple solve edges",
        "--prove",
        "perfect:exact=12,seconds=5",
        "meeple serve",
        "meeple serve --open",
        "make fuzz",
        "make screenshots",
        "benchmarks/server_load.py",
        "meeple.envs.pettingzoo",
        "examples/train_edges_reinforce.py",
    ):
        assert command in readme, f"README does not show `{command}`"


def test_architecture_doc_exists():
    assert (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").startswith("# meeple")
