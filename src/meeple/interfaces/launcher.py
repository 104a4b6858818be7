"""``meeple play`` with no game named: ask which game, its options, the seats and the seed,
checking every answer as it is given."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from rich.markup import escape

from meeple.agents import HUMAN, agent_names, make_agent, parse_spec
from meeple.agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, seat_spec
from meeple.core.errors import MeepleError
from meeple.core.game import seat_text
from meeple.core.options import describe_options, option_applies
from meeple.core.registry import game_class, games, make
from meeple.core.words import listed
from meeple.interfaces.console import console, preparing_agents
from meeple.interfaces.options_cli import flag


class Quit(Exception):
    """The person at the prompt asked to stop (quit, or end of input)."""


QUIT_WORDS = ("quit", "exit", "q")
"""What a person types to stop at any question."""


def typed(name: str) -> str:
    """An option's name as a person types it, its flag's: ``best-of`` for ``best_of``."""
    return flag(name).removeprefix("--")


def default_text(value: Any) -> str:
    """A default as a person would type it (``true``, not ``True``); empty for none."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


BROWSER = "browser"
"""The launcher's first choice: play in the browser (the server and its lobby)."""


def launcher(read: Callable[[str], str]) -> tuple[str, dict[str, Any], list[str], int] | None:
    """Ask which game, which options, who plays each seat, and the seed; None when the
    person chose the browser (the caller starts the server and opens the lobby)."""
    infos = games()
    console.print("[bold]meeple[/]: choose a game. Enter takes the default in brackets.")
    # The browser comes first: its lobby teaches and draws every game, and plays people too.
    console.print(
        "  0. In your browser (browser): every game drawn, against the computer or people"
    )
    for k, info in enumerate(infos, start=1):
        console.print(escape(f"  {k}. {info.title} ({info.name}): {info.players} players"))

    def check(text: str) -> str:
        if text.lower() in ("0", BROWSER):
            return BROWSER
        if not text.isdigit():
            return game_class(text).name
        if not 1 <= int(text) <= len(infos):
            raise MeepleError(f"no game number {text}; type 0 to {len(infos)} or a game's name")
        return infos[int(text) - 1].name

    name = ask(read, "Game (number or name)", default=BROWSER, check=check)
    if name == BROWSER:
        return None
    options = ask_options(read, name)
    g = make(name, **options)
    agents = [n for n in agent_names(g) if n != HUMAN]
    console.print(
        escape(
            f"Who plays each seat: human (you, at this keyboard), the computer at "
            f"{', '.join(LEVEL_NAMES[:-1])} or {LEVEL_NAMES[-1]}, or an agent by name "
            f"({', '.join(agents)}; meeple agents {name} says what each does)."
        )
    )
    specs = []
    for p in range(g.num_players):
        default = HUMAN if p == 0 else DEFAULT_LEVEL

        def check_seat(t: str) -> str:
            spec = seat_spec(g, t)
            parsed = parse_spec(spec)
            if parsed.name != HUMAN:
                # Made now, so a bad spec is asked again at once (Erd's solved agents may
                # solve the rules first: the wait is announced).
                wait = preparing_agents(g, [parsed])
                with console.status(wait) if wait is not None else contextlib.nullcontext():
                    make_agent(spec, g)
            return spec

        question = f"{seat_text(g, p)}: {' / '.join([*LEVEL_NAMES, HUMAN])} / an agent"
        specs.append(ask(read, question, default, check_seat))
    seed_text = ask(read, "Seed (blank for a random one)", default="", check=check_seed)
    seed = int(seed_text) if seed_text else secrets.randbelow(2**31)
    return name, options, specs, seed


def check_seed(text: str) -> str:
    """A seed as typed: a whole number, or a one-line reason."""
    try:
        return str(int(text))
    except ValueError:
        raise MeepleError(f"{text!r} is not a seed; type a whole number, e.g. 7") from None


CHANGE_WORDS = ("change", "c", "yes", "y")
"""What a person types to set a game's options one by one instead of playing the defaults."""


