"""The example of a game added from outside meeple (examples/tic_tac_toe, docs/new-game.md)
works everywhere a built-in game does: found through its ``meeple.games`` entry point, it
passes the conformance suite, plays in the terminal and the lab, loads in the research
adapters, and plays in the browser on the generic page (it has no drawing of its own).

The example is "installed" the way ``pip install -e examples/tic_tac_toe`` installs it, minus
pip, a build backend and the network (so that a clean clone runs this offline): its source
folder on the path and a ``.dist-info`` folder holding the entry points its pyproject.toml
declares. Everything that needs it installed runs in a process of its own with that path,
so the games this test session sees stay the built-in five.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.conformance import (
    check_game,
    check_immutable,
    check_option_values,
    check_rules_example,
    check_state,
)
from meeple.core.options import describe_options
from tests.processes import meeple_each

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tic_tac_toe"
MEEPLE = Path(sys.executable).with_name("meeple")


def install_example(target: Path, example: Path = EXAMPLE) -> dict[str, str]:
    """Write an example package's dist-info (name, version, entry points from its
    pyproject.toml; tic-tac-toe's unless ``example`` names another) into ``target``; the
    environment of a process that has it installed."""
    project = tomllib.loads((example / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = target / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
        encoding="utf-8",
    )
    groups = [
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items())
        for group, points in project["entry-points"].items()
    ]
    (info / "entry_points.txt").write_text("\n".join(groups), encoding="utf-8")
    path = [str(example / "src"), str(target), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process with the example installed."""
    return install_example(tmp_path_factory.mktemp("site"))


