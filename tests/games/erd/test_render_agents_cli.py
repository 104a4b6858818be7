"""What a person sees: the terminal table, the heuristic agent, and `meeple play erd`."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.registry import game_agents
from meeple.games.erd import ErdState

from .conftest import erd, play_round, position, side

ROOT = Path(__file__).resolve().parents[3]


def rendered(state: ErdState, player: int | None = None) -> str:
    console = Console(record=True, width=140)
    console.print(state.game.render(state, player))
    return console.export_text()


# -- rendering ------------------------------------------------------------------------------
def test_render_shows_reserves_discards_turrets_round_and_the_last_combat_in_words():
    state = play_round(erd().new_game(0), "rush=DDD defense=HHH", "rush=LDD defense=LLD")
    text = rendered(state, 1)
    for words in ("Reserve", "Discard", "Turrets", "round 2", "Last combat: game 1, round 1"):
        assert words in text
    assert "H 0  L 3  D 6" in text and "2 (+2 Defense)" in text
    assert "DDD = 0" in text and "HHH = 9" in text
    assert "Both Defenses held." in text
    assert "Red's Defense exceeded the Rush by 8: 2 defending Heavies become Turrets." in text
    assert "Recovery: Red takes back 3 Decoys; Blue takes back 3 Lights, 3 Decoys." in text
    assert "Blue (seat 1) to allocate for round 2" in text


def test_render_says_why_a_held_defense_made_fewer_turrets_than_it_earned():
    """Each full 3 points earns a Turret, but only a Heavy of the Defense pile can become
    one: the screen says so, and says "every card" is discarded where no Turret stands."""
    none = rendered(play_round(erd().new_game(0), "rush=DDD defense=LLL", "rush=DDD defense=LDD"))
    assert (
        "Red's Defense exceeded the Rush by 3, worth 1 Turret, but its Defense pile held no "
        "Heavy to become one." in none
    )
    assert "Every card in the piles is discarded." in none and "Every other" not in none
    state = position(erd(), side("HHLLLDDDDDD", turrets=1), side("HHHLLLDDDDDD"))
    fewer = rendered(play_round(state, "rush=DDD defense=HLL", "rush=DDD defense=LDD"))
    assert (
        "Red's Defense exceeded the Rush by 6, worth 2 Turrets, but its Defense pile held only "
        "1 Heavy, which becomes a Turret." in fewer
    )
    assert "Every other card in the piles is discarded." in fewer


def test_render_tells_an_escalation():
    state = play_round(erd().new_game(0), "rush=LLL defense=HHH", "rush=LLL defense=HHH")
    assert "All 6 Heavies were discarded: Escalation! Red takes back 1 Heavy, 3 Lights" in (
        rendered(state)
    )


def test_render_counts_the_heavies_of_an_escalation_under_another_reserve():
    """'if all six Heavies are in the discard piles': with a ``reserve`` of two Heavies each
    the screen says all 4 were discarded, as the player's rules do, not six."""
    game = erd(reserve="HHLLLDDDDDD")
    state = play_round(game.new_game(0), "rush=LLL defense=HHD", "rush=LLL defense=HHD")
    assert state.last is not None and state.last.escalation
    assert "All 4 Heavies were discarded: Escalation!" in rendered(state)


def test_render_says_what_was_equal_in_an_exact_tie_by_cards():
    """'If that's tied, whoever has the larger Rush pile wins. On an exact tie there ...':
    under ``rush_tiebreak=cards`` Rushes of 4 and 3 tie on three cards each, and the screen
    says so instead of calling Rushes of 4 and 3 equal."""
    state = play_round(
        erd(rush_tiebreak="cards").new_game(0), "rush=HHD defense=DDD", "rush=HLD defense=LDD"
    )
    assert state.last is not None and state.last.outcome == "exact_tie"
    text = rendered(state)
    assert "Red's Rush (4) beats Blue's Defense (1)." in text
    assert "Blue's Rush (3) beats Red's Defense (0)." in text
    assert "equal Rush + Defense and Rush piles of the same size (3 cards each): an exact" in (
        text.replace("\n", " ")
    )
    assert "and equal Rush:" not in text
    by_value = rendered(
        play_round(erd().new_game(0), "rush=HLD defense=LDD", "rush=HLD defense=LDD")
    )
    assert "equal Rush + Defense and equal Rush: an exact tie." in by_value.replace("\n", " ")


