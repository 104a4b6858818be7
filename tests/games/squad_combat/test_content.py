"""Squad Combat content: the cost notation, loading and validation, and the demo content."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import meeple
from meeple.games.squad_combat import ContentError, Cost, load_content
from meeple.games.squad_combat.actions import Drop, Refresh
from meeple.games.squad_combat.content import demo_folder
from meeple.games.squad_combat.rules import SquadCombatGame

from .conftest import CONTENT


# -- the cost notation ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "energy", "dice", "cards"),
    [
        ("<3>", 3, (), 0),
        ("[4]", 0, (4,), 0),
        ("C", 0, (), 1),
        ("<3>[1]", 3, (1,), 0),
        ("[2][4]", 0, (4, 2), 0),
        ("<1>C", 1, (), 1),
        ("<2>[3]C", 2, (3,), 1),
        ("[6][6]CC", 0, (6, 6), 2),
        ("C<1>[2]", 1, (2,), 1),
        ("-", 0, (), 0),
    ],
)
def test_clause_cost_notation_parses_and_prints_back_identically(text, energy, dice, cards):
    """'Energy costs are depicted as a number inside a diamond <X>', dice costs '[X]', card
    costs 'C'; '<3>[1]' and '[2][4]' are the seed's own examples."""
    cost = Cost.parse(text)
    assert (cost.energy, cost.dice, cost.cards) == (energy, dice, cards)
    assert str(cost) == text


def test_cost_notation_tolerates_spaces_and_prints_them_away():
    assert str(Cost.parse(" <3> [1] ")) == "<3>[1]"
    assert Cost.parse("") == Cost.parse("-")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<3>[x]", "cannot read '\\[x\\]'"),
        ("[7]", "a die cost is \\[1\\] to \\[6\\]"),
        ("[0]", "a die cost is \\[1\\] to \\[6\\]"),
        ("<0>", "an energy cost is at least <1>"),
        ("<1><2>", "two energy costs"),
        ("c", "cannot read 'c'"),
        ("3", "cannot read '3'"),
    ],
)
def test_bad_costs_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        Cost.parse(text)


# -- loading and validation -----------------------------------------------------------------
@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the test content that a test may break."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_errors_name_the_file_the_card_and_the_field(folder):
    edit(folder / "cards.toml", 'cost = "<3>[1]"', 'cost = "<3>[9]"')
    with pytest.raises(ContentError) as exc:
        load_content(folder)
    message = str(exc.value)
    assert "cards.toml" in message and "card 'lunge'" in message and "field 'cost'" in message
    assert "a die cost is [1] to [6]" in message


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("characters.toml", "life = 6", "life = 0", "character 'knight', field 'life'"),
        ("characters.toml", "life = 6", "lif = 6", "field 'lif': unknown field"),
        ("characters.toml", 'traits = ["Melee"]', "traits = []", "field 'traits'"),
        ("cards.toml", 'kind = "attack"', 'kind = "spell"', "card 'jab', field 'kind'"),
        ("cards.toml", "hit = 0\ndamage = 2", "damage = 2", "card 'jab', field 'hit'"),
        (
            "cards.toml",
            'timing = "defending"',
            'timing = "attacking"',
            "card 'block', field 'timing'",
        ),
        ("cards.toml", 'effect = "heal"\namount = 3', "amount = 3", "card 'mend', field 'effect'"),
        ("cards.toml", "[jab]", '["Jab Card"]', "not an id"),
        ("decks.toml", "jab = 4", "jabb = 4", "deck 'alpha', field 'cards': no card 'jabb'"),
        ("decks.toml", '"knight", "archer"', '"knight", "archr"', "no character 'archr'"),
        ("decks.toml", "jab = 4", "jab = 0", "deck 'alpha', field 'cards'"),
        # A party of another size than three is said so, not "missing" once per place.
        (
            "decks.toml",
            '"knight", "archer", "sage"',
            '"knight"',
            "deck 'alpha', field 'characters': a party is 3 character ids, left to right; "
            "this one has 1 (got ['knight'])",
        ),
        (
            "decks.toml",
            '"knight", "archer", "sage"',
            '"knight", "archer", "sage", "knight"',
            "field 'characters': a party is 3 character ids, left to right; this one has 4",
        ),
        # A deck of 100,000,000 copies passed the check and hung a simulation.
        ("decks.toml", "jab = 4", "jab = 100000000", "has 100,000,000 copies; a deck holds at"),
        # A free draw card that refills the hand it is played from kept a turn going forever.
        (
            "cards.toml",
            'cost = "<1>"\neffect = "draw"',
            'cost = "-"\neffect = "draw"',
            "card 'study', field 'amount': a draw card that costs no energy or die draws fewer",
        ),
        (
            "cards.toml",
            'cost = "<1>"\neffect = "draw"',
            'cost = "C"\neffect = "draw"',
            "draw at most 1, or give it an energy or die cost",
        ),
        # Strict types: a designer's "6" or true is not read as a number.
        ("characters.toml", "life = 6", 'life = "6"', "character 'knight', field 'life'"),
        ("characters.toml", "life = 6", "life = true", "character 'knight', field 'life'"),
        (
            "cards.toml",
            "hit = 0\ndamage = 2",
            "hit = 0\ndamage = 2.0",
            "card 'jab', field 'damage'",
        ),
    ],
)
def test_each_field_is_checked(folder, file, old, new, expected):
    edit(folder / file, old, new)
    with pytest.raises(ContentError, match=file.replace(".", "\\.")) as exc:
        load_content(folder)
    assert expected in str(exc.value)


