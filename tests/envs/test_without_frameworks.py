"""The research environments where the ``envs`` extra is not installed: an import names the
framework missing and the extra that installs it (Python's own error named only the module)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MISSING = """
import sys
for name in {frameworks!r}:
    sys.modules[name] = None  # as if never installed: importing it fails
try:
    import {module}
except ModuleNotFoundError as exc:
    print(exc.name, "|", exc)
"""


@pytest.mark.parametrize(
    ("module", "frameworks", "named"),
    [
        ("meeple.envs.gym", ["gymnasium"], "gymnasium"),
        ("meeple.envs.vector", ["gymnasium"], "gymnasium"),
        ("meeple.envs.opponent", ["gymnasium"], "gymnasium"),
        ("meeple.envs.pettingzoo", ["pettingzoo"], "pettingzoo"),
        ("meeple.envs.openspiel", ["pyspiel"], "pyspiel"),
    ],
)
def test_an_environment_without_its_framework_names_the_extra(module, frameworks, named):
    program = MISSING.format(frameworks=frameworks, module=module)
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == (
        f"{named} | meeple's research environments need {named}, which is not installed: "
        "pip install 'meeple[envs]'"
    )
