"""What a move log (the terminal's, a replay's) tells after a Squad Combat move: the lines the
engine logged by itself until the next decision, so that with three or four players a hit or
a miss is told even when later moves push it out of the state's last log lines."""

from __future__ import annotations

import random

import meeple
from meeple.agents import make_agent
from meeple.core.record import Playthrough
from meeple.interfaces import console as console_module
from meeple.interfaces.move_log import move_words
from meeple.interfaces.play_cli import TerminalGame

from .conftest import make, position


def new_lines(before: tuple[str, ...], after: tuple[str, ...]) -> tuple[str, ...]:
    """The lines ``after``'s log added to ``before``'s (a log keeps only its last lines)."""
    for dropped in range(len(before) + 1):
        kept = before[dropped:]
        if after[: len(kept)] == kept:
            return after[len(kept) :]
    raise AssertionError("the logs do not overlap")


def test_after_the_last_reaction_window_the_move_log_tells_the_attack_s_result():
    game = make(auto_steps=False, reaction_prompts="always")
    state = position(
        game,
        hands={0: "volley hex focus jab mend", 1: "block jab hex aim salve"},
        dice={"0a": (3, 5), "0b": (2, 4), "0c": (2, 3), "1b": (1, 6)},
    )
    for move in ("play volley by b", "pay 4", "pay 2", "target 1b", "no die", "die 6", "done"):
        state = state.apply_text(state.to_act[0], move)
    shown = move_words(state, state.to_act[0], "done").plain
    assert shown == (
        "done — closed the reaction window (no more edges)\n"
        "    Volley misses Blue Knight (1b): attack 2 (no die, hit +2) < defense 6."
    )


def test_a_move_s_aftermath_is_what_the_log_gained_after_the_move_s_own_lines():
    game = meeple.make("squad-combat", players=3)
    state, rng, told = game.new_game(4), random.Random(4), 0
    while not state.is_over:
        player = state.to_act[0]
        action = rng.choice(state.legal_actions(player))
        after = state.apply(player, action)
        lines = state.aftermath(player, action)
        gained = new_lines(state.log, after.log)
        assert gained[len(gained) - len(lines) :] == lines
        told += bool(lines)
        state = after
    assert told > 50


def test_a_person_among_three_agents_is_told_every_attack_s_result():
    """Four players, Red a person: between two of Red's decisions the agents can log more
    than the screen's log shows; every hit and miss is still told at the terminal."""
    game = meeple.make("squad-combat", players=4)
    play = Playthrough(game, 1, ["human", "random", "random", "random"])
    agents = [None, *(make_agent("random", game, seat) for seat in (1, 2, 3))]
    rng = random.Random(1)

    def person(prompt: str) -> str:
        return str(rng.choice(play.state.legal_actions(0)))

    with console_module.console.capture() as screen:
        assert TerminalGame(play, agents, history=False, read=person).run()
    results, state = [], game.new_game(1)
    for seat, move in play.moves:
        after = state.apply_text(seat, move)
        results += [
            line for line in new_lines(state.log, after.log) if "hits" in line or "misses" in line
        ]
        state = after
    shown = " ".join(screen.get().split())
    assert len(results) > 20
    assert [line for line in results if line not in shown] == []