def run(env: dict[str, str], *args: str, cwd: Path | None = None) -> str:
    """Run a command with the example installed, in ``cwd`` (default: a folder of its own,
    for what it writes, such as the lab's results); its output (it must succeed)."""
    if cwd is None:
        cwd = Path(env["PYTHONPATH"].split(os.pathsep)[1])
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=240, cwd=cwd)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def test_without_its_entry_point_the_game_is_unknown() -> None:
    """The entry point is what makes meeple find the game: the source alone is not enough."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EXAMPLE / "src"), *sys.path])}
    done = subprocess.run(
        [str(MEEPLE), "rules", "tic-tac-toe"], env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "no game called 'tic-tac-toe'" in done.stdout + done.stderr


# The command lines of ``meeple`` the tests below read, run once for the module in a process
# each (tests.processes.meeple_each: one Python start, a fork per command line).
COMMANDS = {
    "games": ["games"],
    "agents": ["agents", "tic-tac-toe"],
    "play": ["play", "tic-tac-toe", "--seat", "random", "--seat", "random", "--no-history"],
    "play 4x4": ["play", "tic-tac-toe", "--size", "4", "--seat", "heuristic", "--seat",
                 "random", "--no-history"],
    "simulate": ["simulate", "tic-tac-toe", "--games", "20"],
}  # fmt: skip


@pytest.fixture(scope="module")
def said(installed: dict[str, str]) -> dict[str, str]:
    """What each of ``COMMANDS`` printed with the example installed (each must succeed), run
    in the folder ``run`` uses, for what they write (such as the lab's results)."""
    cwd = Path(installed["PYTHONPATH"].split(os.pathsep)[1])
    results = meeple_each(list(COMMANDS.values()), env=installed, cwd=cwd, limit=240)
    for args, done in zip(COMMANDS.values(), results, strict=True):
        assert done.returncode == 0, f"{args} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return {name: done.stdout for name, done in zip(COMMANDS, results, strict=True)}


def test_the_game_is_listed_with_its_option(said: dict[str, str]) -> None:
    listing = said["games"]
    assert "tic-tac-toe" in listing and "size" in listing
    assert "heuristic" in said["agents"]
    # Nothing was measured of an added game's levels: the list does not claim the ladder's.
    agents = " ".join(said["agents"].split())
    assert "beats the one below it" not in agents and "beats the hand-written" not in agents
    assert "has not measured these levels" in agents and "medium and hard both play" in agents


def test_the_example_s_own_tests_pass_the_conformance_suite(installed: dict[str, str]) -> None:
    out = run(
        installed, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=EXAMPLE
    )
    assert "6 passed" in out


def test_it_plays_in_the_terminal(said: dict[str, str]) -> None:
    out = said["play"]
    assert "made a line of 3" in out or "a draw" in out
    assert " a b c d" in said["play 4x4"]


def test_its_kept_games_are_listed_with_their_winner(
    installed: dict[str, str], tmp_path: Path
) -> None:
    """The guide asks a result for its ``winner`` (a seat), not a ``winner_name`` as the
    shipped games also write: the history names that seat, not "draw"."""
    env = {**installed, "MEEPLE_HISTORY": str(tmp_path)}
    play = ["play", "tic-tac-toe", "--seat", "heuristic", "--seat", "random", "--seed", "3"]
    played, listed = meeple_each([play, ["history"]], env=env, cwd=tmp_path, limit=120)
    assert played.returncode == 0 and listed.returncode == 0, played.stdout + listed.stdout
    assert "X made a line of 3" in played.stdout
    assert "X wins" in listed.stdout and "draw" not in listed.stdout


def test_it_runs_in_the_lab(said: dict[str, str]) -> None:
    out = said["simulate"]
    assert re.search(r"│ games +│ 20 ", out), out
    assert "made a line of 3" in out


ADAPTERS = """
import numpy as np
import pyspiel
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from meeple.envs import openspiel as mos
from meeple.envs import pettingzoo as mpz
from meeple.envs.gym import MeepleGymEnv

api_test(mpz.env("tic-tac-toe"), num_cycles=50)
game = pyspiel.load_game(mos.short_name("tic-tac-toe") + "(size=4)")
pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
check_env(MeepleGymEnv("tic-tac-toe", seat=0, opponents=["heuristic"]), skip_render_check=True)
print("adapters ok", game.num_distinct_actions(), game.max_game_length())
"""


def test_the_research_adapters_load_it(installed: dict[str, str]) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    out = run(installed, sys.executable, "-c", textwrap.dedent(ADAPTERS))
    assert "adapters ok 16 16" in out  # 16 squares, and at most 16 marks


# -- the conformance suite finds broken games (run here on variants of the example) ---------
def broken(rules: Any, **methods: Any) -> Any:
    """Tic-tac-toe with some methods of its state replaced."""
    state_class = type(
        "BrokenState", (rules.TicTacToeState,), {**methods, "__module__": rules.__name__}
    )
    game_class = type(
        "BrokenGame",
        (rules.TicTacToeGame,),
        {
            "new_game": lambda self, seed: state_class(game=self, board=("...",) * 3),
            "__module__": rules.__name__,
        },
    )
    return game_class(rules.TicTacToeOptions())


def test_check_game_passes_the_example_and_its_checks_fail_broken_variants(tictactoe: Any) -> None:
    rules = tictactoe
    assert check_game(rules.TicTacToeGame(rules.TicTacToeOptions()), range(3)) > 10
    shared: list[str] = []
    leaky = broken(rules, view=lambda self, player: {"board": shared}).new_game(0)
    with pytest.raises(AssertionError, match="changed its answers"):
        check_immutable(leaky)
    tuples = broken(rules, view=lambda self, player: {"board": self.board}).new_game(0)
    with pytest.raises(AssertionError, match="not JSON-safe"):
        check_state(tuples, random.Random(0))
    game = broken(rules)
    type(game)._parse_action = lambda self, text: rules.Mark(0, int(text))
    with pytest.raises(AssertionError, match=r"raised ValueError: .* must raise NotationError"):
        check_game(game, range(1), positions=False)


@pytest.mark.parametrize(
    ("methods", "contract"),
    [
        ({"view": lambda self, player: {"board": set(self.board)}}, "view.0. is not JSON-safe"),
        (
            {"view": lambda self, player: {"board": self.board}},
            r"view.0. is not JSON-safe: view\(0\)\['board'\] is a tuple, which JSON reads back "
            "as a list: use a list",
        ),
        ({"result": property(lambda self: {})}, "result must be a dict with 'winner' and"),
        ({"returns": property(lambda self: (0.0,))}, "returns must give one number per seat"),
    ],
    ids=["view-not-json", "view-with-a-tuple", "result-without-winner", "returns-short"],
)
def test_check_game_names_the_contract_a_state_breaks(
    tictactoe: Any, methods: dict[str, Any], contract: str
) -> None:
    with pytest.raises(AssertionError, match=contract):
        check_state(broken(tictactoe, **methods).new_game(0), random.Random(0))


def heaps_game(rules: Any, default: str, suggested: tuple[tuple[str, str], ...] = ()) -> Any:
    """Tic-tac-toe with a text option ``heaps`` of that default and those suggested values."""
    from pydantic import Field

    options = type(
        "HeapsOptions",
        (rules.TicTacToeOptions,),
        {
            "__annotations__": {"heaps": str},
            "heaps": Field(default=default, json_schema_extra={"suggested": suggested}),
        },
    )
    return type("HeapsGame", (rules.TicTacToeGame,), {"Options": options})(options())


@pytest.mark.parametrize(
    ("default", "suggested", "held"),
    [("3,4,5", (), ","), ("3/4/5", (("(3/4)", "two heaps"),), "( )"), ("a=b", (), "=")],
)
def test_check_game_names_an_option_value_that_cannot_be_written(
    tictactoe: Any, default: str, suggested: tuple[tuple[str, str], ...], held: str
) -> None:
    """A text option's default or suggested value holding a character the lab's variants
    or OpenSpiel's game strings part values at is named; '/' passes."""
    game = heaps_game(tictactoe, default, suggested)
    with pytest.raises(
        AssertionError, match=rf"option 'heaps' offers .*, which holds {re.escape(held)}:"
    ):
        check_game(game, range(1), positions=False)
    check_option_values(heaps_game(tictactoe, "3/4/5", (("1/2", "two heaps"),)))


def test_a_text_option_without_its_own_words_allows_text(tictactoe: Any) -> None:
    """An option of text that does not say what it allows is "text" to a player, not
    Python's "str" (in errors, ``meeple rules`` and the lobby)."""
    game = heaps_game(tictactoe, "3/4/5")
    (heaps,) = [o for o in describe_options(type(game).Options) if o.name == "heaps"]
    assert heaps.allowed == "text"


def test_check_game_names_notation_that_does_not_read_back(tictactoe: Any) -> None:
    rules = tictactoe
    mark = type("Mark", (rules.Mark,), {"__str__": lambda self: f"{'abc'[self.col]}{self.row}"})
    game = broken(
        rules,
        legal_actions=lambda self, player: [
            mark(a.row, a.col) for a in rules.TicTacToeState.legal_actions(self, player)
        ],
    )
    with pytest.raises(AssertionError, match=r"does not replay: .*str\(\) must parse back"):
        check_game(game, range(3), positions=False)


# -- a game package that does not load is refused in one line naming it ---------------------
def install_package(target: Path, module: str, code: str) -> dict[str, str]:
    """A package ``module`` (its ``__init__.py`` the text ``code``, and no other file)
    installed in ``target`` with a ``meeple.games`` entry point; the environment of a process
    that has it installed."""
    (target / module).mkdir()
    (target / module / "__init__.py").write_text(textwrap.dedent(code), encoding="utf-8")
    info = target / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[meeple.games]\n{module} = {module}\n")
    path = [str(target), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("import not_a_module\n", "ModuleNotFoundError: No module named 'not_a_module'"),
        (
            """
            from meeple.core.registry import register
            from meeple.games.erd.rules import ErdGame

            @register
            class Imposter(ErdGame):
                pass
            """,
            "the game name 'erd' is taken by meeple.games.erd.rules.ErdGame; "
            "broken_game.Imposter needs a name of its own",
        ),
        ("MOVES = 3\n", "cannot be played: it registers no game (decorate its Game class with"),
        (
            """
            from meeple.core.game import Game, State
            from meeple.core.registry import register
            from meeple.games.erd.rules import Allocate, ErdGame, ErdOptions

            class HalfState(State[Allocate]):
                pass

            @register
            class Half(ErdGame, Game[ErdOptions, "HalfState", Allocate]):
                name = "half"
            """,
            "cannot be played: broken_game.HalfState lacks _next, legal_actions, result, "
            "returns, to_act, view, which every State defines",
        ),
        (
            """
            from meeple.core.registry import register
            from meeple.games.edges.rules import EdgesGame

            @register
            class Secret(EdgesGame):
                name = "secret"
                perfect_information = False
            """,
            "broken_game.Secret hides information (perfect_information = False), yet "
            "meeple.games.edges.rules.EdgesState lacks determinize",
        ),
        (
            """
            from pydantic import Field

            from meeple.core.registry import register
            from meeple.games.erd.rules import ErdGame, ErdOptions

            class Options(ErdOptions):
                bonus: int = Field(ge=0)

            @register
            class Bonus(ErdGame):
                name = "bonus"
                Options = Options
            """,
            "option 'bonus' of broken_game.Options has no default; every option needs one",
        ),
        (
            """
            from typing import Literal

            from pydantic import Field

            from meeple.core.registry import register
            from meeple.games.erd.rules import ErdGame, ErdOptions

            class Options(ErdOptions):
                bonus: Literal["none", "turret"] = Field(
                    default="none", json_schema_extra={"applies_when": {"best-of": 3}}
                )

            @register
            class Bonus(ErdGame):
                name = "bonus"
                Options = Options
            """,
            "option 'bonus': applies_when names 'best-of', which is no other option (rules, "
            "best_of,",
        ),
        (
            """
            from typing import Literal

            from pydantic import Field

            from meeple.core.registry import register
            from meeple.games.erd.rules import ErdGame, ErdOptions

            class Options(ErdOptions):
                bonus: Literal["none", "turret"] = Field(
                    default="none", json_schema_extra={"applies_when": {"best_of": {"not": "1"}}}
                )

            @register
            class Bonus(ErdGame):
                name = "bonus"
                Options = Options
            """,
            "option 'bonus': applies_when wants best_of='1', a value 'best_of' does not take as "
            "written, in broken_game.Options",
        ),
    ],
    ids=[
        "does-not-import",
        "takes-a-built-in-name",
        "registers-no-game",
        "state-lacks-methods",
        "hides-without-determinize",
        "option-without-default",
        "condition-on-no-option",
        "condition-on-a-value-not-taken",
    ],
)
def test_a_game_package_that_does_not_load_is_one_line_naming_it(
    tmp_path: Path, code: str, why: str
) -> None:
    env = install_package(tmp_path, "broken_game", code)
    # One Python for both commands, each in a child of its own (tests.processes): the
    # package is loaded anew in each.
    for done in meeple_each([["games"], ["rules", "erd"]], env=env, cwd=tmp_path):
        out = done.stdout + done.stderr
        assert done.returncode == 2, out
        assert "Traceback" not in out, out
        assert "the game package 'broken_game' (entry point 'broken_game' of meeple.games)" in out
        assert why in " ".join(out.split()), out


