"""The compiled Squad Combat rules (:mod:`meeple.games.squad_combat.compiled`) against the engine.

One set of rules: the readable engine is the reference, and the compiled copy must agree
with it on every state, every list of legal actions and every outcome of random games, over
every option, 2 to 4 players, the demo content, the rules tests' content and a content made
for the rare paths (``content_rare``: a card its own cost left without a target, effects with
nothing left to act on, draws from an empty deck and pile, a stalemate).

Chance follows the engine exactly: the engine's random streams are recorded as it plays
(every draw of a die or a shuffle goes through ``Random._randbelow``) and handed to the
compiled rules as a tape. The differential test is marked ``fuzz``: ``make fuzz``
(``MEEPLE_FUZZ=long``) plays twenty times as many games.
"""

from __future__ import annotations

import os
import random
import shutil
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

import meeple
from meeple.core.rng import derive_seed
from meeple.games.squad_combat import edits
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled import rules as fast
from tests.compiled_versions import compiled_versions
from tests.designer_edits import edited_games

from .conftest import CONTENT

RARE = str(Path(__file__).parent / "content_rare")
LONG = 20 if os.environ.get("MEEPLE_FUZZ") == "long" else 1

VARIANTS: list[tuple[dict, int]] = [
    ({}, 12),
    ({"players": 3}, 6),
    ({"players": 4, "lead": "rotate", "first": 2}, 4),
    ({"content": str(CONTENT)}, 10),
    ({"content": str(CONTENT), "players": 3, "end_draws": "all-at-once"}, 4),
    ({"content": str(CONTENT), "players": 4, "reactions": "attacker-first"}, 3),
    ({"content": str(CONTENT), "reaction_prompts": "always", "hand_size": 3}, 6),
    ({"edge_windows": "own", "decks": "shadow-circle"}, 6),
    ({"auto_steps": False, "end_draws": "all-at-once"}, 6),
    ({"content": RARE, "turn_limit": 15}, 10),
    ({"content": RARE, "players": 3, "hand_size": 12, "turn_limit": 20}, 4),
    ({"content": RARE, "decks": "alpha,null", "edge_windows": "own", "turn_limit": 12}, 6),
    ({"content": RARE, "decks": "null"}, 4),
]
"""Each variant with its number of games: 81 games, about 38,000 states in all."""

RARE_EVENTS = {
    "fizzle": "has no target left",
    "no effect": "nothing left to act on",
    "empty draw": "draws 0 cards",
    "stalemate": "(stalemate)",
    "turn limit": "reached (safeguard)",
    "reshuffle": "shuffles",
    "removal": "is removed",
    "win": "last player with a character alive",
}


