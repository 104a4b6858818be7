"""The Erosion screen's words and symbols (issue 32, items 11 and 17)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from meeple.core.registry import make


def _reach(game, seed: int, moves: int):
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
    return state


def _screen(game, state, player=None, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(game.render(state, player))
    return console.export_text()


def test_one_card_to_draw_and_one_rock_to_transport_are_singular():
    game = make("erosion")
    draw = _reach(game, 0, 1)
    assert draw.agenda[0].kind == "draw" and draw.agenda[0].number == 1
    assert "draws 1 card:" in _screen(game, draw)
    # The draw's example is one of the seat's own draws, of as many cards as are asked
    # (a fixed "draw WX1 H0 F0" drew one of two).
    two = game.new_game(1).apply_text(0, "weather WX12 on 0 x2")
    assert two.agenda[0].kind == "draw" and two.agenda[0].number == 2
    example = str(two.legal_actions(0)[0])
    assert f"draws 2 cards: choose the decks (e.g. '{example}')" in _screen(game, two, 0)
    assert sum(int(part[-1]) for part in example.split()[1:]) == 2, example
    transport = _reach(game, 0, 48)
    assert transport.agenda[0].kind == "transport" and transport.agenda[0].number == 1
    assert "transports 1 more rock from the River" in _screen(game, transport)
    # A step inside a turn shows how it is typed, with one of its legal choices, to the seat
    # that types it: to the others an example could name a card of its hand.
    seat = transport.to_act[0]
    example = str(transport.legal_actions(seat)[0])
    assert f"from the River (e.g. '{example}')" in _screen(game, transport, seat)
    for other in (None, 1 - seat):
        assert "e.g." not in _screen(game, transport, other)
    assert example.startswith("transport ")


def test_the_automatic_steps_are_those_a_game_asking_every_step_would_ask():
    """Issue 32.11: single-choice steps taken by the engine are known, so a log can show
    them. Taken one by one in a game that asks every step, they play the same game."""
    auto, asking = make("erosion", players=4), make("erosion", players=4, auto_steps=False)
    state = auto.new_game(3)
    slow = asking.new_game(3)
    rng = random.Random(3)
    taken = 0
    while not state.is_over:
        player = state.to_act[0]
        action = rng.choice(state.legal_actions(player))
        steps = state.automatic_steps(player, action)
        taken += len(steps)
        state = state.apply(player, action)
        slow = slow.apply(player, asking.parse_action(str(action)))
        for seat, step in steps:
            assert slow.to_act == (seat,) and len(slow.legal_actions(seat)) == 1
            slow = slow.apply(seat, asking.parse_action(str(step)))
        assert slow.view(None)["mountains"] == state.view(None)["mountains"]
    assert taken > 0 and slow.is_over and slow.result["scores"] == state.result["scores"]


def test_a_replay_shows_the_steps_the_engine_took_after_a_move(run, tmp_path, monkeypatch):
    from meeple.agents import make_agent, play_game
    from meeple.interfaces.console import console

    monkeypatch.setattr(console, "width", 1000)  # a move a line

    game = make("erosion", players=4)
    agents = [make_agent("random", game, seat) for seat in range(4)]
    play = play_game(game, agents, seed=3)
    path = tmp_path / "erosion.json"
    play.record().save(path)
    states = play.record().states()
    result = run("replay", str(path), "--all")
    assert result.exit_code == 0, result.output
    shown = 0
    for number, (player, text) in enumerate(play.record().moves, start=1):
        steps = states[number - 1].automatic_steps(player, game.parse_action(text))
        line = next(x for x in result.output.splitlines() if x.startswith(f"{number:3}. "))
        if steps:
            seat, action = steps[0]
            assert f"(then the only choice: {game.seat_name(seat)}: {action}" in line, line
            shown += 1
        else:
            assert "only choice" not in line
    assert shown > 0


@pytest.mark.parametrize(("players", "width"), [(5, 80), (5, 100), (3, 80), (2, 60)])
def test_rock_types_are_written_in_full_and_never_wrapped_or_clipped(players, width):
    game = make("erosion", players=players, advanced=True)
    for seed in range(3):
        state = _reach(game, seed, 60)
        lines = _screen(game, state, width=width).splitlines()
        base = next(i for i, line in enumerate(lines) if "═" in line)
        tallest = max(len(m) for m in state.mountains)
        # A rock a line (the header may take two).
        assert tallest + 1 <= base <= tallest + 2, "\n".join(lines[: base + 1])
        column = "\n".join(lines[base - tallest : base])
        cat = game.catalog
        for rocks in state.mountains:
            for rock in rocks:
                assert cat.rock[rock] in column
        assert all(len(line.rstrip()) <= width for line in lines)


def test_the_end_of_a_shared_win_says_who_shares_it_in_a_sentence():
    from meeple.agents import make_agent, play_game

    game = make("erosion", players=4)
    play = play_game(game, [make_agent("random", game, seat) for seat in range(4)], seed=0)
    assert play.state.result["winners"] == [0, 1]  # Alps and Andes, 15 points each
    end = " ".join(_screen(game, play.state).split())
    assert (
        "Alps 15, Andes 15, Rockies 10, Himalaya 8. Alps and Andes share the win with 15 each."
        in end
    )


@pytest.mark.parametrize(
    ("players", "seed", "end"),
    [
        (2, 21, "Alps 8, Andes 8. Alps wins on the tie-breaker, level with Andes on 8."),
        (
            3,
            2,
            "Alps 7, Andes 5, Rockies 7. Rockies wins on the tie-breaker, level with Alps on 7.",
        ),
    ],
)
def test_a_win_on_the_tie_breaker_says_so(players, seed, end):
    """'Ties are broken by guessing the hardness': a winner level on points with another
    won by the tie-breaker, and the end says it, where it read as a plain win."""
    from meeple.agents import make_agent, play_game

    game = make("erosion", players=players)
    play = play_game(game, [make_agent("random", game, s) for s in range(players)], seed=seed)
    assert end in " ".join(_screen(game, play.state).split())


def test_the_screen_says_before_a_pass_that_it_ends_the_game():
    """A player's single pass ended the game with no word before it: the screen says so
    whenever the seat to act would end the era (here the game) by passing, and not before."""
    game = make("erosion")
    state, rng = game.new_game(3), random.Random(0)
    said = 0
    while not state.is_over:
        (seat,) = state.to_act
        shown = " ".join(_screen(game, state, seat).split())
        ends = not state.agenda and state.pass_ends_era(seat)
        assert (f"A pass by {game.seat_name(seat)} now ends the game." in shown) == ends, shown
        said += ends
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert said
