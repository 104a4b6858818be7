"""The card list the browser draws hands and wounds from (views name cards by id only)."""

from __future__ import annotations

import json

from tests.games.squad_combat.conftest import make


def test_card_list_names_every_card_of_the_content_with_its_cost_as_written() -> None:
    # The page has nothing else to draw a card with: a missing card or a cost reprinted in
    # another form would show a player a different card from the one in their hand.
    game = make()
    listed = {entry["id"]: entry for entry in game.card_list()}
    assert list(listed) == [card.key for card in game.cards]
    assert listed["blast"]["cost"] == "<2>[3]C"
    assert listed["rest"]["cost"] == "-"
    assert listed["lunge"] | {"text": None} == {
        "id": "lunge",
        "name": "Lunge",
        "kind": "attack",
        "traits": ["Melee"],
        "cost": "<3>[1]",
        "hit": 1,
        "damage": 3,
        "effect": None,
        "amount": None,
        "timing": None,
        "text": None,
    }
    assert listed["block"]["timing"] == "defending"
    assert listed["block"]["effect"] == "defense"
    assert listed["mend"]["text"] == game.cards[game.content.card_index["mend"]].describe()
    json.dumps(game.card_list())  # served as JSON as it is
