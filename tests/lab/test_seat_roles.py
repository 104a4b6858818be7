"""Tables and plots name each seat's deck where the game has decks (issue 59, item 3)."""

from __future__ import annotations

from meeple.lab.metrics import summarize
from meeple.lab.report import seat_label, seat_table
from meeple.lab.simulate import GameJob, play_job


def _rows(game: str, options: dict, n: int = 2) -> list[dict]:
    jobs = [GameJob(game=game, options=options, seats=["random", "random"], run_seed=1, index=k)
            for k in range(n)]  # fmt: skip
    return [play_job(job) for job in jobs]


def test_squad_combat_seats_are_named_by_colour_and_deck():
    summary = summarize(_rows("squad-combat", {"decks": "shadow-circle,iron-line"}))
    assert [s.role for s in summary.seats] == ["Red (shadow-circle)", "Blue (iron-line)"]
    _, rows = seat_table({"x": summary})
    assert [row[0] for row in rows] == ["0 Red (shadow-circle)", "1 Blue (iron-line)"]
    assert seat_label({"x": summary}, 1) == "seat 1 Blue (iron-line): random"


def test_a_game_without_roles_names_its_seats_as_its_log_does():
    """Erosion's seats are mountain ranges: the lab said "seat 0" where the replays, the log
    and the card statistics said Alps; each says "seat 0 Alps" now."""
    summary = summarize(_rows("edges", {"board": "2x2"}))
    assert [s.role for s in summary.seats] == ["Red", "Blue"]
    assert [row[0] for row in seat_table({"x": summary})[1]] == ["0 Red", "1 Blue"]
    assert seat_label({"x": summary}, 0) == "seat 0 Red: random"
    summary = summarize(_rows("erosion", {}, 1))
    assert [s.role for s in summary.seats] == ["Alps", "Andes"]


def test_triangle_clock_seats_are_named_by_the_items_they_hold():
    summary = summarize(_rows("triangle-clock", {"items": "palette-swap+right-angle/none"}, 1))
    assert [s.role for s in summary.seats] == ["Tick (palette-swap+right-angle)", "Tock (no items)"]
