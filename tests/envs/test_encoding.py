"""The ``"view"`` encoder keeps every identifier a seat sees: each string of a view that is not
free text has its one-hot slot, also in games the encoder did not learn from."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from meeple.core.registry import make
from meeple.envs import encoding
from meeple.envs.encoding import encoder_for, general_name, learn_encoder, leaves, random_views

# (game, options, fresh games, the paths left out as free text). Fresh games start at seed
# 900,000: the encoder learns from its own seeds (derive_seed(0, "encoder", ...)).
CASES = [
    ("edges", {}, 6, set()),
    ("edges", {"board": "5x5", "double": True}, 2, set()),
    ("erd", {}, 10, {"last_combat.ending", "result.reason", "result.games[*].detail"}),
    (
        "erd",
        {"rules": "original"},
        6,
        {"last_combat.ending", "result.reason", "result.games[*].detail"},
    ),
    ("erosion", {}, 2, set()),
    ("erosion", {"players": 3}, 1, set()),
    ("triangle-clock", {}, 1, {"last_round.tie_break"}),
    ("triangle-clock", {"items": "all/all"}, 1, {"last_round.tie_break"}),
    ("squad-combat", {}, 1, {"log[*]"}),
    ("squad-combat", {"turn_limit": 8}, 2, {"log[*]"}),
]


def _free_text(encoder):
    """General paths of strings that have a presence slot and no value slot at all."""
    valued = {general_name(path) for path, token in encoder.slots if token != "?"}
    present = {general_name(path) for path, token in encoder.slots if token == "?"}
    return {name for name in present - valued if not name.endswith("#")}


@pytest.mark.parametrize(
    ("game", "options", "games", "free_text"),
    CASES,
    ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o, *_ in CASES],
)
def test_every_identifier_a_seat_sees_has_its_slot(game, options, games, free_text):
    g = make(game, **options)
    encoder = encoder_for(g)
    assert _free_text(encoder) == free_text
    learned = {general_name(path) for path, _ in encoder.slots}
    lost, past_the_end = [], 0
    for view in random_views(g, range(900_000, 900_000 + games)):
        for path, value in leaves(view):
            if not isinstance(value, str) or general_name(path) in free_text:
                continue
            if (path, value) in encoder.slots:
                continue
            if (path, "?") not in encoder.slots and general_name(path) in learned:
                past_the_end += 1  # a list longer than any learned: documented
                continue
            lost.append(f"{general_name(path)}={value}")
    assert not lost, sorted(set(lost))[:10]


def test_a_card_id_and_a_part_s_name_are_told_apart_wherever_they_are():
    """The researcher's cases: an Erosion River card the sample games never put there, an Edges
    first edge and a pyramid on 5x5 double's edge v3,5."""
    encoder = encoder_for(make("erosion"))
    card_ids = {card["id"] for card in make("erosion").card_list() if "process" in card}
    for path in [("river", 0), ("mountains", 0, "rocks", 0), ("deltas", 0, "cards", 0)]:
        assert {token for p, token in encoder.slots if p == path} >= card_ids
    view = make("erosion").new_game(0).view(0)
    view["river"] = ["F85"]
    other = dict(view, river=["F75"])
    assert not np.array_equal(encoder.encode(view), encoder.encode(other))
    edges = make("edges", board="5x5", double=True)
    encoder = encoder_for(edges)
    assert (("edges", "v3,5", "pyramid"), "M") in encoder.slots
    firsts = {token for path, token in encoder.slots if path == ("first_edge",)}
    assert len(firsts - {"?"}) == 60 and firsts >= {"h0,0", "v4,5"}


def test_a_smaller_sample_learns_the_same_words():
    """Vocabularies come from what the game can show, not from what the sample showed."""
    few, usual = learn_encoder(make("edges"), games=2), encoder_for(make("edges"))
    assert {token for path, token in few.slots if path == ("first_edge",)} == {
        token for path, token in usual.slots if path == ("first_edge",)
    }


SQUAD_CONTENT = Path(__file__).parents[1] / "games" / "squad_combat" / "content"