@pytest.mark.parametrize(
    ("old", "new", "answer"),
    [
        ("jab = 4", "jabb = 4", "no card 'jabb' in cards.toml (did you mean 'jab'?)"),
        ('"archer"', '"arch"', "no character 'arch' in characters.toml (did you mean 'archer'?)"),
        # Nothing near: the ids, in file order, are what the designer needs next.
        (
            '"sage"',
            '"wizard"',
            "no character 'wizard' in characters.toml; the ids are: knight, archer, sage",
        ),
    ],
)
def test_unknown_ids_suggest_the_nearest_or_list_them(folder, old, new, answer):
    """A typo (or the start of one id) is answered with the id meant, as the command line
    answers a mistyped game or option; an id like none is answered with the list."""
    edit(folder / "decks.toml", old, new)
    with pytest.raises(ContentError) as exc:
        load_content(folder)
    assert str(exc.value).endswith(answer)


def test_the_shipped_content_is_named_so_not_by_its_folder():
    """The package's folder is an installation's path: a message says where a deck was
    looked for without it (a server sends such messages to its clients)."""
    with pytest.raises(meeple.OptionError) as exc:
        meeple.make("squad-combat", decks="iron-lin")
    assert str(exc.value).endswith(
        "no deck 'iron-lin' in the shipped content (did you mean 'iron-line'?)"
    )
    assert "/" not in str(exc.value)


def test_an_unknown_deck_is_answered_with_the_one_meant(folder):
    content = load_content(folder)
    with pytest.raises(ContentError, match=r"no deck 'alpa' .* \(did you mean 'alpha'\?\)"):
        content.deck("alpa")
    with pytest.raises(ContentError, match="; the ids are: alpha, beta"):
        content.deck("gamma")


def test_broken_toml_and_missing_files_are_named(folder, tmp_path):
    (folder / "cards.toml").write_text("[jab\nname = 1")
    with pytest.raises(ContentError, match=r"cards\.toml is not TOML"):
        load_content(folder)
    # A number past Python's 4,300-digit limit was a ValueError out of the loader.
    (folder / "cards.toml").write_text("[jab]\nhit = " + "9" * 5000)
    with pytest.raises(ContentError, match=r"cards\.toml is not readable: a number has too many"):
        load_content(folder)
    (folder / "decks.toml").unlink()
    with pytest.raises(ContentError, match="missing"):
        load_content(folder)
    with pytest.raises(ContentError, match="no such content folder"):
        load_content(tmp_path / "nowhere")
    # One of its files given for the folder: said so, with the folder to give.
    with pytest.raises(ContentError, match=r"cards\.toml: a file, not a content folder; .*--cont"):
        load_content(folder / "cards.toml")


def test_a_bad_content_option_is_an_option_error(folder):
    edit(folder / "characters.toml", "life = 6", "life = -1")
    with pytest.raises(meeple.OptionError, match="character 'knight', field 'life'"):
        meeple.make("squad-combat", content=str(folder))
    with pytest.raises(meeple.OptionError, match="no deck 'gamma'"):
        meeple.make("squad-combat", content=str(CONTENT), decks="alpha,gamma")


def test_decks_are_joined_by_a_slash_as_by_a_comma():
    """'/' works where a comma cannot: a lab variant (--variant decks=a,b was read as two
    option pairs) and an OpenSpiel game string."""
    slashed = meeple.make("squad-combat", decks="shadow-circle/iron-line", players=3)
    commas = meeple.make("squad-combat", decks="shadow-circle,iron-line", players=3)
    assert slashed.deck_keys == commas.deck_keys == ("shadow-circle", "iron-line", "shadow-circle")
    with pytest.raises(meeple.OptionError, match="names no deck; give deck ids joined by '/'"):
        meeple.make("squad-combat", decks="/ , /")


def test_a_designer_points_the_game_at_their_own_folder():
    game = meeple.make("squad-combat", content=str(CONTENT), decks="beta", players=3)
    assert game.deck_keys == ("beta", "beta", "beta")
    assert len(game.new_game(0).decks[2]) == 15


