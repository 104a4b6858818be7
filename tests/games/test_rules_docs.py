"""The games' rules.md as shipped: what they cite and what they explain (issues 32, 34)."""

from __future__ import annotations

import re

import pytest

from meeple.core.registry import game_class, games

GAMES = [info.name for info in games()]


@pytest.mark.parametrize("name", GAMES)
def test_rules_cite_the_seed_by_title_not_files_the_repository_lacks(name):
    text = game_class(name).rules_markdown()
    # The seeds and the design notes live outside the repository (issue 34, item 5).
    assert "shared/" not in text and "gaps.md" not in text
    assert not re.search(r"\b\d{3}_[0-9a-f]{16}\.txt\b", text), "a seed's file name"


# Rich's own table lines and plain punctuation need no legend; every other mark does.
_PLAIN = set(" .,:;()'\"-/?_…") | set("┏┓┗┛┃━╇┡┩┳┻╋┼") | {"\n"}


def _screens(name: str, games_played: int = 2, every: int = 8):
    """The text of the boards of a few random games, as each seat to act and a spectator."""
    import io
    import random

    from rich.console import Console

    from meeple.core.registry import make

    options = {"advanced": True} if name == "erosion" else {}
    game = make(name, **options)
    for seed in range(games_played):
        state = game.new_game(seed)
        rng = random.Random(seed)
        for step in range(600):
            if step % every == 0 or state.is_over:
                for viewer in (None, *state.to_act[:1]):
                    console = Console(width=120, record=True, file=io.StringIO())
                    console.print(game.render(state, viewer))
                    yield console.export_text()
            if state.is_over:
                break
            player = state.to_act[0]
            state = state.apply(player, rng.choice(state.legal_actions(player)))


@pytest.mark.parametrize("name", GAMES)
def test_every_mark_a_board_draws_is_in_its_legend(name):
    from meeple.interfaces.legend import legend_markdown

    legend = legend_markdown(game_class(name))
    assert legend.startswith("## Reading the board"), "the section `meeple rules` shows"
    marks: set[str] = set()
    for screen in _screens(name):
        # Sentences' own signs are words, not marks: "attack 4 >= defense 2", "hit +2",
        # "rush=<cards>", "Escalation! Red ..."; and a line of nothing but "─" is a table's rule.
        prose = r"[<>]=|\w=|[+-]\d|<[a-z]+>|!(?= [A-Z])|^[─ ]+$"
        screen = re.sub(prose, " ", screen, flags=re.MULTILINE)
        marks |= {c for c in screen if not c.isalnum() and c not in _PLAIN}
    missing = sorted(m for m in marks if m not in legend)
    assert not missing, f"{name}: marks drawn but not explained: {missing}"
    assert marks, "the boards drew marks"


@pytest.mark.parametrize(
    ("name", "marks"),
    [
        # Erosion's draw limits with their Atmosphere ends: a terminal newcomer met
        # "Draw limits: WX 2 (normal, normal)" with no word in the legend.
        ("erosion", ["`<`", "`*`", "`!`", "═", "`Draw limits: WX 2 (normal, normal)`"]),
        ("edges", ["`+`", "`│`", "───", "`=`"]),
        ("squad-combat", ["`[3]`", "`<2>`", "`C`"]),
        ("triangle-clock", ["▲", "△", "`Ns`"]),
        ("erd", ["`H`", "`HHL`", "`= 5`"]),
    ],
)
def test_the_legend_explains_each_games_own_marks(name, marks):
    from meeple.interfaces.legend import legend_markdown

    legend = legend_markdown(game_class(name))
    for mark in marks:
        assert mark in legend, mark
