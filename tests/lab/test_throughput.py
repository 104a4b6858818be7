"""What the lab does to be fast must not change what it stores (issue 35).

A worker builds each game and agent spec once and reuses them; it follows the lead with
``State.standing`` rather than the whole result, and only in games with scores; rows are
committed in batches. Each shortcut is checked against the slow way here.
"""

from __future__ import annotations

import json
import pickle
import random
import sqlite3

import pytest

import meeple
from meeple.agents import make_agent
from meeple.agents.spec import agent_builder
from meeple.core.agent import Observation
from meeple.lab import run as run_module
from meeple.lab import simulate
from meeple.lab.run import RunSpec, execute, rotations, write_jsonl
from meeple.lab.simulate import play_job, run_jobs
from meeple.store import ResultStore
from meeple.store.rows import GameRow, _Encoded

GAMES = [info.name for info in meeple.games()]


def _random_steps(name: str, games: int, **options):
    """(state before, action, state after) of random games; the first step of each game
    has no state before."""
    game = meeple.make(name, **options)
    for seed in range(games):
        state, rng = game.new_game(seed), random.Random(seed)
        yield None, None, state
        while not state.is_over:
            player = state.to_act[0]
            action = rng.choice(state.legal_actions(player))
            before, state = state, state.apply(player, action)
            yield before, action, state


def _counted(state):
    """What a state's standing must be: its scores, or Squad Combat's Life left (the game
    keeps no score; the lab follows the lead by the Life each party has left)."""
    result = state.result
    return result.get("scores", result.get("life_left"))


def _check_standing(steps) -> int:
    checked, standing = 0, None
    for before, action, state in steps:
        assert state.standing() == _counted(state)
        if before is None:
            standing = state.standing()
        else:
            standing = state.standing_after(before, action, standing)
            assert standing == _counted(state)
        checked += 1
    return checked


@pytest.mark.parametrize("name", GAMES)
def test_standing_is_the_results_scores_at_every_state(name):
    assert _check_standing(_random_steps(name, 4)) > 20


def test_squad_combat_follows_the_lead_by_life_left_and_the_winner_ends_ahead():
    """Squad Combat has no score: its standing is each party's Life left, so a row tells
    how early a game was decided and how often the lead changed, and the last party with a
    character alive is the sole leader at the end."""
    simulate._setting.cache_clear()
    rows = [play_job(_job("squad-combat", k)) for k in range(4)]
    simulate._setting.cache_clear()
    for row in rows:
        assert row["lead_changes"] is not None and row["decided_at"] is not None
        assert 0 <= row["decided_at"] < 1
        if row["winners"]:
            game = meeple.make("squad-combat")
            state = game.new_game(row["seed"])
            for player, text in row["moves"]:
                state = state.apply(player, game.parse_action(text))
            life = state.standing()
            assert life[row["winners"][0]] == max(life) > 0
            assert sorted(life)[-2] == 0  # every other party is out
    assert any(row["lead_changes"] > 0 for row in rows)


@pytest.mark.parametrize(
    "options", [{}, {"board": "3x3"}, {"double": True}, {"board": "2x2", "pie": False}]
)
def test_edges_updates_its_standing_square_by_square_and_alike(options):
    # Edges overrides both: a count and an update on the squares of the placed pyramid.
    assert _check_standing(_random_steps("edges", 8, **options)) > 40


@pytest.mark.parametrize("spec", ["random", "greedy", "random:seed=5", "mcts:iterations=8"])
def test_an_agent_builder_builds_what_make_agent_builds(spec):
    game = meeple.make("edges", board="2x2")
    build = agent_builder(spec, game)
    for seed in (0, 7):
        state = game.new_game(1)
        a, b = build(seed), make_agent(spec, game, seed)
        while not state.is_over:
            player = state.to_act[0]
            action = a.act(Observation(state, player))
            assert b.act(Observation(state, player)) == action
            state = state.apply(player, action)


def _job(game: str, index: int, seats=None):
    players = meeple.make(game).num_players
    spec = RunSpec(kind="simulate", game=game, seatings=[seats or ["random"] * players], seed=2)
    return spec.job(index)


@pytest.mark.parametrize("name", GAMES)
def test_a_row_is_the_same_from_a_fresh_worker_and_a_warm_one(name):
    simulate._setting.cache_clear()
    fresh = [play_job(_job(name, k)) for k in (3, 0)]  # each from a worker's first game
    simulate._setting.cache_clear()
    first = play_job(_job(name, 0))
    simulate._setting.cache_clear()
    warm = [play_job(_job(name, k)) for k in range(4)]
    assert warm[0] == first and [warm[3], warm[0]] == fresh


