"""The exact Edges solver against brute force, the rules engine and the known values: its
search, keys, bounds, table, threads and command line."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

import meeple
from meeple.core.record import GameRecord
from meeple.games.edges.board import parse_edge
from meeple.games.edges.rules import EdgesState, Place, Pyramid
from meeple.solvers import edges_engine as eng
from meeple.solvers import edges_solver
from meeple.solvers.edges_analysis import analyse
from meeple.solvers.edges_solver import EdgesSolver, random_position, table_bits
from tests.solvers.edges_cases import brute, game


@pytest.mark.parametrize(
    ("board", "stash", "pie"),
    [("1x1", "1/1/0", False), ("1x1", "1/1/0", True), ("1x2", "1/1/1", False),
     ("1x2", "1/1/1", True)],
)  # fmt: skip
def test_whole_tiny_games_match_brute_force(board, stash, pie):
    state = game(board, stash, pie).new_game(0)
    assert EdgesSolver(state.game.board, tt_bits=12).value(state) == brute(state)


@pytest.mark.parametrize("seed", range(12))
def test_random_positions_match_brute_force(seed):
    rng = random.Random(seed)
    board, stash = [("2x2", "2/2/1"), ("2x2", "2/2/2"), ("2x3", "3/3/2"), ("1x2", "1/1/1")][
        seed % 4
    ]
    g = game(board, stash, pie=seed % 3 == 0)
    solver = EdgesSolver(g.board, tt_bits=14)  # a small table: replacements get exercised
    for left in (1, 3, 5, 6):
        state = random_position(g, min(left, 6), rng)
        assert solver.value(state) == brute(state)


@pytest.mark.parametrize("seed", range(4))
def test_solve_from_a_short_search_s_first_guess_stays_exact(seed, monkeypatch):
    # The first guess only decides where MTD(f) starts: with it on for every size, solved
    # values still match brute force, and its depth-limited values stay out of the table.
    monkeypatch.setattr(edges_solver, "GUESS_MIN", 0)
    rng = random.Random(seed)
    board, stash = [("2x2", "2/2/1"), ("2x3", "3/3/2")][seed % 2]
    g = game(board, stash)
    for left in (4, 6):
        state = random_position(g, left, rng)
        solver = EdgesSolver(g.board, tt_bits=12)
        guess = solver._first_guess(solver.position(state), None)
        assert not solver.tt.any(), "the guess wrote depth-limited bounds into the exact table"
        assert solver.stats.nodes > 0, "the guess's nodes count in the solver's statistics"
        assert -2 * g.board.num_squares <= guess <= 2 * g.board.num_squares
        assert solver.solve(state) == brute(state)


def test_a_big_solve_starts_from_the_guess_and_agrees_with_an_open_window_search():
    g = game("3x4", "5/5/5")
    for k in range(2):
        state = random_position(g, edges_solver.GUESS_MIN, random.Random(f"guess-{k}"))
        solver = EdgesSolver(g.board, tt_bits=18)
        value = solver.solve(state)
        assert solver._guesser is not None, "a solve this big starts from the guess"
        assert value == EdgesSolver(g.board, tt_bits=18).search(state)


def test_pie_position_on_move_two_matches_brute_force():
    g = game("1x2", "1/1/1", pie=True)
    state = g.new_game(0)
    state = state.apply_text(0, "S v0,1")
    assert state.pie_available
    assert EdgesSolver(g.board, tt_bits=12).value(state) == brute(state)


@pytest.mark.parametrize(
    ("board", "stash", "no_pie", "with_pie"),
    [("1x1", "1/1/0", 0, 0), ("1x2", "1/1/1", 1, -1), ("2x2", "2/2/1", 0, 0),
     ("2x2", "2/2/2", 0, 0)],
)  # fmt: skip
def test_known_values(board, stash, no_pie, with_pie):
    """The values table of shared/design/edges-solving.md (2x3 takes minutes: see docs)."""
    for pie, expected in ((False, no_pie), (True, with_pie)):
        state = game(board, stash, pie).new_game(0)
        assert EdgesSolver(state.game.board, tt_bits=18).value(state) == expected


@pytest.mark.parametrize("seed", range(6))
def test_final_positions_score_as_the_rules_engine_says(seed):
    rng = random.Random(100 + seed)
    g = game(["2x3", "3x4", "3x3"][seed % 3], ["3/3/2", "5/5/5", "4/4/4"][seed % 3])
    solver = EdgesSolver(g.board, tt_bits=12)
    state = random_position(g, 0, rng)
    a, b = state.scores()
    assert solver.search(state) == a - b
    # One pyramid left: the solver's value is the best final score the rules engine gives.
    before = random_position(g, 1, random.Random(seed))
    mover = before.to_act[0]
    finals = [before._next(mover, x).scores() for x in before.legal_actions(mover)]
    diffs = [s[0] - s[1] for s in finals]
    assert solver.search(before) == (max(diffs) if mover == 0 else min(diffs))


@pytest.mark.parametrize("seed", range(4))
def test_best_play_reaches_the_solved_value_in_the_rules_engine(seed):
    g = game(["2x3", "3x4"][seed % 2], ["3/3/2", "5/5/5"][seed % 2])
    state = random_position(g, 8, random.Random(seed))
    solver = EdgesSolver(g.board, tt_bits=16)
    value = solver.value(state)
    for mover, action in solver.principal_line(state):
        state = state.apply(mover, action)
    a, b = state.scores()
    assert a - b == value


def test_symmetric_positions_share_a_key():
    g = game("3x4", "5/5/5")
    solver = EdgesSolver(g.board, tt_bits=10)
    s = g.new_game(0)
    left = s.apply_text(0, "L h0,0").apply_text(1, "S v1,2")
    right = s.apply_text(0, "L h3,3").apply_text(1, "S v1,2")  # rotated by 180 degrees
    other = s.apply_text(0, "L h0,1").apply_text(1, "S v1,2")
    assert solver.key(left) == solver.key(right) != solver.key(other)


def play(g, moves: str) -> EdgesState:
    """The state after ``moves`` ("L h0,0; S v0,1; ..."), players alternating from seat 0."""
    state = g.new_game(0)
    for text in moves.split(";"):
        state = state.apply_text(state.to_act[0], text.strip())
    return state


def test_private_edges_of_one_square_are_one_move():
    # h0,0 and v0,0 both touch only the corner square: no symmetry of 3x4 maps one onto the
    # other, but which of the two is filled cannot matter, so the positions share a key.
    g = game("3x4", "5/5/5")
    solver = EdgesSolver(g.board, tt_bits=10)
    assert solver.key(play(g, "L h0,0")) == solver.key(play(g, "L v0,0"))
    assert solver.key(play(g, "L h0,0")) != solver.key(play(g, "L h1,0"))  # h1,0 is shared


def test_isolated_squares_are_interchangeable():
    # Every square's inner edges are filled: each is isolated, and swapping the first two
    # squares' contents (not a symmetry of the board) gives a position of the same value.
    g = game("1x3", "1/1/3")
    solver = EdgesSolver(g.board, tt_bits=12)
    walls = "S v0,0; {} h0,1; S v0,1; S h1,2; S v0,2"
    a = play(g, "L h0,0; " + walls.format("M"))
    b = play(g, "M h0,0; " + walls.format("L"))
    assert solver.key(a) == solver.key(b)
    assert solver.solve(a) == brute(a) == brute(b) == solver.solve(b)


def twin_isolated_squares(solver: EdgesSolver, state: EdgesState) -> tuple[int, int] | None:
    """Two undecided squares of one class with no shared empty edge, if there are any."""
    pos = solver.position(state)
    seen: dict[int, int] = {}
    for sq in range(solver.board.num_squares):
        c = int(eng.CLASS[pos.sums[sq, 0], pos.sums[sq, 1], pos.open_cnt[sq]])
        if c >= 0 and eng.shared_edges(pos.sums, pos.open_cnt, pos.mask, solver.sq_nb, sq) == 0:
            if c in seen:
                return seen[c], sq
            seen[c] = sq
    return None


def test_a_move_on_an_isolated_square_stands_for_its_class():
    # The search tries a move on only one of several isolated squares of one class: the
    # positions it leads to have one key (so one value), and positions with such twins
    # still get their exact values.
    g = game("2x3", "3/3/2")
    board = g.board
    solver = EdgesSolver(board, tt_bits=14)
    rng = random.Random(7)
    found = 0
    for _ in range(2000):
        state = random_position(g, rng.choice((4, 5, 6, 7)), rng)
        twins = twin_isolated_squares(solver, state)
        if twins is None:
            continue
        found += 1
        mover = state.to_act[0]
        pyramid = min(p for p in Pyramid if state.stashes[mover].count(p))
        children = []
        for sq in twins:
            edge = next(i for i in board.square_edges[sq] if state.owner[i] < 0)
            children.append(state._next(mover, Place(pyramid, board.edges[edge])))
        assert solver.key(children[0]) == solver.key(children[1])
        assert brute(children[0]) == brute(children[1])
        assert solver.value(state) == brute(state)
        if found == 6:
            break
    assert found == 6


def live_squares(solver: EdgesSolver, state: EdgesState, edge: int) -> frozenset[int]:
    """The undecided squares an edge touches."""
    pos = solver.position(state)
    return frozenset(
        int(sq)
        for sq in solver.edge_sq[edge]
        if sq >= 0 and eng.CLASS[pos.sums[sq, 0], pos.sums[sq, 1], pos.open_cnt[sq]] >= 0
    )


@pytest.mark.parametrize("board, stash", [("2x2", "2/2/1"), ("1x3", "2/2/0"), ("2x2", "1/2/2")])
def test_a_wider_edge_dominates_when_its_extra_square_is_indifferent_to_larger_pyramids(
    board, stash
):
    # The move loop skips a pyramid on an edge whose undecided squares are a proper subset
    # of another empty edge's (a private edge against a shared one, a dead edge against a
    # live one) when each extra square ends the same with it as with any larger pyramid the
    # mover holds. Every such pair in random positions, solved by brute force: the skipped
    # move is never worth more to the mover.
    g = game(board, stash)
    solver = EdgesSolver(g.board, tt_bits=10)
    rng = random.Random(board + stash)
    checked = 0
    for _ in range(40):
        state = random_position(g, rng.choice((3, 4, 5)), rng)
        mover = state.to_act[0]
        sign = 1 if mover == 0 else -1
        pos = solver.position(state)
        empty = [i for i, o in enumerate(state.owner) if o < 0]
        live = {i: live_squares(solver, state, i) for i in empty}
        for pyramid in (p for p in Pyramid if state.stashes[mover].count(p)):
            for narrow in empty:
                for wide in empty:
                    extra = live[wide] - live[narrow]
                    if not (live[narrow] < live[wide]) or not all(
                        eng.indifferent(pos.sums, pos.open_cnt, pos.stash, mover, sq, pyramid)
                        for sq in extra
                    ):
                        continue
                    skipped = state._next(mover, Place(pyramid, g.board.edges[narrow]))
                    kept = state._next(mover, Place(pyramid, g.board.edges[wide]))
                    assert sign * brute(skipped) <= sign * brute(kept)
                    checked += 1
    assert checked > 100


def test_a_wider_edge_does_not_dominate_when_its_extra_square_wants_a_larger_pyramid():
    # Why the rule asks for indifference: on 1x3 the first player holds two Large and one
    # Medium. A Medium on v0,1 (shared by the two empty squares) is worse than on h0,0
    # (private to the left one): the middle square would rather get a Large later.
    g = game("1x3", "2/2/0")
    state = play(g, "M v0,3; M h0,2")
    solver = EdgesSolver(g.board, tt_bits=10)
    pos = solver.position(state)
    private = g.board.edge_index(parse_edge("h0,0"))
    shared = g.board.edge_index(parse_edge("v0,1"))
    assert live_squares(solver, state, private) < live_squares(solver, state, shared)
    assert not eng.indifferent(pos.sums, pos.open_cnt, pos.stash, 0, 1, 2)  # square 1, Medium
    on_private = brute(state.apply_text(0, "M h0,0"))
    on_shared = brute(state.apply_text(0, "M v0,1"))
    assert on_private > on_shared
    assert solver.solve(state) == brute(state)


@pytest.mark.parametrize("seed", range(6))
def test_the_search_keeps_keys_bounds_and_banked_score_as_a_rebuild_would(seed):
    # The compiled search updates hashes, bound histograms and the banked score move by
    # move (place); each must equal what building the child position from scratch gives.
    g = game("3x4", "5/5/5")
    solver = EdgesSolver(g.board, tt_bits=10)
    rng = random.Random(seed)
    state = random_position(g, rng.randrange(3, 29), rng)
    mover = state.to_act[0]
    for action in state.legal_actions(mover):
        pos = solver.position(state)
        solver._hash(pos)
        st = np.zeros(eng.STATE_LEN, dtype=np.int64)
        st[eng.S_CUR : eng.S_BOUNDS_END] = pos.bounds
        saved = np.zeros((1, len(pos.bounds)), dtype=np.int64)
        saved_h = np.zeros((1, len(solver.hashes)), dtype=np.uint64)
        gain = eng.place(
            g.board.edges.index(action.edge), action.pyramid.value, mover, 0, pos.owner,
            pos.sums, pos.open_cnt, pos.mask, pos.stash, solver.edge_sq, solver.edge_bit,
            solver.sq_nb, solver.sq_nbit, solver.zsq, solver.hashes, len(solver.hashes), st, saved,
            saved_h,
        )  # fmt: skip
        kept = solver.hashes.copy()
        child = solver.position(state._next(mover, action))
        solver._hash(child)
        assert np.array_equal(kept, solver.hashes), action
        assert np.array_equal(st[eng.S_CUR : eng.S_BOUNDS_END], child.bounds), action
        assert gain == (child.banked - pos.banked) * (1 if mover == 0 else -1), action


def test_bound_steps_spread_each_square_s_swing_over_its_pyramids():
    # The search bounds count each further pyramid's step: a square's steps add up to its
    # whole swing with pyramids of the largest size still in hand (HIGH or LOW against the
    # score it stands at, for Large ones), and with t pyramids of its own side 0 reaches no
    # more than the t largest steps, e.g. from -2 (0 against 5) one Large lifts it to -1 and
    # the second to +1: steps 1 and 2, not one step of 3. With only Small ones left the same
    # square can only reach -1 (1 against 5): one step of 1.
    def steps(word):
        return [v for v in (1, 2, 3, 4) for _ in range((word >> (8 * (v - 1))) & 255)]

    for a in range(eng.MAX_SUM + 1):
        for b in range(eng.MAX_SUM + 1):
            for k in range(5):
                for size in (1, 2, 3):
                    gain = eng.GAIN_STEPS[size - 1, a, b, k]
                    loss = eng.LOSS_STEPS[size - 1, a, b, k]
                    if eng.CLASS[a, b, k] < 0:
                        assert gain == loss == 0
                        continue
                    cur = eng._score(a, b)
                    assert sum(steps(gain)) == eng._score(a + size * k, b) - cur
                    assert sum(steps(loss)) == cur - eng._score(a, b + size * k)
                if eng.CLASS[a, b, k] >= 0:
                    assert sum(steps(eng.GAIN_STEPS[2, a, b, k])) == eng.HIGH[a, b, k] - cur
                    assert sum(steps(eng.LOSS_STEPS[2, a, b, k])) == cur - eng.LOW[a, b, k]
    assert sorted(steps(eng.GAIN_STEPS[2, 0, 5, 2])) == [1, 2]
    assert sorted(steps(eng.GAIN_STEPS[0, 0, 5, 2])) == [1]
    assert sorted(steps(eng.GAIN_STEPS[1, 0, 5, 3])) == [1, 2]  # 2, then 4 (-1), then 6 (+1)


def test_the_move_loop_reads_a_placement_s_effect_on_a_square_from_one_table():
    # PLACED: the square's class after the pyramid (1000 + score once decided) and its score
    # change; THREAT_CHANGE / HULL_CHANGE: how the other side's steps / envelope units on it
    # change. E.g. side 0's Large on the last edge of an empty square (0 against 0) closes it
    # at +2, and side 1 can no longer take anything there: its loss step there (a Large of
    # its own: 0 -> -2) goes.
    def effect(side, size, a, b, k):
        placed = int(eng.PLACED[side, size - 1, a, b, k])
        return placed >> 4, (placed & 15) - 4

    assert effect(0, 3, 0, 0, 1) == (1002, 2)
    assert eng.THREAT_CHANGE[0, 2, 2, 0, 0, 1] == -eng.LOSS_STEPS[2, 0, 0, 1] != 0
    tables = ((0, eng.LOSS_STEPS, eng.LOSS_HULL), (1, eng.GAIN_STEPS, eng.GAIN_HULL))
    for side, against, units in tables:
        for size in (1, 2, 3):
            for a in range(eng.MAX_SUM + 1 - size * (side == 0)):
                for b in range(eng.MAX_SUM + 1 - size * (side == 1)):
                    for k in range(1, 5):
                        a1, b1 = (a + size, b) if side == 0 else (a, b + size)
                        code, change = effect(side, size, a, b, k)
                        decided = 1000 + eng.DECIDED[a1, b1, k - 1]
                        assert code == (eng.CLASS[a1, b1, k - 1] if code < 998 else decided)
                        assert change == eng._score(a1, b1) - eng._score(a, b)
                        for big in range(3):
                            after = (
                                against[big, a, b, k]
                                + eng.THREAT_CHANGE[side, big, size - 1, a, b, k]
                            )
                            assert after == against[big, a1, b1, k - 1]
                        hull = units[a, b, k] + eng.HULL_CHANGE[side, size - 1, a, b, k]
                        assert hull == units[a1, b1, k - 1]


@cache
def reach(state: EdgesState) -> tuple[int, int]:
    """The lowest and highest seat 0 minus seat 1 that any way of finishing can reach."""
    if state.is_over:
        a, b = state.scores()
        return a - b, a - b
    mover = state.to_act[0]
    ends = [reach(state._next(mover, a)) for a in state.legal_actions(mover)]
    return min(low for low, _ in ends), max(high for _, high in ends)


def test_the_strength_bound_holds_however_the_game_ends():
    # A side's pyramids add their strength to the two squares of their edges: the squares
    # share twice the strength it has left, and each gains at most its envelope at what it
    # gets. So no finish takes side 0 above the standing score plus that bound (nor below
    # minus side 1's) -- and with small pyramids in hand the bound is below the one that
    # counts each pyramid as a Large: this is what it adds.
    tighter = 0
    for seed in range(60):
        rng = random.Random(seed)
        g = game("2x2", ["3/1/0", "2/1/1", "1/2/2"][seed % 3])
        state = random_position(g, rng.randrange(2, 5), rng)
        pos = EdgesSolver(g.board, tt_bits=10).position(state)
        b = pos.bounds
        up = eng.best_strength(b[eng.S_UP_HULL - eng.S_CUR], eng.strength_left(pos.stash, 0))
        down = eng.best_strength(b[eng.S_DN_HULL - eng.S_CUR], eng.strength_left(pos.stash, 1))
        low, high = reach(state)
        assert pos.banked + b[0] - down <= low and high <= pos.banked + b[0] + up, seed
        big = 2 if pos.stash[0, 2] else (1 if pos.stash[0, 1] else 0)
        count = eng.best_changes(b[eng.S_UP + big - eng.S_CUR], 2 * int(pos.stash[0].sum()))
        tighter += up < count
    assert tighter > 0


def test_a_table_entry_keeps_both_bounds_of_its_position():
    # A position met once with a window it failed high on and once with one it failed low on
    # (another MTD(f) pass, or the same position reached with a different banked score) keeps
    # both answers; the failed-low search names no good move, so the older move stays.
    tt = np.zeros((16, 2), dtype=np.uint64)
    key = np.uint64(0x1234_5678_9ABC_DEF5)

    def entry():
        row, data = eng.tt_find(tt, key)
        assert row >= 0
        return eng.tt_lower_of(data), eng.tt_upper_of(data), eng.tt_move_of(data)

    eng.tt_store(tt, key, 2, eng.NO_UPPER, 4 * 7 + 3, 9)  # at least 2
    assert entry() == (2, eng.NO_UPPER, 4 * 7 + 3)
    eng.tt_store(tt, key, eng.NO_LOWER, 5, 4 * 8 + 1, 9)  # at most 5
    assert entry() == (2, 5, 4 * 7 + 3)
    eng.tt_store(tt, key, -1, 3, 4 * 8 + 1, 9)  # a looser lower bound does not widen it
    assert entry() == (2, 3, 4 * 8 + 1)
    eng.tt_store(tt, key, 3, 3, 4 * 8 + 2, 9)
    assert entry() == (3, 3, 4 * 8 + 2)
    # Bounds that contradict the entry (only depth-limited searches give those) replace it.
    eng.tt_store(tt, key, 7, eng.NO_UPPER, 4 * 2 + 2, 9)
    assert entry() == (7, eng.NO_UPPER, 4 * 2 + 2)
    assert int(np.count_nonzero(tt[:, 0] ^ tt[:, 1] == key)) == 1


def test_a_failed_low_search_leaves_a_new_entry_without_a_move():
    # Its "best" move is only the one whose refutation left the highest upper bound: the next
    # search of the position (the failing MTD(f) pass after a holding one) orders its moves
    # afresh rather than trying that one first.
    tt = np.zeros((16, 2), dtype=np.uint64)
    key = np.uint64(0x0FED_CBA9_8765_4321)
    eng.tt_store(tt, key, eng.NO_LOWER, -3, 4 * 5 + 2, 11)
    row, data = eng.tt_find(tt, key)
    assert row >= 0
    assert (eng.tt_lower_of(data), eng.tt_upper_of(data), eng.tt_move_of(data)) == (
        eng.NO_LOWER,
        -3,
        -1,
    )
    # A result that bounds from below names its move, and a later failed-low one keeps it.
    eng.tt_store(tt, key, -5, eng.NO_UPPER, 4 * 6 + 1, 11)
    assert eng.tt_move_of(eng.tt_find(tt, key)[1]) == 4 * 6 + 1
    eng.tt_store(tt, key, eng.NO_LOWER, -4, 4 * 5 + 2, 11)
    assert eng.tt_move_of(eng.tt_find(tt, key)[1]) == 4 * 6 + 1


def test_a_full_bucket_gives_way_to_the_search_at_hand_before_old_costly_entries():
    # One table serves a proof's thousands of searches: ranked by work alone, the costly
    # subtrees of long-finished searches would keep their rows for good. Entries of another
    # generation go first; within one generation the entry whose bounds cost least goes.
    tt = np.zeros((4, 2), dtype=np.uint64)  # one bucket of four rows
    keys = [np.uint64(4 * (i + 1)) for i in range(8)]  # all land in the one bucket
    for key, work in zip(keys[:3], (30, 28, 25), strict=True):
        eng.tt_store(tt, key, 0, 0, 5, 12, 1, work)  # generation 1: costly, finished searches
    eng.tt_store(tt, keys[3], 0, 0, 5, 12, 2, 4)  # generation 2 begins: the fourth row
    eng.tt_store(tt, keys[4], 0, 0, 5, 12, 2, 3)  # full: the oldest generation's cheapest goes
    found = {i for i, key in enumerate(keys) if eng.tt_find(tt, key)[0] >= 0}
    assert found == {0, 1, 3, 4}
    assert eng.tt_gen_of(eng.tt_find(tt, keys[4])[1]) == 2
    eng.tt_store(tt, keys[5], 0, 0, 5, 12, 2, 9)
    eng.tt_store(tt, keys[6], 0, 0, 5, 12, 2, 8)
    found = {i for i, key in enumerate(keys) if eng.tt_find(tt, key)[0] >= 0}
    assert found == {3, 4, 5, 6}  # generation 1 is gone, costly as it was
    eng.tt_store(tt, keys[7], 0, 0, 5, 3, 2, 6)  # one generation: the cheapest entry goes
    found = {i for i, key in enumerate(keys) if eng.tt_find(tt, key)[0] >= 0}
    assert found == {3, 5, 6, 7}


def test_an_entry_is_ranked_by_the_nodes_its_bounds_cost_not_by_pyramids_left():
    # Two positions with as many pyramids left can differ in cost by orders of magnitude (one
    # is settled by its bounds at once, the other takes millions of nodes): when a bucket is
    # full, the cheap one goes even when it has more pyramids left.
    assert [eng.work_of(n) for n in (0, 1, 2, 3, 4, 1000, 2**40)] == [0, 1, 2, 2, 3, 10, 41]
    tt = np.zeros((4, 2), dtype=np.uint64)
    keys = [np.uint64(4 * (i + 1)) for i in range(5)]
    for key, rem, work in zip(keys[:4], (16, 6, 5, 4), (2, 20, 18, 15), strict=True):
        eng.tt_store(tt, key, 0, 0, 5, rem, 1, work)
    eng.tt_store(tt, keys[4], 0, 0, 5, 5, 1, 10)
    found = {i for i, key in enumerate(keys) if eng.tt_find(tt, key)[0] >= 0}
    assert found == {1, 2, 3, 4}
    # A position searched again keeps the larger work of the two searches.
    eng.tt_store(tt, keys[1], 0, eng.NO_UPPER, 5, 6, 1, 3)
    assert eng.tt_work_of(eng.tt_find(tt, keys[1])[1]) == 20


def test_the_search_frame_refuses_arrays_it_would_misread():
    # The frame hands the compiled search bare addresses: an array of the wrong dtype, shape
    # or memory layout would be read as garbage, so it is refused before any search starts.
    game = meeple.make("edges", board="1x2", stash="1/1/1", pie=False)
    solver = EdgesSolver(game.board, tt_bits=4)
    pos = solver.position(game.new_game(0))
    captured = {}

    def capture(frame, common, lo, hi, depth):
        captured["frame"] = frame
        return 0

    real, eng.negamax = eng.negamax, capture
    try:
        solver._run(pos, -1, 0, -1, None)
    finally:
        eng.negamax = real
    frame = captured["frame"]
    assert frame.dtype == np.uint64 and len(frame) == eng.FRAME_LEN
    assert frame[eng.F_EDGES] == game.board.num_edges
    assert frame[eng.F_OWNER] == pos.owner.ctypes.data
    arrays = {name: np.zeros(1) for name, _, _ in eng.FRAME_ARRAYS}
    with pytest.raises(ValueError, match="owner: needs a C-contiguous 1-d int64 array"):
        eng.make_frame(arrays, np.uint64(1))
    good = dict.fromkeys((name for name, _, _ in eng.FRAME_ARRAYS))
    for name, dtype, dims in eng.FRAME_ARRAYS:
        good[name] = np.zeros((3,) * len(dims.split()), dtype=dtype)
    good["sums"] = np.zeros((4, 2), dtype=np.int64)[:, ::-1]  # a view in reverse: not C order
    with pytest.raises(ValueError, match="sums: needs a C-contiguous"):
        eng.make_frame(good, np.uint64(1))
    good["sums"] = np.zeros((3, 2), dtype=np.int64)
    with pytest.raises(ValueError, match=r"shape \(3, 3\), needs"):
        eng.make_frame(good, np.uint64(1))


def test_the_default_table_grows_with_the_pyramids_left_up_to_a_gibibyte():
    assert [table_bits(left) for left in (0, 8, 14, 16, 17, 18, 24, 30)] == [
        16, 20, 23, 24, 24, 25, 26, 26,
    ]  # fmt: skip


def test_analyse_reports_moves_and_statistics():
    result = analyse(game("1x2", "1/1/1").new_game(0), tt_bits=12)
    assert result["value"] == 1
    assert result["moves"][0] == ["L v0,1", 1]
    assert result["nodes"] == sum(result["nodes_by_left"]) > 0


@pytest.mark.parametrize(("board", "stash", "pie", "left"), [
    ("2x2", "2/2/1", True, None), ("2x3", "3/3/2", False, 9), ("3x4", "5/5/5", False, 9),
])  # fmt: skip
def test_moves_solved_in_two_threads_get_the_values_of_one(board, stash, pie, left):
    g = game(board, stash, pie=pie)
    state = g.new_game(0) if left is None else random_position(g, left, random.Random(3))
    one = analyse(state, tt_bits=14)
    two = analyse(state, tt_bits=14, workers=2)
    assert two["value"] == one["value"]
    assert sorted(map(tuple, two["moves"])) == sorted(map(tuple, one["moves"]))
    # Both threads' costs are counted.
    assert two["nodes"] == sum(two["nodes_by_left"]) > 0


def test_moves_solved_in_threads_stop_at_a_deadline():
    import time

    from meeple.solvers.edges_solver import SearchStopped

    g = game("3x4", "5/5/5")
    state = random_position(g, 16, random.Random(0))
    solver = EdgesSolver(g.board, tt_bits=16)
    with pytest.raises(SearchStopped):
        solver.move_values(state, deadline=time.perf_counter() + 0.2, workers=2)


def test_a_torn_table_row_is_never_read_as_an_entry():
    # Threads sharing a table may read a row while another writes it: a row holds key ^ data,
    # so the key of one store paired with the data of another fails the check.
    tt = np.zeros((16, 2), dtype=np.uint64)
    key, other = np.uint64(0x1234_5678_9ABC_DEF5), np.uint64(0x0FED_CBA9_8765_4325)
    eng.tt_store(tt, key, 2, eng.NO_UPPER, 4 * 7 + 3, 9)
    row, data = eng.tt_find(tt, key)
    assert row >= 0 and eng.tt_lower_of(data) == 2
    tt[row, 1] = eng.pack_entry(-5, -5, 4 * 1 + 1, 9)  # another store's data, half written
    assert eng.tt_find(tt, key)[0] == -1
    assert eng.tt_find(tt, other)[0] == -1


def test_searches_in_threads_sharing_one_table_agree_with_fresh_ones():
    import threading

    g = game("2x3", "3/3/2")
    states = [random_position(g, 10, random.Random(100 + i)) for i in range(6)]
    owner = EdgesSolver(g.board, tt_bits=12)  # small, so the threads overwrite each other
    twins = [owner, owner.sharing_table()]
    assert twins[1].tt is owner.tt
    values: dict[int, int] = {}

    def work(w: int) -> None:
        for i in range(w, len(states), 2):
            values[i] = twins[w].value(states[i])

    threads = [threading.Thread(target=work, args=(w,)) for w in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    fresh = EdgesSolver(g.board, tt_bits=14)
    assert values == {i: fresh.value(s) for i, s in enumerate(states)}


# -- the pie rule by colour swap, stopping, progress ---------------------------------------
def test_a_take_over_is_the_colour_swap_of_another_first_move():
    """With equal stashes, "seat 1 takes over with M on e" is the position after "seat 0
    plays M on e" with the colours exchanged: the solver reuses that value, searching
    nothing, and it is the value a fresh search finds."""
    pie_game, plain = game("2x2", "2/2/1", pie=True), game("2x2", "2/2/1")
    solver = EdgesSolver(pie_game.board, tt_bits=14)
    mirror = plain.new_game(0).apply_text(0, "M h0,0")
    mirror_value = solver.solve(mirror)
    took_over = pie_game.new_game(0).apply_text(0, "L h0,0").apply_text(1, "pie M")
    nodes = solver.stats.nodes
    assert solver.solve(took_over) == -mirror_value
    assert solver.stats.nodes == nodes  # nothing searched
    assert EdgesSolver(pie_game.board, tt_bits=14).solve(took_over) == -mirror_value


def test_a_search_past_its_deadline_stops_and_leaves_the_solver_sound():
    import time

    from meeple.solvers.edges_solver import SearchStopped

    g = game("3x4", "5/5/5")
    state = random_position(g, 12, random.Random(5))
    solver = EdgesSolver(g.board, tt_bits=16)
    with pytest.raises(SearchStopped):
        solver.solve(state, deadline=time.perf_counter())
    small = random_position(game("2x3", "3/3/2"), 6, random.Random(2))
    fresh = EdgesSolver(g.board, tt_bits=16)
    assert solver.solve(state) == fresh.solve(state)
    other = EdgesSolver(small.game.board, tt_bits=12)
    assert other.value(small) == brute(small)


def test_progress_is_reported_while_searching():
    g = game("2x3", "3/3/2")
    state = random_position(g, 8, random.Random(4))
    solver = EdgesSolver(g.board, tt_bits=14)
    seen: list[int] = []
    solver.on_progress = seen.append
    value = solver.solve(state)
    assert seen and seen[-1] == solver.stats.nodes
    assert value == EdgesSolver(g.board, tt_bits=14).solve(state)


def test_exact_best_action_keeps_the_value_for_both_seats():
    g = game("2x3", "3/3/2")
    for seed in range(6):
        state = random_position(g, 7, random.Random(seed))
        mover = state.to_act[0]
        action, value = EdgesSolver(g.board, tt_bits=14).best_action(state)
        assert value == brute(state) == brute(state._next(mover, action))


@pytest.mark.parametrize(("board", "fixed"), [("2x2", 0), ("3x3", 0), ("4x4", 0), ("3x4", 1)])
def test_half_turn_fixes_the_edges_the_design_note_says(board, fixed):
    from meeple.solvers.edges_solver import board_symmetries

    sym_e, _ = board_symmetries(game(board, "1/0/0").board)
    half_turn = sym_e[3]  # (x, y) -> (w - x, h - y)
    assert sum(int(half_turn[e]) == e for e in range(len(half_turn))) == fixed


@pytest.mark.parametrize("stash", ["2/2/1", "2/2/2"])
def test_mirror_bound_and_pie_on_a_board_without_a_fixed_edge(stash):
    """2x2 has no edge the half turn fixes, so the second player can mirror every first move:
    each first move is worth at most 0 without the pie rule, and then (equal stashes) the pie
    rule cannot change the value -- the argument docs/solving-edges.md applies to 3x3."""
    solver = EdgesSolver(game("2x2", stash).board, tt_bits=16)
    values = [v for _, v in solver.move_values(game("2x2", stash).new_game(0))]
    assert max(values) <= 0
    assert solver.value(game("2x2", stash, pie=True).new_game(0)) == max(values)


# -- the command line -----------------------------------------------------------------------
def test_solve_command_with_workers_agrees(run, tmp_path):
    args = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-cache")
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert "value +0" in one.output and "value +0" in two.output
    table = [line for line in two.output.splitlines() if "│" in line]
    assert table and table == [line for line in one.output.splitlines() if "│" in line]


def test_solve_command_prints_value_and_caches(run, tmp_path):
    args = ("solve", "edges", "--board", "1x2", "--stash", "1/1/1", "--cache-dir", str(tmp_path))
    first = run(*args, "--no-pie")
    assert first.exit_code == 0, first.output
    assert "value +1" in first.output and "L v0,1" in first.output
    assert "nodes/s" in first.output and "read back" not in first.output
    second = run(*args, "--no-pie")
    assert second.exit_code == 0 and "read back from the cache" in second.output
    with_pie = run(*args)
    assert "value -1" in with_pie.output
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_solve_command_solves_a_saved_position(run, tmp_path):
    record = GameRecord(
        game="edges",
        options={"board": "2x2", "stash": "2/2/1", "first": 1, "pie": False},
        seed=3,
        moves=[(1, "L h0,0"), (0, "L h2,1"), (1, "M v0,1")],
    )
    path = tmp_path / "game.json"
    record.save(path)
    out = run("solve", "edges", "--position", str(path), "--cache-dir", str(tmp_path / "c"))
    assert out.exit_code == 0, out.output
    state = record.replay()
    expected = -EdgesSolver(state.game.board, tt_bits=12).value(state)  # Blue moved first
    assert f"value {expected:+d}" in out.output
    assert "7 pyramids to place" in out.output


def test_solve_command_explains_bad_input(run, tmp_path):
    bad = run("solve", "erosion", "--cache-dir", str(tmp_path))
    assert bad.exit_code == 2 and "edges" in bad.output and "erd" in bad.output
    bad = run("solve", "edge", "--cache-dir", str(tmp_path))
    assert bad.exit_code == 2 and "'edge' (did you mean 'edges'?)" in bad.output
    bad = run("solve", "edges", "--board", "1x1", "--stash", "9/9/9", "--cache-dir", str(tmp_path))
    assert bad.exit_code == 2 and "do not fit" in bad.output
