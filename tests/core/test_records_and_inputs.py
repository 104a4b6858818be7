"""Records are complete and honest, and every bad input to the API is a MeepleError.

Issue 31: wrong types for seats and action ids, actions of another game or configuration,
options that cannot round-trip, records with bad fields, encodings, nesting or sizes,
external content that changed since a record was made, pending simultaneous choices kept
out of saved records, and agent budgets that make no sense.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.agents import make_agent
from meeple.core.errors import AgentSpecError, IllegalAction, MeepleError, OptionError, RecordError
from meeple.core.record import MAX_RECORD_BYTES, GameRecord, Playthrough
from meeple.core.registry import games
from meeple.games.squad_combat.content import demo_folder
from tests.mulligan import mulligan_after_a_pick

GAMES = [info.name for info in games()]


def _played(name: str, moves: int, seed: int = 3, **options: object) -> Playthrough:
    """A game of ``name`` after ``moves`` random legal moves (fewer if it ends)."""
    play = Playthrough(meeple.make(name, **options), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if play.state.is_over:
            break
        player = play.state.to_act[0]
        play.play(player, rng.choice(play.state.legal_actions(player)))
    return play


# -- seats and action ids -------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("player", ["0", 1.5, True, None, 10**100, -1, [0]])
def test_apply_refuses_a_seat_that_is_not_a_seat_number(name, player):
    state = meeple.make(name).new_game(1)
    action = state.legal_actions(state.to_act[0])[0]
    with pytest.raises(IllegalAction, match=r"there is no seat .*a seat is a whole number from 0"):
        state.apply(player, action)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action_id", ["1", 1.0, 1.5, None, True, -1, 10**100, "big"])
def test_action_from_id_refuses_ids_outside_the_range(name, action_id):
    game = meeple.make(name)
    with pytest.raises(MeepleError, match=rf"a whole number from 0 to {game.num_actions - 1}"):
        game.action_from_id(action_id)
    with pytest.raises(MeepleError):
        game.action_from_id(game.num_actions)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value", ["pass", [1], None, 3, object()])
def test_action_id_refuses_what_is_not_an_action(name, value):
    game = meeple.make(name)
    with pytest.raises(MeepleError, match=rf"is not an action of {game.title}"):
        game.action_id(value)


def test_action_from_id_still_reads_every_id():
    game = meeple.make("edges", board="3x3")
    assert [game.action_id(game.action_from_id(i)) for i in range(game.num_actions)] == list(
        range(game.num_actions)
    )


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("other", GAMES)
def test_an_action_of_another_game_is_illegal_not_a_crash(name, other):
    state = meeple.make(name).new_game(3)
    foreign = meeple.make(other).new_game(3)
    action = foreign.legal_actions(foreign.to_act[0])[0]
    if name != other:
        with pytest.raises(IllegalAction):
            state.apply(state.to_act[0], action)
    with pytest.raises(IllegalAction):
        state.apply(state.to_act[0], object())


def test_an_action_of_another_configuration_is_illegal_not_an_index_error():
    # Found by trying every 4-player Erosion action on a 2-player game: this weather card
    # targets mountain 2, which only exists with more players, and used to raise IndexError.
    four = meeple.make("erosion", players=4)
    state = meeple.make("erosion").new_game(5)
    action = four.action_from_id(57)
    with pytest.raises(IllegalAction, match="not an action of Erosion in this configuration"):
        state.apply(state.to_act[0], action)


def test_the_games_own_reasons_are_still_given():
    state = meeple.make("edges", first=0).new_game(1).apply_text(0, "L h0,0")
    with pytest.raises(IllegalAction, match="already holds"):
        state.apply_text(1, "M h0,0")


# -- options --------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", float("inf"), float("nan"), "1e400"])
def test_options_that_cannot_round_trip_are_refused_when_the_game_is_made(value):
    with pytest.raises(OptionError, match="memorise_seconds"):
        meeple.make("triangle-clock", memorise_seconds=value)


@pytest.mark.parametrize("decks", [",", " , ", ",,,"])
def test_an_empty_decks_list_is_an_option_error(decks):
    with pytest.raises(OptionError, match="names no deck; give deck ids"):
        meeple.make("squad-combat", decks=decks)


# -- record fields --------------------------------------------------------------------------
def _record_dict(**changes: object) -> dict:
    data = json.loads(_played("edges", 4, board="3x3").record().model_dump_json())
    data.update(changes)
    return data


def test_a_record_without_moves_is_refused():
    """Said "missing", not pydantic's "Field required" (a terminal newcomer's finding)."""
    data = _record_dict()
    del data["moves"]
    with pytest.raises(RecordError, match=r"not a meeple game record: moves: missing$"):
        GameRecord.from_json(json.dumps(data))


def test_a_file_that_is_not_json_is_told_what_a_record_is(tmp_path):
    """`meeple replay w.py` said only "w.py is not JSON: Expecting value: ...": it says what
    it was asked for too."""
    path = tmp_path / "w.py"
    path.write_text("print(1)\n")
    with pytest.raises(RecordError, match=r"is not JSON: .*; a game record is the JSON of a saved"):
        GameRecord.load(path)


@pytest.mark.parametrize(
    "moves",
    [[[True, "L h0,0"]], [["0", "L h0,0"]], [[0.0, "L h0,0"]], [[0, 7]], [[0]], "L h0,0"],
)
def test_a_record_move_must_be_a_seat_number_and_text(moves):
    with pytest.raises(RecordError, match="not a meeple game record"):
        GameRecord.from_json(json.dumps(_record_dict(moves=moves)))


@pytest.mark.parametrize("player", [-1, 2, 10**30])
def test_a_record_move_by_a_seat_that_does_not_exist_does_not_replay(player):
    record = GameRecord.from_json(json.dumps(_record_dict(moves=[[player, "L h0,0"]])))
    with pytest.raises(RecordError, match=r"move 1 .*there is no seat"):
        record.replay()


def test_a_record_whose_seats_do_not_match_the_game_is_refused():
    record = GameRecord.from_json(json.dumps(_record_dict(seats=["random"] * 3)))
    with pytest.raises(RecordError, match=r"names 3 seats but Edges .* has 2"):
        record.replay()


@pytest.mark.parametrize(
    ("people", "says"),
    [
        (list(range(65)), "people: List should have at most 64 items"),
        ([64], "people.0: Input should be less than or equal to 63"),
        ([-1], "people.0: Input should be greater than or equal to 0"),
        (["0"], "people.0: Input should be a valid integer"),
    ],
)
def test_a_record_s_people_must_be_a_short_list_of_seat_numbers(people, says):
    with pytest.raises(RecordError, match=re.escape(says)):
        GameRecord.from_json(json.dumps(_record_dict(people=people)))


@pytest.mark.parametrize("people", [[2], [0, 0], [1, 5]])
def test_a_record_s_people_that_are_not_distinct_seats_of_its_game_do_not_replay(people):
    record = GameRecord.from_json(json.dumps(_record_dict(people=people)))
    with pytest.raises(RecordError, match=r"people .* are not distinct seats of Edges .*0 to 1"):
        record.replay()


@pytest.mark.parametrize("options", [{"board": "0x0"}, {"colour": "red"}, {"pie": "maybe"}])
def test_a_record_with_bad_options_is_a_record_error(options):
    record = GameRecord.from_json(json.dumps(_record_dict(options=options)))
    with pytest.raises(RecordError, match="the record's game cannot be made"):
        record.replay()


def test_a_record_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(json.dumps(_record_dict()).encode("utf-8").replace(b"edges", b"\xffdges"))
    with pytest.raises(RecordError, match="is not UTF-8 text"):
        GameRecord.load(path)


def test_a_record_nested_too_deeply_is_refused():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecordError, match="nested too deeply"):
        GameRecord.from_json('{"game": "edges", "seed": 1, "moves": [], "options": ' + deep + "}")


@pytest.mark.parametrize(
    ("seat", "says"),
    [
        ("\x1b[31mred\x1b]0;title\x07", "U\\+001B is a control character"),
        ("bob\nScore: Red 99", "U\\+000A is a control character"),
        ("\u202eevil", "U\\+202E is a control of the text's direction"),
        ("x" * 201, "at most 200 characters"),
    ],
)
def test_a_record_s_seats_are_printable_text(seat, says):
    """`meeple replay` shows a record's seats as they are: an escape in one coloured the
    terminal or set its title, and a line break in one forged a line of the replay's
    output. A record from a server carries the names its players chose."""
    with pytest.raises(RecordError, match=f"seats.0: .*{says}"):
        GameRecord.from_json(json.dumps(_record_dict(seats=[seat, "random"])))
    kept = ["Zoë 👨‍👩‍👧", "محمد"]  # a joined emoji and text written right to left are text
    assert GameRecord.from_json(json.dumps(_record_dict(seats=kept))).seats == kept


def test_a_record_s_content_digests_are_digests():
    data = _record_dict(content={"ranking": "\x1b[2J"})
    with pytest.raises(RecordError, match=r"content\.ranking: String should match pattern"):
        GameRecord.from_json(json.dumps(data))


def test_a_record_with_a_lone_surrogate_is_refused_not_a_crash_when_printed():
    """``"\\ud800"`` is valid JSON and no character: `meeple replay` printed a traceback
    (UnicodeEncodeError) writing the seat it was in."""
    text = json.dumps(_record_dict(seats=["\ud800", "random"]))
    assert "\\ud800" in text
    with pytest.raises(RecordError, match=r"U\+D800 is a lone surrogate"):
        GameRecord.from_json(text)


def test_a_record_over_the_size_cap_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_text('{"game": "edges", "pad": "' + "x" * MAX_RECORD_BYTES + '"}')
    with pytest.raises(RecordError, match="larger than a game record may be"):
        GameRecord.load(path)


# -- external content -----------------------------------------------------------------------
def test_a_record_pins_the_ranking_table_and_names_a_change(tmp_path):
    from meeple.games.triangle_clock import hands

    table = tmp_path / "ranking.toml"
    source = Path(str(hands.__file__)).with_name(hands.DEFAULT_RANKING)
    shutil.copyfile(source, table)
    record = _played("triangle-clock", 6, ranking=str(table)).record()
    assert record.content["ranking"].startswith("sha256:")
    GameRecord.from_json(record.model_dump_json()).replay()  # unchanged: replays
    table.write_text(table.read_text() + "\n# edited\n")
    with pytest.raises(RecordError, match=r"content .*ranking.toml .*changed since"):
        GameRecord.from_json(record.model_dump_json()).replay()


def test_a_record_pins_the_squad_content_folder_and_names_a_change(tmp_path):
    folder = tmp_path / "content"
    shutil.copytree(str(demo_folder()), folder)
    record = _played("squad-combat", 6, content=str(folder)).record()
    (folder / "notes.txt").write_text("not read by the game, so not pinned")
    GameRecord.from_json(record.model_dump_json()).replay()
    cards = folder / "cards.toml"
    cards.write_text(cards.read_text() + "\n# edited\n")
    with pytest.raises(RecordError, match=r"option 'content'\) changed since this record"):
        GameRecord.from_json(record.model_dump_json()).replay()


def test_a_game_without_external_content_pins_nothing():
    assert _played("edges", 2).record().content == {}


# -- pending simultaneous choices -----------------------------------------------------------
def test_a_record_leaves_out_a_choice_the_other_seat_has_not_matched():
    play = Playthrough(meeple.make("erd"), 4)
    player = play.state.to_act[0]
    play.play(player, play.state.legal_actions(player)[0])
    assert play.pending() == 1 and len(play.moves) == 1
    assert play.record().moves == []
    assert play.record(pending=True).moves == play.moves
    resumed = Playthrough.from_record(play.record())
    assert resumed.state == play.state.decision_start()
    assert set(resumed.state.to_act) == {0, 1}  # both seats are asked again


def test_a_complete_simultaneous_decision_is_recorded_whole():
    play = Playthrough(meeple.make("erd"), 4)
    for _ in range(2):
        player = play.state.to_act[0]
        play.play(player, play.state.legal_actions(player)[0])
    assert play.pending() == 0 and play.record().moves == play.moves


def test_a_record_leaves_out_a_choice_a_mulligan_followed_in_the_same_decision():
    """Tick picks, then Tock takes a Mulligan (no submission): both stay off a saved record,
    whose file must not hold Tick's secret pick while Tock still chooses; so does a game
    resumed from the whole record, or taken back to that point."""
    play = mulligan_after_a_pick()
    assert play.pending() == 2
    assert play.record().moves == play.moves[:2]
    resumed = Playthrough.from_record(play.record(pending=True))
    assert resumed.pending() == 2 and resumed.record().moves == play.moves[:2]
    play.play(1, play.state.legal_actions(1)[0])
    assert play.pending() == 0 and play.record().moves == play.moves


# -- saving over a file ---------------------------------------------------------------------
def test_saving_over_another_games_record_is_refused(tmp_path):
    path = tmp_path / "game.json"
    _played("edges", 3, seed=1).record().save(path)
    with pytest.raises(RecordError, match=r"holds another game .*--resume"):
        _played("edges", 3, seed=2).check_save_target(path)


def test_saving_over_a_file_that_is_not_a_record_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    with pytest.raises(RecordError, match="exists and is not a game record"):
        _played("edges", 0).check_save_target(path)


def test_saving_over_the_same_game_as_it_goes_on_is_allowed(tmp_path):
    path = tmp_path / "game.json"
    _played("edges", 3).record().save(path)
    _played("edges", 5).check_save_target(path)
    with pytest.raises(RecordError):
        _played("edges", 0).check_save_target(path)  # a new game over a game under way


# -- agent budgets --------------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["mcts", "ismcts"])
@pytest.mark.parametrize(
    "param",
    [
        "seconds=0",
        "seconds=-1",
        "seconds=inf",
        "seconds=nan",
        "seconds=1e400",
        "iterations=0",
        "iterations=-5",
        "c=nan",
        "c=-1",
        "rollout_limit=0",
        "mix_threshold=2",
    ],
)
def test_search_budgets_out_of_range_are_refused(agent, param):
    with pytest.raises(AgentSpecError, match=r"must be (a|above|from)"):
        make_agent(f"{agent}:{param}", meeple.make("edges"))


@pytest.mark.parametrize(
    ("game", "spec", "allowed"),
    [
        # A negative depth is the Edges solver's "no limit": a whole-game solve every move.
        ("edges", "perfect:depth=-2", "a whole number of at least 1"),
        ("edges", "perfect:depth=0", "a whole number of at least 1"),
        ("edges", "perfect:exact=-1", "a whole number of at least 0"),
        ("edges", "perfect:seconds=-1", "a number of seconds, 0 (off) or more"),
        ("erd", "heuristic:heavy=-0.1", "a number of at least 0"),
        ("erd", "heuristic:light=-1", "a number of at least 0"),
        ("erd", "heuristic:turret=-1", "a number of at least 0"),
        ("triangle_clock", "heuristic:item_cost=-1", "a number of at least 0"),
        ("triangle_clock", "heuristic:keep_weight=-1", "a number of at least 0"),
    ],
)
def test_agent_parameters_out_of_range_are_refused(game, spec, allowed):
    agent, param = spec.split(":")
    said = f"{agent}: {param.split('=')[0]} must be {allowed}, not"
    with pytest.raises(AgentSpecError, match=f"^{re.escape(said)}"):
        make_agent(spec, meeple.make(game))


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("edges", "perfect:exact=0,depth=1,seconds=0"),
        ("erd", "heuristic:heavy=0,light=0,turret=0"),
        ("triangle_clock", "heuristic:item_cost=0,keep_weight=0,mulligan_below=-3"),
    ],
)
def test_the_edge_of_each_range_is_accepted(game, spec):
    make_agent(spec, meeple.make(game))


def test_a_sensible_budget_is_accepted():
    agent = make_agent("mcts:seconds=0.01,iterations=5", meeple.make("edges"))
    assert agent.seconds == 0.01 and agent.iterations == 5


# -- fuzz -----------------------------------------------------------------------------------
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_BASE = _record_dict()


@st.composite
def _mutated_records(draw: st.DrawFn) -> str | bytes:
    data = json.loads(json.dumps(_BASE))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from([*data, "moves", "content", "extra"]))
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(_JSON)
    if draw(st.booleans()) and isinstance(data.get("moves"), list) and data["moves"]:
        k = draw(st.integers(0, len(data["moves"]) - 1))
        data["moves"][k] = draw(_JSON)
    text = json.dumps(data).encode("utf-8")
    if draw(st.booleans()):
        k = draw(st.integers(0, len(text) - 1))
        text = text[:k] + bytes([draw(st.integers(0, 255))]) + text[k + 1 :]
    return text if draw(st.booleans()) else text.decode("utf-8", "replace")


@pytest.mark.fuzz
@settings(deadline=None)
@given(_mutated_records())
def test_fuzz_a_record_either_replays_or_is_a_record_error(text):
    try:
        record = GameRecord.from_json(text)
        record.replay()
    except RecordError:
        pass


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not", "not JSON: Expecting property name"),
        ("[" * 3000, "nested too deeply to be read"),
        ("9" * 5000, "a number has too many digits"),
        ('["\\ud800"]', r"U\+D800 is a lone surrogate"),
        ('{"\\udfff": 1}', r"U\+DFFF is a lone surrogate"),
        ('["\\ude00\\ud83d"]', r"U\+DE00 is a lone surrogate"),
        ('{"n": 3, "n": 5}', "the key 'n' is given twice in one object"),
        ('[{"a": {"x": 1, "y": 2, "x": 1}}]', "the key 'x' is given twice in one object"),
    ],
)
def test_json_from_outside_is_read_or_refused_saying_why(text, says):
    from meeple.core.files import Unreadable, parse_json

    assert parse_json('{"a": [1, 2]}') == {"a": [1, 2]}
    assert parse_json('["\\ud83d\\ude00", "\\\\ud800"]') == ["\U0001f600", "\\ud800"]
    with pytest.raises(Unreadable, match=says):
        parse_json(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a = ", "not TOML: Invalid value"),
        ("a = " + "[" * 3000, "nested too deeply to be read"),
        ("a = " + "9" * 5000, "a number has too many digits"),
    ],
)
def test_toml_from_outside_is_read_or_refused_saying_why(text, says):
    from meeple.core.files import Unreadable, parse_toml

    assert parse_toml("a = [1, 2]") == {"a": [1, 2]}
    with pytest.raises(Unreadable, match=says):
        parse_toml(text)
