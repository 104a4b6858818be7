"""The example of an agent added from outside meeple (examples/lookahead_agent, docs/agents.md
"Adding an agent"): found through its ``meeple.agents`` entry point, it is listed and
played by the terminal, the lab (in worker processes too) and the research adapters; a
broken agent package, or one that takes a name meeple's agents have, is refused in one
line naming it.

Installed offline as tests/test_new_game.py installs the game example (``install_example``),
in processes of their own, so the agents this test session sees stay meeple's.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.agents import available_agents
from meeple.core import registry
from meeple.core.errors import AgentPackageError
from tests.processes import meeple_each
from tests.test_new_game import install_example

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "lookahead_agent"

COMMANDS = {
    "agents": ["agents", "edges"],
    "play": ["play", "edges", "--board", "2x2", "--seat", "lookahead:worlds=2", "--seat",
             "random", "--quiet", "--no-history"],
    "simulate": ["simulate", "edges", "--board", "2x2", "--seat", "lookahead:worlds=2",
                 "--seat", "random", "--games", "4", "--jobs", "2"],
    "bad budget": ["play", "edges", "--seat", "lookahead:worlds=0", "--seat", "random"],
    "not for erd": ["play", "erd", "--seat", "lookahead", "--seat", "random"],
}  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process with the example installed."""
    return install_example(tmp_path_factory.mktemp("site"), EXAMPLE)


@pytest.fixture(scope="module")
def said(
    installed: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, subprocess.CompletedProcess[str]]:
    """What each of ``COMMANDS`` did with the example installed."""
    cwd = tmp_path_factory.mktemp("work")
    results = meeple_each(list(COMMANDS.values()), env=installed, cwd=cwd, limit=240)
    return dict(zip(COMMANDS, results, strict=True))


def test_the_agent_is_listed_with_its_parameters(said: dict[str, Any]) -> None:
    assert said["agents"].returncode == 0, said["agents"].stderr
    assert "lookahead" in said["agents"].stdout and "worlds=1" in said["agents"].stdout


def test_it_plays_in_the_terminal_and_the_lab(said: dict[str, Any]) -> None:
    for name in ("play", "simulate"):
        done = said[name]
        assert done.returncode == 0, f"{name}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Game over" in said["play"].stdout
    assert "lookahead" in said["simulate"].stdout


def test_its_refusals_are_one_line(said: dict[str, Any]) -> None:
    for name, words in (
        ("bad budget", "lookahead: worlds must be a whole number of 1 or more, not 0"),
        ("not for erd", "no agent called 'lookahead' for erd"),
    ):
        done = said[name]
        out = done.stdout + done.stderr
        assert done.returncode != 0 and words in out and "Traceback" not in out, out


def test_the_example_s_own_tests_and_a_research_adapter(installed: dict[str, str]) -> None:
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        env=installed, cwd=EXAMPLE, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert "3 passed" in tests.stdout, tests.stdout + tests.stderr
    gym = subprocess.run(
        [sys.executable, "-c", GYM_GAME], env=installed, capture_output=True, text=True, timeout=120
    )
    assert gym.returncode == 0 and "returns" in gym.stdout, gym.stdout + gym.stderr


# A whole Gymnasium episode of Edges against the example's agent.
GYM_GAME = """
from meeple.envs.gym import MeepleGymEnv
env = MeepleGymEnv("edges", seat=0, opponents=["lookahead"], board="2x2")
_, info = env.reset(seed=1)
over = False
while not over:
    _, reward, over, _, info = env.step(int(info["action_mask"].argmax()))
print("returns", reward)
"""


def broken(tmp_path: Path, source: str) -> str:
    """The one line (and exit status) of ``meeple agents edges`` with an agent package
    installed whose module is ``source``."""
    folder = tmp_path / "broken"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "broken_agent.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (folder / "pyproject.toml").write_text(
        '[project]\nname = "broken-agent"\nversion = "0.1"\n'
        '[project.entry-points."meeple.agents"]\nbroken = "broken_agent"\n',
        encoding="utf-8",
    )
    env = install_example(tmp_path / "site", folder)
    (done,) = meeple_each([["agents", "edges"]], env=env, cwd=tmp_path)
    assert done.returncode != 0
    out = (done.stdout + done.stderr).strip()
    assert "Traceback" not in out and len(out.splitlines()) == 1, out
    return out


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("import no_such_module\n", "does not load: ModuleNotFoundError"),
        ("X = 1\n", "is of no use: it registers no agent"),
        (
            """
            from meeple.agents.random_agent import RandomAgent
            from meeple.core.registry import register_agent

            class Mine(RandomAgent):
                pass

            register_agent("edges", "random", Mine)
            """,
            "the agent 'random' registered for edges by broken_agent.Mine takes a name meeple",
        ),
    ],
)
def test_a_broken_agent_package_is_refused_in_one_line(
    tmp_path: Path, source: str, words: str
) -> None:
    out = broken(tmp_path, source)
    assert words in out, out
    assert "broken_agent" in out


def test_an_agent_name_is_one_agent_s_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registering another factory under a name a game's agent has would replace it in
    silence; the same factory registered again (a module imported twice) is no conflict."""
    monkeypatch.setattr(registry, "_EXTRA_AGENTS", {"edges": registry.game_agents("edges")})
    greedy = registry.game_agents("edges")["greedy"]
    registry.register_agent("edges", "greedy", greedy)
    with pytest.raises(ValueError, match=r"'greedy' of edges is taken by meeple\.games\.edges"):
        registry.register_agent("edges", "greedy", lambda game, seed=0: None)


def test_a_registered_agent_cannot_take_a_level_s_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level's word is read as the level first, so an agent under it could never play."""
    monkeypatch.setattr(registry, "_EXTRA_AGENTS", {"edges": registry.game_agents("edges")})
    registry.register_agent("edges", "hard", lambda game, seed=0: None)
    with pytest.raises(AgentPackageError, match="'hard' registered for edges by"):
        available_agents(meeple.make("edges"))


def test_the_docs_show_the_example_s_entry_point() -> None:
    """docs/agents.md's entry point is the one the example (and so this test) installs."""
    import tomllib

    points = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
    ((name, module),) = points["project"]["entry-points"]["meeple.agents"].items()
    docs = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    assert f'[project.entry-points."meeple.agents"]\n{name} = "{module}"' in docs
