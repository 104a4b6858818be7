"""The ``"view"`` encoder keeps every identifier a seat sees: each string of a view that is not
free text has its one-hot slot, also in games the encoder did not learn from."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from meeple.core.registry import make
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
