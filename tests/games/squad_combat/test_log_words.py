"""Squad Combat's moves in words for the move log (``Game.log_words``): every kind of move
at every step that asks for it, one short turn and a half played move by move."""

from __future__ import annotations

from .conftest import make, position

WINDOW = "closed the {} window (no more edges)"
TURN = [
    ("play volley by b", "had Red Archer (0b) perform Volley (attack card)"),
    ("pay 4", "paid the [4] die cost of Volley with a 4"),
    ("pay 2", "paid the [2] die cost of Volley with a 2"),
    ("target 1b", "attacked Blue Knight (1b) with Volley"),
    ("no die", "spent no attack die (it counts as 0)"),
    ("die 6", "spent a 6 as the defense die"),
    ("done", WINDOW.format("reaction")),
    ("done", WINDOW.format("reaction")),
    (
        "refresh b",
        "refreshed the dice of Blue Knight (1b): it pays 2 energy and rolls 2 new dice "
        "(its action this phase)",
    ),
    ("done", "closed the window before a refresh (no more edges)"),
    ("done", "closed the window before a refresh (no more edges)"),
    (
        "drop 1",
        "removed a 1 from the dice of Blue Knight (1b) (a character keeps as many dice as "
        "its pool, 2)",
    ),
    ("play hex by c", "had Red Sage (0c) perform Hex (attack card)"),
    ("discard jab", "discarded Jab to pay the card cost (C) of Hex"),
    ("target 1a", "attacked Blue Sage (1a) with Hex"),
    ("die 3", "spent a 3 as the attack die"),
    ("no die", "spent no defense die (it counts as 0)"),
    ("done", WINDOW.format("reaction")),
    ("done", WINDOW.format("reaction")),
    ("pass", "passed: no more actions this turn (edges still allowed)"),
    ("play focus by c", "had Red Sage (0c) perform Focus (action card)"),
    ("target 0a", "aimed Focus at Red Knight (0a)"),
    ("die 5", "chose the 5 of Red Knight (0a) for Focus to raise"),
    ("done", WINDOW.format("reaction")),
    ("done", WINDOW.format("reaction")),
    ("pass", "passed: no more actions this turn (edges still allowed)"),
    ("done", WINDOW.format("end-of-turn")),
    ("done", WINDOW.format("end-of-turn")),
    ("discard mend", "discarded Mend at the end of the turn"),
    ("done", "kept the rest of their hand (no more end-of-turn discards)"),
]


def test_every_kind_of_move_in_words():
    # Every step asked (no single choice taken by the engine), so each kind of move shows.
    game = make(auto_steps=False, reaction_prompts="always")
    state = position(
        game,
        hands={0: "volley hex focus jab mend", 1: "block jab hex aim salve"},
        dice={"0a": (3, 5), "0b": (2, 4), "0c": (2, 3), "1b": (1, 6)},
    )
    kinds = set()
    for move, words in TURN:
        seat = state.to_act[0]
        action = game.parse_action(move)
        assert game.log_words(state, seat, action) == words, move
        kinds.add((type(action).__name__, state.step.kind))
        state = state.apply(seat, action)
    assert {k for k, _ in kinds} == {
        "Play", "Refresh", "Pass", "PayDie", "Discard", "Target", "Die", "NoDie", "Drop", "Done",
    }  # fmt: skip
