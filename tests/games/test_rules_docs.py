"""The games' rules.md as shipped: what they cite and what they explain (issues 32, 34)."""

from __future__ import annotations

import re

import pytest

from meeple.core.registry import game_class, games

GAMES = [info.name for info in games()]


@pytest.mark.parametrize("name", GAMES)
def test_rules_cite_the_seed_by_title_not_files_the_repository_lacks(name):
    text = game_class(name).rules_markdown()
    # The seeds and the design notes live outside the repository (issue 34, item 5).
    assert "shared/" not in text and "gaps.md" not in text
    assert not re.search(r"\b\d{3}_[0-9a-f]{16}\.txt\b", text), "a seed's file name"