@pytest.mark.parametrize("name", ["edges", "erosion", "triangle-clock"])
def test_replaying_for_the_lead_gives_the_lead_followed_move_by_move(name, monkeypatch):
    simulate._setting.cache_clear()
    followed = [play_job(_job(name, k)) for k in range(3)]
    assert any(row["lead_changes"] is not None for row in followed)
    simulate._setting.cache_clear()
    real = simulate._Setting.__init__

    def without_tracking(self, *args):
        real(self, *args)
        self.tracks_scores = False

    monkeypatch.setattr(simulate._Setting, "__init__", without_tracking)
    assert [play_job(_job(name, k)) for k in range(3)] == followed
    simulate._setting.cache_clear()


def test_rows_are_committed_in_batches_and_all_are_kept(tmp_path, monkeypatch):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    batches: list[int] = []
    add_rows = store.add_rows

    def counted(key, rows):
        if rows:
            batches.append(len(rows))
        add_rows(key, rows)

    monkeypatch.setattr(store, "add_rows", counted)
    monkeypatch.setattr(run_module, "FLUSH_SECONDS", 1e9)
    monkeypatch.setattr(run_module, "FLUSH_ROWS", 40)
    spec = RunSpec(kind="simulate", game="edges", options={"board": "2x2"},
                   seatings=[["random", "random"]], seed=1)  # fmt: skip
    rows = execute(spec, 100, store)
    assert batches == [40, 40, 20]
    assert store.rows(spec.key) == rows and len(rows) == 100


@pytest.mark.parametrize("name", GAMES)
def test_every_game_gives_the_same_rows_serial_and_in_two_worker_processes(name):
    players = meeple.make(name).num_players
    spec = RunSpec(kind="simulate", game=name, seatings=rotations(["random"] * players), seed=8)
    jobs = [spec.job(k) for k in range(6)]
    serial = sorted(run_jobs(jobs, "serial"), key=lambda row: row["index"])
    two = sorted(run_jobs(jobs, "process", 2), key=lambda row: row["index"])
    assert two == serial
    assert [row.text for row in two] == [row.text for row in serial]  # the stored text too
    assert [row["index"] for row in serial] == list(range(6))


SMALL = RunSpec(kind="simulate", game="edges", options={"board": "2x2"},
                seatings=[["random", "greedy"]], seed=4)  # fmt: skip


def test_a_game_row_is_its_dict_and_carries_its_json():
    plain = play_job(SMALL.job(3))
    row = GameRow.of(plain)
    assert row.text == json.dumps(plain, sort_keys=True)
    assert row._fields["moves"] is _Encoded
    assert row == plain and plain == row and dict(row) == plain
    assert sorted(row) == sorted(plain) and len(row) == len(plain)
    assert GameRow.of(row) is row
    # Received from a worker, the moves stay text until read (even when read before it was
    # sent), and read back the same.
    received = pickle.loads(pickle.dumps(row))
    assert received._fields["moves"] is _Encoded and received.text == row.text
    assert received["moves"] == plain["moves"] and received == plain


def test_workers_hand_over_encoded_rows_and_the_store_keeps_their_text(tmp_path):
    rows = list(run_jobs([SMALL.job(k) for k in range(8)], "process", 2))
    assert all(isinstance(row, GameRow) for row in rows)
    assert all(row._fields["moves"] is _Encoded for row in rows)  # not decoded on arrival
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    store.ensure_run(SMALL.key, "simulate", "edges", {})
    store.add_rows(SMALL.key, rows)
    with sqlite3.connect(tmp_path / "r.db") as conn:
        data = dict(conn.execute('SELECT "index", data FROM games').fetchall())
    assert data == {row["index"]: row.text for row in rows}  # as written, not encoded again
    assert store.rows(SMALL.key) == sorted(rows, key=lambda row: row["index"])


def test_the_jsonl_file_is_the_same_from_encoded_rows_and_from_dicts(tmp_path):
    rows = execute(SMALL, 12, ResultStore(f"sqlite:///{tmp_path / 'r.db'}"))
    plain = [play_job(SMALL.job(k)) for k in range(12)]
    write_jsonl(rows, tmp_path / "encoded.jsonl")
    write_jsonl(plain, tmp_path / "plain.jsonl")
    text = (tmp_path / "encoded.jsonl").read_text()
    assert text == (tmp_path / "plain.jsonl").read_text()
    assert text == "".join(json.dumps(row, sort_keys=True) + "\n" for row in plain)