def test_a_game_class_imported_again_keeps_its_name() -> None:
    from meeple.core.registry import register
    from meeple.games.erd.rules import ErdGame

    assert register(ErdGame) is ErdGame
    twin = type("ErdGame", (ErdGame,), {"__module__": ErdGame.__module__})
    try:
        assert register(twin) is twin  # the same module's class, imported again
    finally:
        register(ErdGame)
    imposter = type("Imposter", (ErdGame,), {"__module__": "elsewhere"})
    with pytest.raises(ValueError, match="the game name 'erd' is taken"):
        register(imposter)
    assert meeple.make("erd").__class__ is ErdGame


LACKING = """
from meeple.core.registry import register
from meeple.games.edges.rules import EdgesGame

@register
class Lacking(EdgesGame):
    name = "lacking"
    title = "Lacking"
"""


@pytest.mark.parametrize(
    ("args", "missing"),
    [(["rules", "lacking", "--full"], "rules.md"), (["rules", "lacking"], "player_rules.md")],
)
def test_a_game_without_its_rules_files_is_one_line_naming_the_file(
    tmp_path: Path, args: list[str], missing: str
) -> None:
    env = install_package(tmp_path, "lacking_game", LACKING)
    done = subprocess.run([str(MEEPLE), *args], env=env, capture_output=True, text=True)
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2, out
    assert "Traceback" not in out, out
    assert f"error: Lacking ships no {missing}: a game's package holds rules.md and" in out
    assert "beside its rules module, here in lacking_game" in out


