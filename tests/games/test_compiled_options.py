"""Every option of every game reaches its compiled twin (``games/<game>/compiled/``): the
twin refuses by name an option it was not written for, and the game's differential test
(``tests/games/<game>/test_fast.py``) plays each option at another value than its default.
So an option added to a game's model fails here, naming the place to change, rather than
being played by the twin's old rule without a word (search, batched environments and the
compiled agents all play the twin)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import create_model

import meeple
from meeple.core.errors import OptionError
from meeple.core.registry import game_class
from meeple.games.edges.compiled import rules as edges
from meeple.games.erd.compiled import rules as erd
from meeple.games.erosion.compiled import rules as erosion
from meeple.games.squad_combat.compiled import rules as squad_combat
from meeple.games.triangle_clock.compiled import rules as triangle_clock

GAMES = [info.name for info in meeple.games()]

TWINS: dict[str, Callable[[Any], object]] = {
    # What each twin builds first from a game's options, and so where it refuses them.
    "edges": edges.layout,
    "erd": erd.tables,
    "erosion": erosion.layout,
    "squad-combat": squad_combat.game_array,
    "triangle-clock": triangle_clock.tables,
}

NOT_PLAYED = {
    # Options the differential test leaves at their default, and why that misses nothing.
    ("edges", "auto_steps"): "no Edges step has a single choice for the engine to take",
    ("erd", "auto_steps"): "no Erd rule reads it: the game never takes a step for a player",
    ("triangle-clock", "auto_steps"): "the game never takes a step for a player",
    ("triangle-clock", "notes"): "what a person's screen shows; no rule reads it",
    ("triangle-clock", "memorise_seconds"): "time for a person; no rule reads it",
    ("triangle-clock", "choice_seconds"): "time for a person; no rule reads it",
    ("erosion", "cards"): "a card file: test_a_designers_cards_play_the_same_through_both",
}


def _package(name: str) -> str:
    return name.replace("-", "_")


@pytest.mark.parametrize("name", GAMES)
def test_a_twin_refuses_an_option_it_was_not_written_for(name: str) -> None:
    assert name in TWINS, (
        f"{name}: name here the function of games/{_package(name)}/compiled/ that first "
        "reads a game's options, and have it refuse options it does not know "
        "(meeple.core.options.unserved_refusal)"
    )
    cls = game_class(name)
    TWINS[name](meeple.make(name))  # every option of the model at its default is served
    house = create_model("HouseRule", __base__=cls.Options, house_rule=(int, 0))
    with pytest.raises((OptionError, ValueError), match=r"do not serve option house_rule;"):
        TWINS[name](cls(house()))


CASES = [
    (name, option)
    for name in GAMES
    for option in game_class(name).Options.model_fields
    if (name, option) not in NOT_PLAYED
]


@pytest.mark.parametrize(("name", "option"), CASES)
def test_the_differential_test_plays_every_option(name: str, option: str) -> None:
    """A variant of the game's ``test_fast.VARIANTS`` sets the option to another value than
    its default, so the twin is compared with the readable rules under it."""
    module = importlib.import_module(f"tests.games.{_package(name)}.test_fast")
    variants = [v[0] if isinstance(v, tuple) else v for v in module.VARIANTS]
    default = game_class(name).Options.model_fields[option].default
    assert any(option in v and v[option] != default for v in variants), (
        f"{name}: no variant of tests/games/{_package(name)}/test_fast.py's VARIANTS sets "
        f"{option} (default {default!r}): add one, so that the compiled twin is played "
        "against the readable rules with it (or name it in NOT_PLAYED here, with why)"
    )


def test_the_exceptions_are_options() -> None:
    for name, option in NOT_PLAYED:
        assert option in game_class(name).Options.model_fields, (name, option)


@pytest.mark.parametrize("name", GAMES)
def test_rules_md_names_every_option(name: str) -> None:
    """The reference rules say what each option does: as a flag (``--hand-size``) or by its
    name in code marks (```typed_weathering```)."""
    cls = game_class(name)
    text = cls.rules_markdown()
    missing = [
        option
        for option in cls.Options.model_fields
        if f"--{option.replace('_', '-')}" not in text and f"`{option}" not in text
    ]
    assert not missing, (
        f"{name}: rules.md never names option {', '.join(missing)} "
        f"(src/meeple/games/{_package(name)}/rules.md: its options or readings)"
    )