@pytest.mark.parametrize("jobs", [1, 10, 17, 174, 4000])
def test_batches_cover_every_job_in_order_and_shrink_towards_the_end(jobs):
    batches = simulate._batches(list(range(jobs)), 2)
    assert [job for batch in batches for job in batch] == list(range(jobs))
    sizes = [len(batch) for batch in batches]
    assert sizes[0] == max(1, min(50, jobs // 16))  # the first, as the progress bar needs
    assert sizes == sorted(sizes, reverse=True) and max(sizes) <= 50
    least = max(1, sizes[0] // 8)
    assert min(sizes[:-1], default=least) >= least and sizes[-1] <= least


def test_the_pool_is_handed_a_few_batches_at_a_time(monkeypatch):
    # `wait` visits every future it is given: with all of a long run's batches pending, the
    # main process spent more on waiting than on the rows.
    most: list[int] = []

    class Counting(simulate.ProcessPoolExecutor):
        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            self.futures = [f for f in getattr(self, "futures", []) if not f.done()] + [future]
            most.append(len(self.futures))
            return future

    monkeypatch.setattr(simulate, "ProcessPoolExecutor", Counting)
    jobs = [SMALL.job(k) for k in range(40)]
    rows = sorted(run_jobs(jobs, "process", 2), key=lambda row: row["index"])
    assert [row["index"] for row in rows] == list(range(40))
    assert len(most) >= len(simulate._batches(jobs, 2)) > 10
    assert max(most) <= simulate.IN_FLIGHT * 2


def _paced(pace: dict[int, float]):
    """A batcher's view of games that each take ``pace[index]`` seconds of a worker."""

    def play(batch):
        return batch, sum(pace[job] for job in batch)

    return play


@pytest.mark.parametrize(("seconds", "largest"), [(0.001, None), (0.3, 3), (150.0, 1)])
def test_a_batch_holds_about_a_second_of_play(monkeypatch, seconds, largest):
    """A worker hands back its rows when its whole batch is done. Batches of six Triangle
    Clock games at a second a move held finished games back for a quarter of an hour, and
    an interrupt lost them; a batch is now cut to about ``BATCH_SECONDS`` of play at the
    measured pace (one game until a game has been measured), and quick games keep big ones."""
    jobs = list(range(400))
    batcher = simulate._Batcher(jobs, 2)
    play = _paced(dict.fromkeys(jobs, seconds))
    sizes, handed = [], []
    while batch := batcher.next():
        sizes.append(len(batch))
        handed.extend(batch)
        rows, spent = play(batch)
        batcher.done(len(rows), spent, not handed[: -len(batch)])
    assert handed == jobs, "every job once, in order"
    assert sizes[0] == 1, "nothing measured yet"
    # Quick games: the batches the run would have had anyway (25 here, at most 50), the
    # first less the one game that measured the pace.
    assert max(sizes) == (largest or max(map(len, simulate._batches(jobs, 2))) - 1)
    assert all(size * seconds <= max(simulate.BATCH_SECONDS, seconds) for size in sizes)


def test_slow_games_come_back_one_by_one(monkeypatch):
    """Through the real pool: each slow game is stored as soon as it is played."""
    handed: list[int] = []

    class Counting(simulate.ProcessPoolExecutor):
        def submit(self, fn, batch, *args, **kwargs):
            handed.append(len(batch))
            return super().submit(fn, batch, *args, **kwargs)

    monkeypatch.setattr(simulate, "ProcessPoolExecutor", Counting)
    monkeypatch.setattr(simulate, "BATCH_SECONDS", 1e-9)  # every game is slow next to this
    jobs = [SMALL.job(k) for k in range(24)]
    rows = sorted(run_jobs(jobs, "process", 2), key=lambda row: row["index"])
    assert [row["index"] for row in rows] == list(range(24))
    assert handed == [1] * 24


def test_games_stored_before_a_game_followed_a_lead_are_read_back_with_it(tmp_path):
    """Rows of Squad Combat stored before it had a standing carry no lead story: reading the
    run back works it out from their moves, equal to the story of the games played now, and
    leaves the stored rows as they were."""
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = RunSpec(kind="simulate", game="squad-combat", seatings=[["random"] * 2], seed=4)
    spec.record(store)
    played = [play_job(spec.job(k)) for k in range(3)]
    old = [{**row, "lead_changes": None, "decided_at": None} for row in played]
    store.add_rows(spec.key, [GameRow.of(row) for row in old])
    read = execute(spec, 3, store)
    assert [dict(row) for row in read] == played
    assert [dict(row) for row in store.rows(spec.key)] == old