def test_decks_of_different_sizes_are_noted_not_refused(folder):
    assert meeple.make("squad-combat", content=str(folder)).notes() == []
    edit(folder / "decks.toml", "jab = 4", "jab = 5")  # alpha: 21 cards against beta's 20
    game = meeple.make("squad-combat", content=str(folder))
    [note] = game.notes()
    assert "the decks differ in size (alpha 21 cards, beta 20 cards" in note
    assert str(folder) in note
    assert meeple.make("squad-combat", content=str(folder), decks="beta").notes() == []
    assert load_content(folder).deck_notes(("beta", "beta")) == []
    assert meeple.make("squad-combat").notes() == []  # the demo decks: 30 cards each


def test_a_refresh_that_costs_no_energy_is_noted_as_a_turn_without_a_bound(folder):
    """A refresh costs its character's refresh energy, and a turn ends only when every
    player passes: at refresh 0 a player may refresh again and again, so nothing bounds the
    turn. Allowed (the seed prints no minimum), and noted for the characters at the table."""
    edit(folder / "characters.toml", "refresh = 1", "refresh = 0")  # the archer
    game = meeple.make("squad-combat", content=str(folder))
    [note] = game.notes()
    assert note.startswith("archer refreshes its dice for no energy (refresh = 0, in ")
    assert "a turn ends only when every player passes" in note
    state = game.new_game(1)
    for _ in range(300):  # refresh whenever allowed: the archer's costs nothing, ever
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state = state.apply(
            seat, next((a for a in legal if isinstance(a, Refresh | Drop)), legal[0])
        )
    assert state.turn == 1 and not state.is_over
    edit(folder / "characters.toml", "refresh = 3", "refresh = 0")  # the sage too
    [note] = meeple.make("squad-combat", content=str(folder)).notes()
    assert note.startswith("archer and sage refresh their dice for no energy")
    assert meeple.make("squad-combat").notes() == []  # the demo characters all cost energy


# -- the demo content -----------------------------------------------------------------------
def test_demo_content_has_six_characters_and_two_thirty_card_decks():
    content = load_content()
    assert len(content.characters) >= 6
    assert len(content.decks) >= 2
    for deck in content.decks:
        assert deck.size == 30
        assert len(set(deck.characters)) == 3


def test_every_demo_card_is_playable_by_its_decks_party():
    """No dead cards: every card in a demo deck shares a trait with one of its characters."""
    content = load_content()
    for deck in content.decks:
        traits = {
            t
            for c in deck.characters
            for t in content.characters[content.character_index[c]].traits
        }
        for key in deck.cards:
            card = content.cards[content.card_index[key]]
            assert traits & set(card.traits), f"{deck.key}: nobody can perform {key}"


def test_every_demo_cost_prints_back_as_written():
    """The costs in the shipped cards.toml read and print back identically."""
    import tomllib

    raw = tomllib.loads(demo_folder().joinpath("cards.toml").read_text(encoding="utf-8"))
    content = load_content()
    for key, fields in raw.items():
        assert str(content.cards[content.card_index[key]].cost) == fields.get("cost", "-")


def test_an_edited_file_is_read_again(folder):
    """A designer edits a file and makes a new game: the new numbers are used."""
    import os

    assert load_content(folder).characters[0].life == 6
    edit(folder / "characters.toml", "life = 6", "life = 7")
    path = folder / "characters.toml"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert load_content(folder).characters[0].life == 7


def test_the_rules_document_lists_the_demo_content():
    """rules.md shows every demo character and card with its stats as the files have them."""
    rules = meeple.make("squad-combat").rules_markdown()
    content = load_content()
    for ch in content.characters:
        row = (
            f"| {ch.name} | `{ch.key}` | {ch.life} | {ch.energy} | {ch.dice_pool} | "
            f"{ch.refresh} | {'/'.join(ch.traits)} |"
        )
        assert row in rules, row
    for card in content.cards:
        assert f"| {card.name} | `{card.key}` |" in rules and f"`{card.cost}`" in rules
        if card.kind == "attack":
            assert f"hit {card.hit:+d}, damage {card.damage} |" in rules
    for deck in content.decks:
        assert f"**{deck.name}** (`{deck.key}`)" in rules
        for key, copies in deck.cards.items():
            assert f"{content.cards[content.card_index[key]].name} {copies}" in rules


def test_the_check_lists_each_item_s_problem_one_line_each(folder):
    edit(folder / "characters.toml", "life = 6", "life = 0")
    edit(folder / "cards.toml", 'kind = "attack"', 'kind = "spell"')
    edit(folder / "cards.toml", 'cost = "<3>[1]"', 'cost = "<3>[9]"')
    problems = SquadCombatGame.data_problems("content", folder)
    assert [p.split(": ")[1].split(", field")[0] for p in problems] == [
        "character 'knight'",
        "card 'jab'",
        "card 'lunge'",
    ], problems
