"""Erosion's ``cards`` option: a designer's card file instead of the shipped ``cards.json``."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.errors import FileOptionRefused, OptionError
from meeple.core.record import refuse_file_options
from meeple.games.erosion.rules import ErosionGame
from tests.designer_edits import cards_as_toml

SHIPPED = json.loads(
    resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")
)


def _write(tmp_path: Path, edit: Any = None, name: str = "cards.json") -> Path:
    data = json.loads(json.dumps(SHIPPED))
    if edit:
        edit(data["cards"])
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def _moves(game: ErosionGame, seed: int, limit: int = 400) -> list[list[int]]:
    """The legal action ids before each move of a random game (moves by index, seeded)."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    seen = []
    while not state.is_over and len(seen) < limit:
        seat = state.to_act[0]
        legal = state.legal_action_ids(seat)
        seen.append(legal)
        state = state.apply(seat, game.action_from_id(legal[rng.randrange(len(legal))]))
    return seen


def test_the_shipped_cards_are_the_default_and_a_copy_plays_identically(tmp_path):
    shipped = meeple.make("erosion")
    assert shipped.options.cards is None
    assert meeple.make("erosion", cards="default").options.cards is None
    copy = meeple.make("erosion", cards=str(_write(tmp_path)))
    assert copy.catalog.cards == shipped.catalog.cards
    for seed in range(3):
        assert _moves(copy, seed) == _moves(shipped, seed)


def test_an_edited_card_changes_play(tmp_path):
    """Frost Wedging (WX01: weather 3 rocks up to hardness 8) cut to 1 rock up to 3."""

    def weaker(cards: list[dict[str, Any]]) -> None:
        cards[0]["process"].update(n=1, max_hardness=3)

    shipped = meeple.make("erosion")
    edited = meeple.make("erosion", cards=str(_write(tmp_path, weaker)))
    wx01 = edited.catalog.index["WX01"]
    assert (edited.catalog.n[wx01], edited.catalog.max_hardness[wx01]) == (1, 3)
    assert shipped.catalog.n[wx01] == 3
    differ = [seed for seed in range(10) if _moves(edited, seed) != _moves(shipped, seed)]
    assert differ, "the weaker card never changed a legal move in ten games"


def test_a_toml_card_file_reads_as_the_json_one(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(cards_as_toml(SHIPPED["cards"]), encoding="utf-8")
    assert meeple.make("erosion", cards=str(path)).catalog.cards == (
        meeple.make("erosion").catalog.cards
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda cs: cs[0]["process"].update(n=0), r"card WX01, field process\.n: must be at"),
        (lambda cs: cs[50].update(rock="granit"), r"card H51, field rock: .*'granite'.*granit"),
        (
            lambda cs: cs.pop(0),
            "the card file has 37 WX cards; a card file holds the seed's 38: change cards",
        ),
        # An unknown field lists the fields of the object it was given in.
        (
            lambda cs: cs[0].update(dammage=2),
            r"card WX01, field dammage: unknown field; the fields are: id, deck, rock, mohs,",
        ),
        (
            lambda cs: cs[0]["process"].update(count=2),
            r"card WX01, field process\.count: unknown field; the fields are: name, kind, n,",
        ),
        # Left out: "missing", not Python's None or pydantic's "Field required".
        (lambda cs: cs[3].pop("deck"), r"card WX04, field deck: must be WX, H, F or ATM, missing"),
        (lambda cs: cs[3].pop("mohs"), r"card WX04, field mohs: missing \(got"),
    ],
)
def test_a_broken_card_file_names_the_file_the_card_and_the_field(tmp_path, edit, message):
    path = _write(tmp_path, edit)
    with pytest.raises(OptionError, match=f"option 'cards' of erosion: {path}: {message}"):
        meeple.make("erosion", cards=str(path))


def test_a_missing_or_unreadable_card_file_is_one_line(tmp_path):
    with pytest.raises(OptionError, match=r"nope\.json: no such card file"):
        meeple.make("erosion", cards=str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(OptionError, match=r"bad\.json: the card file is not JSON"):
        meeple.make("erosion", cards=str(bad))


def test_a_card_file_edited_in_place_is_read_again(tmp_path):
    path = _write(tmp_path)
    assert meeple.make("erosion", cards=str(path)).catalog.n[0] == 3
    data = json.loads(path.read_text())
    data["cards"][0]["process"]["n"] = 2
    path.write_text(json.dumps(data))
    game = meeple.make("erosion", cards=str(path))
    assert game.catalog.n[0] == 2
    assert game.options.content_digests()["cards"] == game.catalog.stamp


def test_a_card_file_named_by_a_record_or_a_client_is_refused(tmp_path):
    """A path in a record would make meeple read a file its user never chose."""
    options = {"cards": str(_write(tmp_path))}
    with pytest.raises(FileOptionRefused, match="option 'cards' in a record names a file"):
        refuse_file_options("erosion", options, "a record", "name it yourself")
    refuse_file_options("erosion", options, "a record", "", typed=["cards"])  # typed: theirs
