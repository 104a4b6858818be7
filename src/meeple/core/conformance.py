"""Checks every game must pass, whatever its rules: the core contracts, played out.

Each game's test suite runs :func:`check_playthrough` over many seeds. It plays a random game
and checks at every step that the contracts of DESIGN.md hold: legal actions apply, illegal
ones raise and change nothing, notation and integer ids round-trip, views are JSON-safe and
depend only on what the seat may know, and the record replays to the identical final state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from meeple.core.errors import IllegalAction
from meeple.core.game import Game, State
from meeple.core.record import GameRecord, Playthrough


def random_playthrough(game: Game, seed: int, max_steps: int = 100_000) -> Playthrough:
    """Play a game with uniformly random legal actions from a seeded stream."""
    rng = random.Random(seed)
    play = Playthrough(game, seed)
    for _ in range(max_steps):
        if play.state.is_over:
            return play
        # Any seat of a simultaneous decision may submit first: vary the order.
        player = rng.choice(play.state.to_act)
        play.play(player, rng.choice(play.state.legal_actions(player)))
    raise AssertionError(f"{game.name} did not end within {max_steps} actions (seed {seed})")


def check_state(state: State[Any], rng: random.Random) -> None:
    """Contract checks on one state (raises AssertionError naming the broken contract)."""
    game = state.game
    to_act = state.to_act
    assert state.is_over == (not to_act), "is_over must mean nobody is to act"
    for player in range(game.num_players):
        view = state.view(player)
        assert json.loads(json.dumps(view)) == view, f"view({player}) is not JSON-safe"
        if not game.perfect_information:
            sample = state.determinize(player, rng)
            assert sample.view(player) == view, (
                f"determinize({player}) changed what seat {player} sees: the view depends on "
                "something the seat does not know, or determinize forgot something it does"
            )
            # Agents see only what a player sees: two states that look the same to a seat
            # must give the same samples for the same random stream.
            stream = rng.randrange(2**32)
            assert state.determinize(player, random.Random(stream)) == sample.determinize(
                player, random.Random(stream)
            ), (
                f"determinize({player}) depends on hidden parts of the state it was given "
                "(sample the unknown from a canonical order, e.g. sorted, not the true one)"
            )
        legal = state.legal_actions(player)
        if player not in to_act:
            assert not legal, f"seat {player} is not to act but has legal actions"
            continue
        assert legal, f"seat {player} is to act but has no legal action"
        ids = [game.action_id(a) for a in legal]
        assert len(set(ids)) == len(ids), "two legal actions share an integer id"
        for action, action_id in zip(legal, ids, strict=True):
            assert 0 <= action_id < game.num_actions, f"id {action_id} of {action} out of range"
            assert game.action_from_id(action_id) == action, f"id of {action} does not round-trip"
            assert game.parse_action(str(action)) == action, f"{action} does not round-trip"
        # An action that is not legal now must be refused, leaving the state as it was.
        # Sampling ids (rather than listing every illegal one) keeps this cheap for games
        # with large action encodings.
        legal_ids = set(ids)
        candidates = (rng.randrange(game.num_actions) for _ in range(20))
        illegal = next((i for i in candidates if i not in legal_ids), None)
        if illegal is not None:
            before = state.view(player)
            action = game.action_from_id(illegal)
            try:
                state.apply(player, action)
            except IllegalAction as exc:
                assert str(exc), "IllegalAction needs a reason"
            else:
                raise AssertionError(f"{action} is not in legal_actions but was accepted")
            assert state.view(player) == before, "a refused action changed the state"
    json.dumps(state.view(None))
    if state.is_over:
        json.dumps(state.result)
        assert len(state.returns) == game.num_players


def check_playthrough(game: Game, seed: int) -> Playthrough:
    """Play a random game checking every state, then check that its record replays exactly."""
    rng = random.Random(seed ^ 0x5EED)
    play = random_playthrough(game, seed)
    record = GameRecord.from_json(play.record().model_dump_json())
    states = record.states()
    assert states[-1] == play.state, "the record does not replay to the identical final state"
    for state in states:
        check_state(state, rng)
    return play


def check_information_keys(game: Game, seeds: range, samples: int = 2) -> int:
    """A game's own ``information_key`` identifies exactly what its view shows.

    Plays a random game per seed and, at every state and for every seat, compares the key
    with the view as canonical JSON (the default key): states a seat cannot tell apart
    (the state itself and ``samples`` determinizations of it) must share a key, and across
    all the states met, two keys must be equal exactly when the two views are. Returns how
    many (state, seat) pairs were compared.
    """
    rng = random.Random(0xC0DE)
    by_view: dict[tuple[int, str], Any] = {}
    by_key: dict[tuple[int, Any], str] = {}
    pairs = 0
    for seed in seeds:
        for state in random_playthrough(game, seed).record().states():
            for player in range(game.num_players):
                view = json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))
                key = state.information_key(player)
                hash(key)
                twins = [state.determinize(player, rng) for _ in range(samples)]
                assert all(t.information_key(player) == key for t in twins), (
                    f"seed {seed}: a determinization changed seat {player}'s key"
                )
                assert by_view.setdefault((player, view), key) == key, (
                    f"seed {seed}: one view, two keys for seat {player}"
                )
                assert by_key.setdefault((player, key), view) == view, (
                    f"seed {seed}: one key, two views for seat {player}"
                )
                pairs += 1
    return pairs
