"""The board as text (``Game.render_text``: the game page's "Board as text") shows a seat
only what it may see: the same text for the true state and for every state re-dealt by
``state.determinize(seat, rng)``, which changes only what that seat cannot know. A
spectator knows less than any seat, so its text holds for every seat's re-deal."""

from __future__ import annotations

import random

import pytest

from meeple.core.registry import games, make

# Each game's defaults, and a configuration that hides more from a person's screen.
CONFIGS = [(info.name, {}) for info in games()] + [("triangle-clock", {"notes": "forbidden"})]


def positions(game, count, seed):
    """``count`` positions drawn from random games, played to their end: the start, the
    middle of a simultaneous decision, the end."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_game(rng.randrange(2**31))
        seen = [state]
        while not state.is_over and len(seen) < 400:
            seat = rng.choice(state.to_act)
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
            seen.append(state)
        found += rng.sample(seen, min(len(seen), 4))
    return found[:count]


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=lambda c: str(c))
def test_text_for_a_seat_is_the_same_for_every_deal_it_cannot_tell_apart(name, options):
    game = make(name, **options)
    rng = random.Random(7)
    for state in positions(game, 8, seed=len(name) + len(options)):
        spectator = game.render_text(state, None)
        assert spectator.strip()
        for seat in range(game.num_players):
            text = game.render_text(state, seat)
            assert text.strip()
            # Box-drawing characters are read aloud one by one: ASCII in their place.
            assert not any("\u2500" <= c <= "\u257f" for c in text)
            for _ in range(3):
                twin = state.determinize(seat, rng)
                assert game.render_text(twin, seat) == text, f"seat {seat} sees a hidden part"
                assert game.render_text(twin, None) == spectator, "a spectator sees a hidden part"
