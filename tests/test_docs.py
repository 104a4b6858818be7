"""Documentation that the project promises exists and agrees with the code."""

from __future__ import annotations

import functools
import re
import shlex
import subprocess
import sys
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


def test_readme_shows_every_command_with_an_example_and_stays_short():
    """Issue 55.1: every `meeple` command and `make` target a user needs has an example in
    the README (tests/test_readme.py runs them), and the README stays short."""
    from typer.main import get_command

    from meeple.interfaces.cli import app

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    commands = get_command(app).commands  # type: ignore[attr-defined]
    for name in commands:
        assert f"meeple {name}" in readme, f"README shows no example of `meeple {name}`"
    for target in ("make run", "make test", "make check", "make fuzz", "make screenshots"):
        assert target in readme, f"README does not show `{target}`"
    for words in (
        "meeple.envs.pettingzoo",
        "examples/train_edges_reinforce.py",
        "docs/security.md",
    ):
        assert words in readme, f"README does not show `{words}`"


def test_the_readme_says_where_the_history_lists_the_last_game():
    """`meeple history` puts the game played last at the bottom (read_history's order,
    tests/interfaces/test_cli_play.py): the README's comment on it says so."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "$ .venv/bin/meeple history"
    (line,) = [line for line in readme.splitlines() if line.startswith(command)]
    assert "last at the bottom" in line.split("#", 1)[1], line


CONTRIBUTOR_PAGES = ("docs/architecture.md", "docs/lab-internals.md")
"""The pages that map the source for a contributor: each module, name and file they give is
one of the source (their paths from the repository's root, `src/` or `src/meeple/`)."""

DOTTED = re.compile(
    r"`(?:meeple\.)?((?:core|agents|lab|store|solvers|games|interfaces|envs)(?:\.\w+)+)`"
)
SOURCE_FILE = re.compile(
    r"`((?:[\w.-]+/)+[\w.-]+\.(?:py|md|toml|json)|[A-Z][A-Z0-9_-]*\.md)`"
)  # a path, or a file of the repository's root named in capitals (README.md)


def _named_in_contributor_pages(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for page in CONTRIBUTOR_PAGES:
        for match in pattern.finditer((ROOT / page).read_text(encoding="utf-8")):
            name = match.group(1)
            if not name.endswith((".py", ".md", ".toml", ".json")) or pattern is SOURCE_FILE:
                found.append(f"{page} -> {name}")
    return sorted(set(found))


@pytest.mark.parametrize("link", _named_in_contributor_pages(DOTTED))
def test_a_name_a_contributor_page_gives_is_defined_where_it_says(link):
    """`store.rows.GameRow`: the module exists, and a class or function named in a module
    (not a package, whose `__init__` offers its public names) is defined there, not only
    imported, so a reader who opens that file finds it."""
    import importlib

    name = link.split(" -> ")[1]
    parts = f"meeple.{name}".split(".")
    for cut in range(len(parts), 1, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        module = target.__name__
        for attribute in parts[cut:]:
            assert hasattr(target, attribute), f"{link}: {module} has no {attribute}"
            target = getattr(target, attribute)
        defined = getattr(target, "__module__", None)
        package = hasattr(importlib.import_module(module), "__path__")
        if cut == len(parts) - 1 and isinstance(defined, str) and not package:
            assert defined == module, f"{link}: defined in {defined}, not {module}"
        return
    pytest.fail(f"{link}: no such module")


@pytest.mark.parametrize("link", _named_in_contributor_pages(SOURCE_FILE))
def test_a_file_a_contributor_page_names_exists(link):
    """`core/files.py`, `tests/lab/test_lab.py`: a path of the repository, `<game>` standing
    for each game's package."""
    path = link.split(" -> ")[1]
    games = [info.name.replace("-", "_") for info in meeple.games()]
    for candidate in {path.replace("<game>", game) for game in games}:
        roots = (ROOT, ROOT / "src", ROOT / "src" / "meeple")
        assert any((root / candidate).exists() for root in roots), link


def test_the_readme_says_on_how_many_cores_make_test_runs():
    """`make test` runs pytest-xdist with `-n $(JOBS)`, `auto` by default: one worker per
    core of the machine at hand, which the README says (not a count of one machine's)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^JOBS \?= auto$", makefile, flags=re.M)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = [line for line in readme.splitlines() if line.startswith("$ make test")]
    assert "every core" in line, line


def test_architecture_doc_exists():
    assert (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").startswith("# meeple")


# Docs are references: what meeple is now, for anyone's checkout. A path of one particular
# machine, a numbered session of work or a clock time is diary, and git history keeps that.
# Game rounds (Erd's, The Triangle Clock's) are not matched: only the work's own numbering.
DIARY_PATTERNS = {
    "a path of one particular machine": re.compile(r"(?<![\w.~-])/(?:root|tmp|home|work)/"),
    "a numbered session of work": re.compile(r"\b[Ss]essions?[- ]\d+"),
    "a numbered round of work": re.compile(r"\b(?:round|stop)s? \d+ of (?:the )?work\b"),
    "a clock time": re.compile(r"\b\d{1,2}:\d{2} UTC\b"),
    # Which commit a figure was measured at is history: git keeps it, the page gives the
    # command that measures it now.
    "a commit of the work's history": re.compile(r"\b[Cc]ommits? [0-9a-f]{7,40}\b"),
}

PAGES = [
    "README.md",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md")),
]
"""The pages a reader opens: README.md and every page under docs/ (the games' rules and the
design reports included)."""

PENDING_REWRITE: dict[str, str] = {}


def _pending(pages: dict[str, str], cases: list[str]) -> list:
    """`cases` as pytest params, those named in `pages` marked xfail(strict) with the reason
    given, so a pending fix shows in every run and its mark must go once it lands."""
    return [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=pages[case]))
        if case in pages
        else case
        for case in cases
    ]


def diary_lines(text: str) -> list[str]:
    """Each line of `text` that matches a diary pattern, with what it matched and why."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in DIARY_PATTERNS.items():
            match = pattern.search(line)
            if match:
                found.append(f"line {number}: {what}: {match.group(0)!r}")
    return found


@pytest.mark.parametrize("page", _pending(PENDING_REWRITE, PAGES))
def test_a_page_holds_no_machine_path_or_numbered_session(page):
    """A doc names no path of one machine (/root/, /tmp/, /home/, /work/), no numbered
    session or round of work and no clock time."""
    found = diary_lines((ROOT / page).read_text(encoding="utf-8"))
    assert not found, f"{page}:\n" + "\n".join(found)


PAGE_LINES = 520
"""The most lines a page may have: the issue's "about 500", with room for a table's new row."""

ONE_ARGUMENT = (
    "a design report is one argument for its designer: each finding beside the experiments "
    "stated before they were run and the commands behind them"
)
LONG_PAGES = {
    "docs/lab.md": "the designer's one reference of the lab: every command, what it answers "
    "and how far its results can be trusted, each a section a designer looks up by name",
    "docs/design/squad-combat.md": ONE_ARGUMENT,
    "docs/design/erosion.md": ONE_ARGUMENT,
}
"""The pages allowed past PAGE_LINES, each with the reason its reader would accept."""


def _lines(page: str) -> int:
    """How many lines `page` (relative to the repository) has."""
    return len((ROOT / page).read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("page", [page for page in PAGES if page not in LONG_PAGES])
def test_a_page_is_short_enough_to_be_read(page):
    """A page has at most about 500 lines unless LONG_PAGES gives the reason its reader would
    accept; a page that outgrows that is split by its readers' questions."""
    lines = _lines(page)
    assert lines <= PAGE_LINES, (
        f"{page} has {lines} lines, more than {PAGE_LINES}: split it where its readers' "
        "questions divide it, or name it in LONG_PAGES with the reason"
    )


@pytest.mark.parametrize("page", sorted(LONG_PAGES))
def test_a_page_allowed_to_be_long_is_long(page):
    """Each page LONG_PAGES names exists and needs its leave, so the list cannot go stale."""
    assert page in PAGES, f"{page} is no page of the docs"
    assert _lines(page) > PAGE_LINES, f"{page} is {_lines(page)} lines: drop it from LONG_PAGES"


@pytest.mark.parametrize(
    "text",
    [
        "--db sqlite:////root/ladder/s51/fd501.db",
        "MEEPLE_CACHE_DIR=/tmp/proofcache meeple solve",
        "/home/you/.local/share/meeple",
        "cd /work/tc-ahead && make",
        "Until session 47 it was the heuristic",
        "the session-46 note",
        "fixed in round 12 of the work",
        "started 11:11 UTC",
        "before (commit 9a08cb4) and after",
        "Commits 704f5af, a3729f7",
    ],
)
def test_the_diary_patterns_catch_what_the_docs_used(text):
    assert diary_lines(text)


@pytest.mark.parametrize(
    "text",
    [
        "ends in round 1 and 95% by round 5",
        "32 rounds of three staged choices",
        "`--db sqlite:///results/ladder.db`",
        "~/.cache/meeple/solver",
        "docs/web/lobby-desktop.png",
        "the `/play/{match}` page",
        "issue #28's item 1",
        "a commitment to the seed (its hash, 64 hex digits)",
    ],
)
def test_the_diary_patterns_leave_game_rounds_and_relative_paths_alone(text):
    assert not diary_lines(text)


IMAGE = re.compile(
    r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # ![alt](path "title")
    r"|<img\s[^>]*src=\"([^\"]+)\""  # <img src="path">
)


def _image_links() -> list[str]:
    """Every relative image link of README.md and docs/**/*.md, as 'page -> target path'."""
    links = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for match in IMAGE.finditer(page.read_text(encoding="utf-8")):
            target = (match.group(1) or match.group(2)).split("#")[0].split("?")[0]
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # a web address or data: URL, not a file of the repository
            path = (page.parent / target).resolve().relative_to(ROOT).as_posix()
            links.append(f"{page.relative_to(ROOT).as_posix()} -> {path}")
    return links


SCREENSHOTS = [
    f"docs/web.md -> docs/web/{name}-{form}.png"
    for name in (
        "lobby",
        "replay",
        "rules",
        *(
            f"{kind}{game}"
            for game in ("edges", "erd", "erosion", "triangle-clock", "squad-combat")
            for kind in ("", "hint-", "review-", "tutorial-")
        ),
    )
    for form in ("desktop", "phone")
]
"""What `make screenshots` makes and docs/web.md shows: every page, and every game's hint and
review, at both sizes."""
KNOWN_IMAGES = [*SCREENSHOTS, "docs/erd-solved.md -> docs/erd-solved-lengths.png"]
"""Image links the finder must see: the screenshot tables and the Erd length plot."""
IMAGE_BYTES = 100_000
"""The most an image a doc shows may take (tests/web/shots.py: SHOT_BYTES)."""
PENDING_IMAGES: dict[str, str] = {}
"""Image links not yet tracked, each with why (xfail strict: the mark goes once it lands)."""


@functools.cache
def _tracked_files() -> frozenset[str] | None:
    """The files git tracks in this checkout, or None where there is no git checkout."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return frozenset(listing.stdout.decode("utf-8").split("\0")) - {""}


@pytest.mark.parametrize("link", _pending(PENDING_IMAGES, _image_links()))
def test_every_image_a_doc_shows_is_in_the_repository(link):
    """An image a doc links to is a file of the repository (tracked by git, not only built
    here by `make screenshots`), so it shows on a fresh clone and on the forge."""
    path = link.split(" -> ")[1]
    tracked = _tracked_files()
    present = (ROOT / path).is_file() if tracked is None else path in tracked
    assert present, f"{link}: no such file in the repository"
    # Small, as issue #55 asks (about 100 KB at most): `make screenshots` keeps them so.
    size = (ROOT / path).stat().st_size
    assert size <= IMAGE_BYTES, f"{link}: {size:,} bytes, over {IMAGE_BYTES:,}"


def test_the_image_links_found_include_the_known_ones():
    """The link finder sees the screenshot tables and the plot (else the test above is empty),
    and docs/web.md shows every screenshot, each game's hint and review included."""
    links = _image_links()
    assert set(PENDING_IMAGES) <= set(links)
    assert not set(KNOWN_IMAGES) - set(links), sorted(set(KNOWN_IMAGES) - set(links))


LINK = re.compile(r"\]\(([^)\s#]*\.md)?#([^)\s]+)\)")


def heading_anchors(text: str) -> set[str]:
    """The anchors a forge gives the headings of a Markdown text (GitHub's rule: lower case,
    punctuation dropped but for hyphens and underscores, each space a hyphen)."""
    anchors = set()
    for line in text.splitlines():
        match = re.match(r"#{1,6}\s+(.*?)\s*#*$", line)
        if match:
            anchors.add(re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-"))
    return anchors


def _section_links() -> list[str]:
    """Every link of README.md and docs/*.md to a heading of a page, as 'page -> file#anchor'."""
    links = []
    for page in PAGES:
        for match in LINK.finditer((ROOT / page).read_text(encoding="utf-8")):
            target = ROOT / page if not match.group(1) else (ROOT / page).parent / match.group(1)
            path = target.resolve().relative_to(ROOT).as_posix()
            links.append(f"{page} -> {path}#{match.group(2)}")
    return sorted(set(links))


@pytest.mark.parametrize("link", _section_links())
def test_every_link_to_a_section_finds_its_heading(link):
    """A link to a section of a page (`agents.md#levels-...`) lands on a heading of it."""
    path, anchor = link.split(" -> ")[1].split("#", 1)
    assert (ROOT / path).is_file(), f"{link}: no such page"
    assert anchor in heading_anchors((ROOT / path).read_text(encoding="utf-8")), link


def test_heading_anchors_follow_the_forges_rule():
    text = "## Levels: the opponents `meeple play` offers\n## 3x3 (4/4/4)\n### The issue's rungs"
    assert heading_anchors(text) == {
        "levels-the-opponents-meeple-play-offers",
        "3x3-444",
        "the-issues-rungs",
    }


LAB_COMMAND = re.compile(
    r"^ {4}(?:\.venv/bin/)?(meeple (?:simulate|compare|design) .*)$"  # a command block's line
    r"|`(?:\.venv/bin/)?(meeple (?:simulate|compare|design) [^`]*)`",  # one in the text
    flags=re.M,
)


def _design_report_commands() -> list[str]:
    """Every `meeple simulate`, `compare` and `design` command the design reports give for
    their figures, as 'page: command' (an inline one wrapped over lines joined again; a
    sketch with '...' left out)."""
    found = []
    for page in sorted((ROOT / "docs" / "design").glob("*.md")):
        for match in LAB_COMMAND.finditer(page.read_text(encoding="utf-8")):
            command = " ".join((match.group(1) or match.group(2)).split())
            if "..." not in command:
                found.append(f"{page.relative_to(ROOT).as_posix()}: {command}")
    return sorted(set(found))


class _Reached(Exception):
    """Raised where a lab command would start playing: its run is set up."""


@pytest.mark.parametrize("command", _design_report_commands())
def test_a_design_reports_command_runs_as_written(command, tmp_path, monkeypatch):
    """A designer who copies a report's command gets its run, not a refused flag: every lab
    command in docs/design/*.md parses and sets up its runs (seats, options, variants) up to
    the point of playing, which is stopped there (its folders and database sent to tmp_path).
    `--players N` stands for each count; 2 is tried."""
    from typer.testing import CliRunner

    from meeple.interfaces import compare_cli, design_cli, lab_cli
    from meeple.interfaces.cli import app

    def reached(spec, *args, **kwargs):
        raise _Reached(spec.key)

    for module in (lab_cli, compare_cli, design_cli):
        monkeypatch.setattr(module, "play_run", reached)
    args = shlex.split(command.split(": ", 1)[1])[1:]
    args = ["2" if arg == "N" else arg for arg in args]
    if "--out" in args:
        at = args.index("--out")
        del args[at : at + 2]
    args += ["--out", str(tmp_path / "out"), "--db", f"sqlite:///{tmp_path / 'runs.db'}"]
    result = CliRunner().invoke(app, args)
    assert isinstance(result.exception, _Reached), f"{command}\n{result.output}"


@pytest.mark.parametrize(
    "script",
    sorted(
        {
            name
            for page in (ROOT / "docs" / "design").glob("*.md")
            for name in re.findall(r"benchmarks/\w+\.py", page.read_text(encoding="utf-8"))
        }
    ),
)
def test_a_benchmark_a_design_report_runs_starts(script):
    """A script a design report gives for its figures (`benchmarks/erosion_seats.py RUN`)
    starts and shows its usage: its imports are meeple's as it is now."""
    done = subprocess.run(
        [sys.executable, str(ROOT / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"{script}:\n{done.stderr[-2000:]}"
    assert "usage:" in done.stdout, done.stdout
