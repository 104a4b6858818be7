"""``Game.max_decisions``: the most decisions the rules allow one game (OpenSpiel's
``max_game_length``). Each bound is checked both ways: no game is longer,
and games that take every extra decision the rules offer reach it exactly, so a bound
that is too large fails as surely as one too small."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from meeple.core.registry import make
from meeple.games.edges.pieces import TakeOver
from meeple.games.triangle_clock.rules import MULLIGAN

Choose = Callable[[Any, int, random.Random], Any]


def at_random(state: Any, seat: int, rng: random.Random) -> Any:
    """Any legal move."""
    return rng.choice(state.legal_actions(seat))


def taking_over(state: Any, seat: int, rng: random.Random) -> Any:
    """Edges: the pie rule's take-over whenever it is offered (the one extra move)."""
    legal = state.legal_actions(seat)
    return next((a for a in legal if isinstance(a, TakeOver)), None) or rng.choice(legal)


def mulliganing(state: Any, seat: int, rng: random.Random) -> Any:
    """The Triangle Clock: every Mulligan, each a choice more, seat 0 first and seat 1 only
    once seat 0 has none left (two at once would be one decision)."""
    legal = state.legal_actions(seat)
    ahead = seat > 0 and MULLIGAN in state.legal_actions(0)
    return MULLIGAN if MULLIGAN in legal and not ahead else rng.choice(legal)


def holding(state: Any, seat: int, rng: random.Random) -> Any:
    """Erd, original rules: never a card on Rush, so no game is decided before its round
    limit (the rules' own example of play that cycles)."""
    legal = state.legal_actions(seat)
    return rng.choice([a for a in legal if a.rush.total == 0] or legal)


def decisions(game: Any, seed: int, choose: Choose) -> int:
    """The decisions of one game as OpenSpiel counts them: each time seats are asked, one
    decision, however many of them choose at once."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    count = 0
    while not state.is_over:
        count += 1
        for seat, action in [(p, choose(state, p, rng)) for p in state.to_act]:
            state = state.apply(seat, action)
    return count


@pytest.mark.parametrize(
    ("name", "options", "choose", "games"),
    [
        ("edges", {"board": "2x2"}, taking_over, 5),
        ("edges", {"board": "2x2", "pie": False}, at_random, 5),
        ("edges", {"board": "2x3", "double": True, "stash": "1/1/1"}, taking_over, 5),
        ("erd", {"best_of": 1, "round_limit": 3, "rules": "original"}, holding, 5),
        ("erd", {"best_of": 3, "round_limit": 2, "rules": "original"}, holding, 3),
        (
            "erd",
            {"best_of": 3, "round_limit": 2, "rules": "original", "match_draws": "replay"},
            holding,
            3,
        ),
        ("triangle-clock", {}, mulliganing, 3),
        ("triangle-clock", {"items": "all/all"}, mulliganing, 3),
        ("triangle-clock", {"items": "none/none"}, at_random, 3),
    ],
    ids=lambda v: v.__name__ if callable(v) else None,
)
def test_the_bound_is_reached_by_games_that_take_every_extra_decision(
    name: str, options: dict[str, Any], choose: Choose, games: int
) -> None:
    game = make(name, **options)
    most = game.max_decisions()
    assert most is not None
    assert [decisions(game, seed, choose) for seed in range(games)] == [most] * games


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("edges", {"board": "2x2"}),
        ("edges", {"board": "2x3", "double": True, "stash": "1/1/1"}),
        ("erd", {"best_of": 3, "round_limit": 2, "match_draws": "replay"}),
        ("erd", {"best_of": 1, "round_limit": 3, "rules": "0.01"}),
        ("triangle-clock", {"items": "all/all"}),
    ],
)
def test_no_random_game_is_longer_than_the_bound(name: str, options: dict[str, Any]) -> None:
    game = make(name, **options)
    most = game.max_decisions()
    assert most is not None
    games = 10 if name == "triangle-clock" else 200
    lengths = [decisions(game, seed, at_random) for seed in range(games)]
    assert max(lengths) <= most


def test_the_bound_follows_the_options() -> None:
    """Read from the options each time: the board and stash, the pie rule, the match and
    the round limit, the items each seat holds."""
    assert make("edges").max_decisions() == 31  # 30 pyramids and a take-over
    assert make("edges", pie=False).max_decisions() == 30
    assert make("edges", double=True).max_decisions() == 61
    assert make("erd").max_decisions() == 5 * 200
    assert make("erd", match_draws="replay", best_of=7, round_limit=10).max_decisions() == 140
    assert make("triangle-clock").max_decisions() == 2 + 96 + 2  # Tock's two Mulligans
    assert make("triangle-clock", items="none/none").max_decisions() == 98


def test_a_game_whose_rules_give_no_bound_says_so() -> None:
    """Squad Combat ends by its rules and its turn limit, and a designer's cards could
    loop within a turn: None, not a made-up number. (Erosion's bound:
    tests/games/erosion/test_max_decisions.py.)"""
    assert make("squad-combat").max_decisions() is None