def test_a_content_folder_edited_in_place_is_learned_anew(tmp_path):
    """A researcher renames a card in their content folder and makes the environment again
    in the same process: the encoder learned once per configuration knows the new name
    (the configuration is the options and what the files they name hold)."""
    shutil.copytree(SQUAD_CONTENT, tmp_path, dirs_exist_ok=True)
    before = encoder_for(make("squad-combat", content=str(tmp_path)))
    for name in ("cards.toml", "decks.toml"):
        path = tmp_path / name
        path.write_text(path.read_text().replace("jab", "poke"))
    after = encoder_for(make("squad-combat", content=str(tmp_path)))
    assert {"jab"} <= {token for _, token in before.slots}
    tokens = {token for _, token in after.slots}
    assert "poke" in tokens and "jab" not in tokens


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """A fresh folder for kept encoders, and no encoder remembered by this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    encoding._cached.cache_clear()
    yield tmp_path / "cache" / "meeple" / "encoders"
    encoding._cached.cache_clear()


def _learning_refused(monkeypatch):
    def refuse(game, games=encoding.SAMPLE_GAMES):
        raise AssertionError("learned again instead of reading the kept encoder")

    monkeypatch.setattr(encoding, "learn_encoder", refuse)


def test_an_encoder_learned_once_is_kept_and_read_back_the_same(kept, monkeypatch):
    """Learning plays random games (Squad Combat's four seats: half a minute); a later
    process reads the kept encoder instead, slot for slot the one it would learn."""
    game = make("erosion", players=3)
    learned = encoder_for(game)
    assert [p.suffix for p in kept.iterdir()] == [".json"]
    encoding._cached.cache_clear()  # as a new process
    _learning_refused(monkeypatch)
    again = encoder_for(game)
    assert again == learned and learned.size > 1000
    assert list(again.slots) == list(learned.slots)  # in the same order: the same vector


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # cut short
        lambda text: text.replace('"?"', '"!"', 1),  # a slot changed
        lambda text: text.replace('"check": "', '"check": "0', 1),  # the check changed
        lambda text: "not json",
        lambda text: "[]",
        lambda text: '{"format": "meeple-encoder/0", "check": "", "keys": []}',
    ],
    ids=["cut", "slot", "check", "garbage", "list", "format"],
)
def test_a_kept_encoder_that_fails_its_check_is_learned_again_and_replaced(
    kept, damage, monkeypatch
):
    game = make("edges", board="2x2")
    learned = encoder_for(game)
    (path,) = kept.iterdir()
    path.write_text(damage(path.read_text()))
    encoding._cached.cache_clear()
    assert encoder_for(game) == learned
    encoding._cached.cache_clear()
    _learning_refused(monkeypatch)
    assert encoder_for(game) == learned  # the file was written again, whole


def test_an_encoder_kept_for_other_code_or_options_is_not_read(kept, monkeypatch):
    """The key holds the game, its configuration and a hash of meeple's sources and data:
    an encoder kept by another version, or for other options, is another file."""
    encoder_for(make("edges", board="2x2"))
    encoder_for(make("edges", board="2x3"))
    assert len(list(kept.iterdir())) == 2
    encoding._cached.cache_clear()
    monkeypatch.setattr(encoding, "_sources", lambda: "other code, a later version")
    encoder_for(make("edges", board="2x2"))
    assert len(list(kept.iterdir())) == 3  # learned again; the others may be another checkout's
    # Once a week old, the other version's are removed as the next encoder is kept.
    week_ago = time.time() - encoding.STALE_SECONDS - 60
    for path in kept.iterdir():
        os.utime(path, (week_ago, week_ago))
    encoder_for(make("edges", board="2x3"))
    assert sorted(p.name[:12] for p in kept.iterdir()) == ["other code, "] * 2


def test_a_cache_folder_that_cannot_be_written_keeps_nothing_and_fails_nothing(
    kept, tmp_path, monkeypatch
):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    encoding._cached.cache_clear()
    assert encoder_for(make("edges", board="2x2")).size > 0
