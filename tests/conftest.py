"""Fixtures shared by every test package."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meeple.interfaces.cli import app


@pytest.fixture
def run():
    """Run the ``meeple`` command with arguments (and typed input) as a person would."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return invoke