def test_the_server_answers_a_game_lacking_a_file_as_its_own_fault() -> None:
    """500 ``internal_error`` (a code of docs/api.md's table), the message naming the file."""
    from starlette.requests import Request

    from meeple.core.errors import GamePackageError
    from meeple.interfaces.web.refusals import refusal

    scope = {"type": "http", "method": "GET", "path": "/api/games/x/rules", "headers": []}
    answer = refusal(Request(scope), GamePackageError("Lacking ships no player_rules.md"))
    assert answer.status_code == 500
    assert answer.body == b'{"error":"Lacking ships no player_rules.md","code":"internal_error"}'


def test_a_position_module_without_its_codec_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """meeple finds the codec by its name: one named otherwise is not an AttributeError."""
    from meeple.core.errors import GamePackageError
    from meeple.games.erd.rules import ErdGame, ErdOptions

    (tmp_path / "nocodec").mkdir()
    (tmp_path / "nocodec" / "__init__.py").write_text("")
    (tmp_path / "nocodec" / "position.py").write_text("CODEC = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = type("Erd", (ErdGame,), {"__module__": "nocodec.rules"})(ErdOptions())
    try:
        with pytest.raises(
            GamePackageError, match=r"^nocodec\.position holds no PositionCodec named"
        ):
            game.from_position("meeple erd position")
    finally:
        for name in [m for m in sys.modules if m.startswith("nocodec")]:
            del sys.modules[name]


def test_a_view_position_that_shows_the_unknown_points_to_the_codec_s_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hidden-information game's codec without ``hidden`` (Erd's, taken away) is named."""
    from meeple.core.conformance import check_position, playout

    game = meeple.make("erd")
    monkeypatch.setattr(game.position_codec(), "hidden", None)
    with pytest.raises(AssertionError, match="the position codec's hidden gives what a seat"):
        for state in playout(game.new_game(0), random.Random(0)):
            check_position(state)


def test_a_game_that_names_no_seats_calls_them_seat_n_once() -> None:
    """The default ``seat_name`` is ``seat 0``: the prompt says that, not ``seat 0 (seat 0)``."""
    from meeple.core.game import Game, seats_text
    from meeple.games.erd.rules import ErdGame, ErdOptions

    plain = type("Plain", (ErdGame,), {"seat_name": Game.seat_name, "__module__": "elsewhere"})
    assert seats_text(plain(ErdOptions()), [0, 1]) == "seat 0, seat 1"
    assert seats_text(meeple.make("erd"), [0]) == "Red (seat 0)"


@pytest.mark.parametrize(
    ("section", "says"),
    [
        (
            '```text\nmeeple tic-tac-toe position\nboard: ["XX.", "...", "..."]\n```\n',
            r"^the example position of rules.md \('## Position notation'\) does not read: .*"
            "X moves first",
        ),
        ("A board, its rows from the top.\n\n## Steps\n\n```text\nX\n```\n", "has no ```text"),
    ],
    ids=["example-refused", "no-example"],
)
def test_check_game_names_the_rules_example_it_cannot_read(
    tictactoe: Any, section: str, says: str
) -> None:
    game = broken(tictactoe)
    type(game).rules_markdown = lambda self: f"# Tic-tac-toe\n\n## Position notation\n\n{section}"
    with pytest.raises(AssertionError, match=says):
        check_rules_example(game)


def test_check_game_names_a_spectator_view_that_shows_what_is_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Erd's view(None) given the whole position: a watcher would see both allocations."""
    from meeple.core.conformance import playout
    from meeple.games.erd.rules import ErdState

    seats_view = ErdState.view
    monkeypatch.setattr(
        ErdState,
        "view",
        lambda self, player: (
            {"all": self.position()} if player is None else seats_view(self, player)
        ),
    )
    rng = random.Random(0)
    with pytest.raises(AssertionError, match=r"determinize\(\d\) changed what a spectator sees"):
        for state in playout(meeple.make("erd").new_game(0), rng):
            check_state(state, rng)