@pytest.mark.parametrize(
    ("rules", "red", "ending"),
    [
        # Red keeps no Heavy and ends with no Light: the 0.01 mercy rule, Blue holding three.
        ("0.01", side("LDDDDD", discard="HHHLL"), "loses by the mercy rule"),
        ("original", None, "The game reached the round limit of 1: a draw by round limit."),
    ],
)
def test_an_exact_tie_in_a_round_that_ends_the_game_does_not_say_the_game_goes_on(
    rules, red, ending
):
    """'On an exact tie there, discard all Rush and Defense cards and the game continues' at
    step 4, whose checks may still end the game in the same round (the mercy rule, the round
    limit): the screen then tells that ending, and not that the game goes on."""
    game = erd(rules=rules, round_limit=1)
    start = game.new_game(0) if red is None else position(game, red, side("HHHLLLDDDDDD"))
    piles = "rush=LDD defense=DDD" if rules == "0.01" else "rush=L defense=-"
    state = play_round(start, piles, piles)
    assert state.last is not None and state.last.outcome == "exact_tie" and state.is_over
    text = " ".join(rendered(state).split())
    assert "an exact tie. All Rush and Defense cards are discarded. Recovery:" in text
    assert "goes on" not in text and ending in text
    going_on = play_round(erd(rules=rules).new_game(0), piles, piles)
    assert "are discarded and the game goes on." in " ".join(rendered(going_on).split())


def test_render_tells_when_one_combat_turrets_are_discarded():
    game = erd(turret_lifetime="one_combat")
    state = position(game, side("HHLLLDDDDDD", turrets=1), side("HHHLLLDDDDDD"))
    text = rendered(play_round(state, "rush=DDD defense=LDD", "rush=LDD defense=LDD"))
    assert "LDD + 1 Turret = 2" in text
    assert "The Turrets that defended in this combat are now plain discarded Heavies." in text


def test_render_says_who_won_the_match_and_why():
    state = meeple.make("erd", best_of=3).new_game(0)
    for _ in range(2):
        state = play_round(state, "rush=HHH defense=LLD", "rush=LDD defense=HLD")
    text = rendered(state)
    assert "Game 1: Red, Rush broke through in round 1." in text
    assert "Match over: Red won the match 2 games to 0" in text


# -- the heuristic agent --------------------------------------------------------------------
def test_heuristic_agent_is_offered_by_the_game():
    game = erd()
    assert game.heuristic_agent == "heuristic" and "heuristic" in game_agents(game.name)


@pytest.mark.parametrize("rules", ["original", "0.02"])
def test_heuristic_beats_random_with_seats_alternated(rules):
    """A small, seeded version of benchmarks/erd_agents.py (which plays 400+ games)."""
    game = erd(rules=rules)
    wins = losses = 0
    for k in range(30):
        seat = k % 2
        heuristic = make_agent("heuristic", game, seed=k)
        rand = make_agent("random", game, seed=1000 + k)
        agents = [heuristic, rand] if seat == 0 else [rand, heuristic]
        outcome = play_game(game, agents, seed=k).state.returns[seat]
        wins += outcome > 0
        losses += outcome < 0
    assert wins >= 2 * losses, (wins, losses)


def test_heuristic_agent_is_deterministic_for_a_seed():
    game = erd(rules="0.01", best_of=3, round_limit=30)

    def moves() -> list[tuple[int, str]]:
        agents = [make_agent("heuristic", game, seed=5), make_agent("heuristic", game, seed=6)]
        return play_game(game, agents, seed=0).moves

    assert moves() == moves()


# -- the command line -----------------------------------------------------------------------
def test_cli_plays_original_rules_with_random_and_heuristic(run):
    result = run(
        "play", "erd", "--rules", "original", "--seat", "random", "--seat", "heuristic",
        "--seed", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "rules original" in result.output and "Match over:" in result.output
    assert "won the match" in result.output


def test_cli_human_allocates_and_bad_input_is_explained(run):
    typed = "rush=HHHH defense=-\nrush=HHL defense=LDD\n" + "rush=DDD defense=HHH\n" * 30
    result = run(
        "play", "erd", "--best-of", "1", "--seat", "human", "--seat", "random", "--seed", "3",
        input=typed,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Red (seat 0) to allocate for round 1" in result.output
    said = " ".join(result.output.split())  # the refusal wraps between words
    assert "Not allowed:" in said and "at most three cards" in said
    assert "Game over:" in result.output


def test_cli_rules_shows_all_three_versions_and_the_interpretations(run):
    result = run("rules", "erd", "--full")  # the complete rules: versions, interpretations
    assert result.exit_code == 0
    for words in ("original", "0.01", "0.02", "Interpretations", "--turret-lifetime"):
        assert words in result.output


def test_docs_rules_erd_is_a_link_to_the_shipped_rules():
    """docs/rules/erd.md is the rules.md beside the module: one text, not two copies."""
    doc = ROOT / "docs" / "rules" / "erd.md"
    assert doc.is_symlink()
    assert doc.resolve() == (ROOT / "src" / "meeple" / "games" / "erd" / "rules.md").resolve()
    assert doc.read_text(encoding="utf-8") == erd().rules_markdown()


def test_how_to_write_an_allocation_offers_an_empty_pile_only_where_the_rules_allow_one():
    """Under 0.01 and 0.02 every pile takes three cards: neither the prompt nor the help
    offers '-' for an empty pile there; the original rules' do."""
    for rules, empty in (("original", True), ("0.01", False), ("0.02", False)):
        game = erd(rules=rules)
        prompt = " ".join(rendered(game.new_game(0), 0).split())
        assert ("- for an empty pile" in prompt) is empty, prompt
        assert ("- for an empty pile" in game.notation_help()) is empty, game.notation_help()