class _Recording(random.Random):
    """A random stream that writes down every draw it makes (all of them pass here)."""

    draws: ClassVar[list[int]] = []

    def _randbelow(self, n: int) -> int:
        value = random.Random._randbelow_with_getrandbits(self, n)  # type: ignore[attr-defined]
        self.draws += (n, value)
        return value


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The draws of the engine's random events (dice refreshes, reshuffles) as it plays,
    each as the range it was drawn below and the value drawn."""
    draws: ClassVar[list[int]] = []
    _Recording.draws = draws
    monkeypatch.setattr(edits, "make_rng", lambda seed, *keys: _Recording(derive_seed(seed, *keys)))
    return draws


def play_both(game, seed: int, rng: random.Random, draws: list[int], seen: Counter) -> None:
    """One random game through the engine and the compiled rules side by side, comparing
    the seat to act, the legal actions and the whole state after every action."""
    g = fast.game_array(game)
    moves = fast.moves_buffer()
    state = game.new_game(seed)
    array = fast.encode(state)
    while True:
        seat = state.to_act[0] if state.to_act else -1
        assert fast.to_act(array, g) == seat
        legal = [game.action_id(a) for a in state.legal_actions(seat)] if seat >= 0 else []
        count = fast.legal_actions(array, g, moves)
        assert moves[:count].tolist() == legal, state.position()
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        draws.clear()
        state = state._next(seat, game.action_from_id(action))
        tape = np.array([1, *draws], dtype=np.int32)
        fast.apply(array, g, action, tape)
        assert tape[0] == len(tape), "the compiled rules drew other chance than the engine"
        assert array.tolist() == fast.encode_list(state), state.position()
        for line in state.log[-3:]:
            seen.update(name for name, text in RARE_EVENTS.items() if text in line)
    assert state.is_over
    assert array[fr.S_WINNER] == (-1 if state.winner is None else state.winner)
    assert fast.decode(game, array, state.seed) == replace(state, log=())


def _name(options: dict) -> str:
    return ",".join(f"{k}={Path(str(v)).name}" for k, v in options.items()) or "default"


@pytest.mark.fuzz
@pytest.mark.parametrize(("options", "games"), VARIANTS, ids=[_name(o) for o, _ in VARIANTS])
def test_compiled_rules_agree_with_the_engine_on_every_state(
    options: dict, games: int, recorded: list[int]
) -> None:
    game = meeple.make("squad-combat", **options)
    rng = random.Random(7)
    seen: Counter = Counter()
    for seed in range(games * LONG):
        play_both(game, seed, rng, recorded, seen)
    if options.get("decks") == "null":
        assert seen["stalemate"] == games * LONG
    elif options.get("content") == RARE and options.get("players") == 3:
        # The rare paths are reached, so the agreement above covers them.
        assert seen["fizzle"] and seen["no effect"] and seen["empty draw"] and seen["turn limit"], (
            seen
        )


def test_decode_inverts_encode_along_a_game() -> None:
    game = meeple.make("squad-combat", players=3)
    rng = random.Random(1)
    state = game.new_game(4)
    while not state.is_over:
        assert fast.decode(game, fast.encode(state), state.seed) == replace(state, log=())
        seat = state.to_act[0]
        state = state._next(seat, rng.choice(state.legal_actions(seat)))


def test_random_playouts_are_seeded_and_count_every_game() -> None:
    game = meeple.make("squad-combat", players=3)
    state = game.new_game(0)
    first = fast.playouts(state, 300, seed=3)
    assert len(first) == 4 and sum(first) == 300  # each seat's wins, then draws
    assert fast.playouts(state, 300, seed=3) == first
    assert fast.playouts(state, 300, seed=4) != first
    returns = fast.playout(state, seed=5)
    assert sorted(returns) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])


def test_chance_without_a_tape_is_uniform() -> None:
    # The differential test holds every draw's range to the engine's; numba's draws within
    # a range are uniform (six faces, 6,000 rolls: each face 1,000 +- 4.4 sigma).
    counts = Counter(fr.below(fast.NO_TAPE, 6) for _ in range(6000))
    assert sorted(counts) == list(range(6))
    assert all(860 < c < 1140 for c in counts.values()), counts


def test_random_playouts_match_the_engines_odds() -> None:
    # The same uniform policy and fair dice through both: from a position late in a game
    # (a few dozen moves left, seat 0 wins about 65% of random games), seat 0's win rate
    # agrees within sampling error.
    game = meeple.make("squad-combat", content=str(CONTENT))
    rng = random.Random(0)
    state = game.new_game(0)
    for _ in range(449):
        seat = state.to_act[0]
        state = state._next(seat, rng.choice(state.legal_actions(seat)))
    assert not state.is_over
    compiled = fast.playouts(state, 10_000, seed=1)
    engine: Counter = Counter()
    for k in range(400):
        s = replace(state, seed=k)  # fresh dice and reshuffles for each engine game
        while not s.is_over:
            seat = s.to_act[0]
            s = s._next(seat, rng.choice(s.legal_actions(seat)))
        engine[s.winner] += 1
    compiled_rate = compiled[0] / 10_000
    engine_rate = engine[0] / 400
    # The standard error of the difference is about 0.024; four of them is a failure.
    assert abs(compiled_rate - engine_rate) < 0.1, (compiled, engine)


def test_content_beyond_the_compiled_limits_is_refused(tmp_path: Path) -> None:
    for name in ("characters.toml", "cards.toml"):
        (tmp_path / name).write_text((CONTENT / name).read_text())
    (tmp_path / "decks.toml").write_text(
        '[big]\nname = "Big"\ncharacters = ["knight", "archer", "sage"]\n[big.cards]\njab = 70\n'
    )
    game = meeple.make("squad-combat", content=str(tmp_path))
    with pytest.raises(ValueError, match=r"needs 70 cards in one deck; .* at most 64"):
        fast.playouts(game.new_game(0), 1)


def test_a_content_folder_edited_in_place_plays_the_same_through_both(
    tmp_path: Path, recorded: list[int]
) -> None:
    """A designer edits a card while the game made from the folder is still in use (a
    notebook, a server): the game made afterwards, equal to the first by its options,
    gets its own compiled tables, and the first keeps its own."""
    shutil.copytree(CONTENT, tmp_path, dirs_exist_ok=True)
    before = meeple.make("squad-combat", content=str(tmp_path))
    table = fast.game_array(before).copy()
    cards = tmp_path / "cards.toml"
    cards.write_text(cards.read_text().replace("damage = 2", "damage = 4", 1))  # jab
    after = meeple.make("squad-combat", content=str(tmp_path))
    assert after == before  # the options are the same; the content is not
    assert not np.array_equal(fast.game_array(after), table)
    assert np.array_equal(fast.game_array(before), table)
    rng = random.Random(3)
    for seed in range(4):
        play_both(after, seed, rng, recorded, Counter())


@pytest.mark.fuzz
def test_a_designers_edits_in_place_play_the_same_through_both(
    tmp_path: Path, recorded: list[int]
) -> None:
    """Edit after edit of one content folder (tests/designer_edits.py), the games made from
    it kept in use: each content the game accepts plays the same through both rules."""
    rng = random.Random(11)
    made = edited_games("squad-combat", tmp_path, 10 * LONG, rng)
    assert len(made) >= 2 * LONG
    for seed, game in enumerate(made):
        play_both(game, seed, rng, recorded, Counter())


def test_the_act_kernel_compiles_once_for_every_caller() -> None:
    """``act`` is called from Python's ``apply``, ``settle``, random and guided rollouts and
    the batched step with the same argument types: one compiled version (each more costs
    seconds of compiling)."""
    from meeple.envs.vector import MeepleVectorEnv
    from meeple.games.squad_combat.compiled import guided, transitions

    game = meeple.make("squad-combat")
    state = game.new_game(3)
    s, g = fast.encode(state), fast.game_array(game)
    moves = fast.moves_buffer()
    fast.legal_actions(s, g, moves)
    fast.apply(s, g, int(moves[0]))
    fast.playout(state, 1)
    guided.playout(state, 1)
    env = MeepleVectorEnv("squad-combat", num_envs=2)
    _, info = env.reset(seed=0)
    env.step(info["action_mask"].argmax(axis=1))
    assert len(compiled_versions(transitions.act)) == 1