def test_check_game_names_an_action_that_is_not_hashable(tictactoe: Any) -> None:
    """Search keys its statistics by action: a mutable dataclass fails there, not here."""
    loose = dataclasses.dataclass(type("Mark", (), {"__annotations__": {"row": int, "col": int}}))
    game = broken(
        tictactoe,
        legal_actions=lambda self, player: [
            loose(a.row, a.col) for a in tictactoe.TicTacToeState.legal_actions(self, player)
        ],
    )
    with pytest.raises(AssertionError, match=r"^Mark is not hashable: an action is frozen data"):
        check_state(game.new_game(0), random.Random(0))


def test_a_game_without_its_rules_md_is_played_on_when_its_legend_is_asked(
    tmp_path: Path,
) -> None:
    """``legend`` at the prompt reads rules.md: without it, the line says so and the game
    goes on (it ended the game)."""
    env = {**install_package(tmp_path, "lacking_game", LACKING), "MEEPLE_HISTORY": str(tmp_path)}
    done = subprocess.run(
        [str(MEEPLE), "play", "lacking", "--seat", "human", "--seat", "random", "--no-history"],
        env=env, input="legend\nmoves\nquit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = " ".join((done.stdout + done.stderr).split())
    assert "Traceback" not in out, out
    assert "error: Lacking ships no rules.md" in out
    assert out.index("ships no rules.md") < out.index("Stopped after"), out