def ask_options(read: Callable[[str], str], name: str) -> dict[str, Any]:
    """The number of players first, where the game has a choice of it; then the other
    options' defaults, shown on one line and kept with Enter; or, asked for, each option in
    turn: a value is checked (by making the game with it and the answers so far) as soon as
    it is typed, and only that question is asked again."""
    cls = game_class(name)
    described = describe_options(cls.Options)
    choices = cls.player_choices()
    chosen: dict[str, Any] = {}
    if choices:
        # Asked outright: a newcomer at a game of 2 to 5 players should not have to find
        # the number among ten options of the rules' readings.
        counts = [str(n) for n in choices]
        default = str(make(name).num_players)

        def check_count(text: str) -> str:
            if text not in counts:
                takes = listed(counts, "or")
                raise MeepleError(f"{cls.title} is not played by {text!r} players: {takes}")
            return text

        text = ask(read, f"Players ({' / '.join(counts)})", default, check_count)
        chosen = dict(choices[int(text)])
        setting = {option for options in choices.values() for option in options}
        described = [o for o in described if o.name not in setting]
    if not described:
        return chosen
    # Two-player Edges is not told of Double Edges' "who starts" among its defaults.
    game_options = make(name, **chosen).options
    in_play = [o for o in described if option_applies(o, game_options)]
    # An option whose default is None (Edges' board, a game's shipped data) is the game's own.
    # Named as the flags and `meeple rules` name them (typed-weathering, not typed_weathering).
    defaults = ", ".join(f"{typed(o.name)}={default_text(o.default) or 'default'}" for o in in_play)
    other = "Other options" if choices else "Options"
    console.print(escape(f"{other}: {defaults} (meeple rules {name} explains them)."))

    def check_change(text: str) -> str:
        if text.lower() in CHANGE_WORDS:
            return "change"
        if text.lower() in ("play", "p", "no", "n"):
            return "play"
        raise MeepleError("type change to set the options, or press Enter to play these")

    if ask(read, "Enter plays these; change sets them", "play", check_change) == "play":
        return chosen
    while True:
        options: dict[str, Any] = dict(chosen)
        console.print("Options (Enter keeps the default):")
        for o in described:
            # Moot after the answers so far (no Advanced Rules: no architecture); the game
            # is made to read the answers only for an option that has a condition.
            if o.applies_when and not option_applies(o, make(name, **options).options):
                continue
            console.print(f"  [dim]{escape(f'{typed(o.name)}: {o.help}')}[/]")
            # As the lobby offers them: a syntax of its own is easier read by example.
            for value, words in o.suggested:
                console.print(f"    [dim]{escape(f'{value}: {words}')}[/]")

            def check(text: str, option: str = o.name, so_far: dict = options) -> str:
                make(name, **so_far, **{option: text})
                return text

            shown = default_text(o.default) or "the game's default"
            text = ask(read, f"  {typed(o.name)} ({o.allowed})", "", check, shown=shown)
            if text:
                options[o.name] = text
        try:
            make(name, **options)
            return options
        except MeepleError as exc:
            # Each answer was good with those before it; one before may not suit a later one.
            console.print(f"[red]{escape(str(exc))}[/]; let us try the options again.")


def ask(
    read: Callable[[str], str],
    question: str,
    default: str,
    check: Callable[[str], Any] | None = None,
    shown: str | None = None,
) -> str:
    """Ask until the answer passes ``check`` (its value, as text, is returned); Enter gives
    ``default``. ``question`` is plain text; the default is shown in brackets (``shown``
    replaces it in the brackets, for a default that is not itself typed)."""
    label = shown if shown is not None else default
    # The prompt is read as Rich markup: escaped, "[3x4]" is shown instead of taken as a tag.
    prompt = escape(f"{question} [{label}]: " if label else f"{question}: ")
    while True:
        try:
            text = read(prompt).strip() or default
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if text.lower() in QUIT_WORDS:
            raise Quit
        if check is None or not text:
            return text
        try:
            value = check(text)
            return str(value) if value is not None else text
        except (MeepleError, ValueError, IndexError) as exc:
            console.print(f"[red]{escape(str(exc) or 'not one of the choices')}[/]")
