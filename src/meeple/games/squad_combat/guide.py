"""What the player's rules (``player_rules.md``) fill in for Squad Combat: the decks at the
table and the tables of their characters and cards, drawn from the game's content so that
they follow the ``content`` and ``decks`` options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.options import option_text

if TYPE_CHECKING:
    from meeple.games.squad_combat.content import Card
    from meeple.games.squad_combat.rules import SquadCombatGame


def _cell(text: str) -> str:
    # Content is a designer's text: a bar would end a table cell early.
    return text.replace("|", "\\|").replace("\n", " ")


def _does(card: Card) -> str:
    if card.kind == "attack":
        return f"hit {card.hit:+d}, damage {card.damage}"
    timing = f" ({card.timing})" if card.kind == "edge" and card.timing else ""
    return f"{card.effect} {card.amount}{timing}"


def guide_values(game: SquadCombatGame) -> dict[str, str]:
    """``decks_text``, ``characters_table``, ``cards_table``, ``others_react`` and
    ``first_name``."""
    content = game.content
    seats = []
    for seat, key in enumerate(game.deck_keys):
        deck = content.deck(key)
        party = ", ".join(content.characters[i].name for i in content.party(key))
        seats.append(f"- **{game.seat_name(seat)}** plays {_cell(deck.name)}: {_cell(party)}.")
    used_characters = sorted({i for party in game.parties for i in party})
    characters = [
        "| character | Life | Energy | Dice Pool | Refresh | traits |",
        "|---|---|---|---|---|---|",
    ]
    for i in used_characters:
        ch = content.characters[i]
        characters.append(
            f"| {_cell(ch.name)} | {ch.life} | {ch.energy} | {ch.dice_pool} | <{ch.refresh}> "
            f"| {_cell(' / '.join(ch.traits))} |"
        )
    used_cards = sorted({i for deck in game.decklists for i in deck})
    cards = ["| card | kind | traits | cost | does |", "|---|---|---|---|---|"]
    for i in used_cards:
        card = content.cards[i]
        cards.append(
            f"| {_cell(card.name)} | {card.kind} | {_cell(' / '.join(card.traits))} | "
            f"`{card.cost}` | {_cell(_does(card))} |"
        )
    first = game.options.first
    return {
        "decks_text": "\n".join(seats),
        "characters_table": "\n".join(characters),
        "cards_table": "\n".join(cards),
        "others_react": (
            ", then every other player" if game.options.edge_windows == "anytime" else ""
        ),
        "first_name": option_text(first) if first == "random" else game.seat_name(first),
    }
