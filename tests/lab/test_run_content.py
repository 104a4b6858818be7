"""A run is keyed by what the files its options name hold: an edit makes a new run, and a
run is never extended with games of other files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.core.options import content_digest, describe_options
from meeple.core.registry import game_class, make
from meeple.games.squad_combat.content import FILES, demo_folder
from meeple.interfaces.cli import app
from meeple.lab.run import RunSpec, execute
from meeple.lab.simulate import ContentChanged, _setting, run_jobs
from meeple.store import ResultStore

TABLE = Path(__file__).resolve().parents[2] / "src/meeple/games/triangle_clock/ranking.toml"


def _runs(output: str) -> list[str]:
    return re.findall(r"Run ([0-9a-f]{12}): rows", output)


def _rows(out: Path, key: str) -> list[dict]:
    path = out / f"triangle-clock-{key}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_ranking_table_edited_in_place_makes_the_next_simulate_a_new_run(tmp_path):
    table = tmp_path / "ranking.toml"
    shutil.copy(TABLE, table)
    runner = CliRunner()
    out = tmp_path / "out"
    command = ["simulate", "triangle-clock", "--ranking", str(table), "-n", "4", "--seat",
               "random", "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(out)]  # fmt: skip
    first = runner.invoke(app, command)
    assert first.exit_code == 0, first.output
    [old_key] = _runs(first.output)
    old = _rows(out, old_key)
    assert all(sum(r["scores"]) < 500 for r in old)  # 32 rounds of at most 10 points
    # Every hand's strength (the points its loss gives the winner) raised by 500.
    text = table.read_text()
    table.write_text(re.sub(r"strength = (\d+)", lambda m: f"strength = {int(m[1]) + 500}", text))

    second = runner.invoke(app, [*command[:5], "8", *command[6:]])  # more games, too
    assert second.exit_code == 0, second.output
    [new_key] = _runs(second.output)
    assert new_key != old_key
    assert f"Run {old_key} (4 games) is the same command on other files" in second.output
    assert "ranking.toml changed" in second.output
    new = _rows(out, new_key)
    assert len(new) == 8  # all played now, none pooled from the old run
    assert {json.dumps(r["content"]) for r in new} == {
        json.dumps({"ranking": content_digest([table])})
    }
    assert any(sum(r["scores"]) >= 500 for r in new)  # scored by the new table
    assert {json.dumps(r["content"]) for r in old} != {json.dumps(r["content"]) for r in new}


@pytest.fixture
def content(tmp_path):
    folder = tmp_path / "content"
    folder.mkdir()
    for name in FILES.values():
        folder.joinpath(name).write_text(demo_folder().joinpath(name).read_text("utf-8"))
    return folder


def _spec(folder: Path) -> RunSpec:
    return RunSpec(
        kind="simulate",
        game="squad-combat",
        options={"content": str(folder)},
        seatings=[["random", "random"]],
        seed=3,
    )


def test_an_edited_content_folder_is_a_new_run_and_the_old_one_is_not_extended(tmp_path, content):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    before = _spec(content)
    assert before.key != _spec(content).model_copy(update={"content": {}}).key
    assert before.key == _spec(content).key  # the same files: the same run
    rows = execute(before, 2, store)
    assert {r["content"]["content"] for r in rows} == {before.content["content"]}

    cards = content / "cards.toml"
    cards.write_text(cards.read_text() + "\n# an edit\n")
    after = _spec(content)
    assert after.key != before.key
    assert after.content["content"] == content_digest([content / n for n in FILES.values()])
    fresh = execute(after, 2, store)
    assert {r["content"]["content"] for r in fresh} == {after.content["content"]}

    # The old spec asks for more games of its old files: refused, naming the file, before
    # anything is played or forgotten (--fresh included).
    for fresh_too in (False, True):
        with pytest.raises(ContentChanged) as refused:
            execute(before, 4, store, fresh=fresh_too)
        message = str(refused.value)
        assert f"run {before.key} is not extended" in message
        assert f"option 'content': {cards} changed" in message
        assert "decks.toml" not in message  # only the file that changed is named
        assert "Run the command again to start a new run" in message
        assert len(store.rows(before.key)) == 2


def test_a_worker_refuses_files_edited_after_the_run_was_set_up(content):
    spec = _spec(content)
    jobs = [spec.job(k) for k in range(2)]
    decks = content / "decks.toml"
    decks.write_text(decks.read_text() + "\n")
    with pytest.raises(ContentChanged, match="option 'content' changed since the run was set up"):
        list(run_jobs(jobs, "serial"))


def test_a_run_whose_files_change_as_it_starts_stops_and_says_which(tmp_path, content):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = _spec(content)
    execute(spec, 1, store)
    decks = content / "decks.toml"

    def edit_once(row):
        # After the check before the run, before a worker builds the game: as a fresh
        # worker process would, this one has no game built yet.
        if row["index"] == 0:
            decks.write_text(decks.read_text() + "\n")
            _setting.cache_clear()

    with pytest.raises(ContentChanged) as refused:
        execute(spec, 3, store, on_row=edit_once)
    assert f"option 'content': {decks} changed" in str(refused.value)
    assert len(store.rows(spec.key)) == 1  # nothing played on the edited files


def test_a_run_made_before_runs_recorded_their_files_is_named_not_extended(tmp_path, content):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = _spec(content)
    old_spec = spec.model_dump(mode="json", exclude={"content", "files"})  # as stored before
    old = RunSpec.stored(old_spec)
    assert old.content == {} and old.key != spec.key
    store.ensure_run(old.key, "simulate", "squad-combat", old_spec)
    played = execute(spec, 2, ResultStore(f"sqlite:///{tmp_path / 'x.db'}"))
    store.add_rows(old.key, [{k: v for k, v in r.items() if k != "content"} for r in played])
    with pytest.raises(ContentChanged, match="was not recorded when the run was made"):
        execute(old, 4, store)
    assert len(store.rows(old.key)) == 2

    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "simulate", "squad-combat", "--content", str(content), "-n", "2", "--seat", "random",
        "--seed", "3", "--db", store.url, "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Run {old.key} (2 games) is the same command on other files" in result.output
    assert "was not recorded" in result.output
    assert _runs(result.output) == [spec.key]


def test_the_word_default_names_the_shipped_data_so_a_variant_can_use_it(tmp_path, content):
    shipped = make("squad-combat", content="Default")
    assert shipped.options.content is None and shipped.options.changed() == {}
    assert make("triangle-clock", ranking=" default ").options.ranking is None
    infos = describe_options(game_class("squad-combat").Options)
    [info] = [i for i in infos if i.name == "content"]
    assert info.allowed.startswith("default | a folder path") and "the word default" in info.help
    runner = CliRunner()
    common = ["-n", "2", "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]
    result = runner.invoke(app, ["compare", "squad-combat", "--variant", "content=default",
                                 "--variant", f"content={content}", *common])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "content=default" in result.output
    [report] = tmp_path.glob("compare-squad-combat-*/report.md")
    assert "content=default: run `" in report.read_text()
    assert f"content={content}: run `" in report.read_text()
    same = runner.invoke(app, ["compare", "squad-combat", "--variant", "content=default",
                               "--variant", "content=none", *common])  # fmt: skip
    assert same.exit_code != 0 and "are the same rules" in same.output


def test_the_lab_and_the_terminal_note_decks_of_different_sizes_before_they_play(tmp_path, content):
    decks = content / "decks.toml"
    decks.write_text(decks.read_text().replace("slash = 8", "slash = 9", 1))
    note = "Note: the decks differ in size (iron-line 31 cards, shadow-circle 30 cards"
    result = CliRunner().invoke(app, [
        "simulate", "squad-combat", "--content", str(content), "-n", "2", "--seat", "random",
        "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out")])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert note in " ".join(result.output.split())
    assert "Run " in result.output  # a note, not an error: the games are played
    result = CliRunner().invoke(app, [
        "play", "squad-combat", "--content", str(content), "--seat", "random", "--seat",
        "random", "--seed", "1", "--quiet"])  # fmt: skip
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    assert note in " ".join(result.output.split())


def test_two_reports_of_one_folder_edited_between_them_name_their_files_apart(tmp_path, content):
    """Both reports are titled with the folder's name; the files' digest tells them apart."""
    out = tmp_path / "out"
    command = ["simulate", "squad-combat", "--content", str(content), "-n", "2", "--seat",
               "random", "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(out)]  # fmt: skip
    reports = []
    for damage in ("2", "3"):
        cards = content / "cards.toml"
        cards.write_text(re.sub(r"damage = \d", f"damage = {damage}", cards.read_text(), count=1))
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0, result.output
        [key] = _runs(result.output)
        digest = content_digest([content / name for name in FILES.values()])
        report = (out / f"squad-combat-{key}" / "report.md").read_text()
        assert f"Run `{key}`; files read, by digest: content {digest[7:19]}" in report
        reports.append(report)
    assert reports[0] != reports[1]


def test_a_run_s_games_replay_after_its_files_are_edited_from_the_copy_it_kept(tmp_path, content):
    """lab.md says every game of a run replays; an edit to the folder (lab.md's own way of
    trying a change) stopped every earlier run's replay and `meeple cards` with "changed
    since this record was made; restore it", the files nowhere to restore from. The results
    database keeps a copy of what the run read, checked by its digest before it is used."""
    from sqlalchemy import update

    from meeple.store.results import ContentFile

    db = f"sqlite:///{tmp_path / 'r.db'}"
    store = ResultStore(db)
    spec = _spec(content)
    execute(spec, 3, store)
    cards = content / "cards.toml"
    cards.write_text(cards.read_text().replace("damage = 2", "damage = 5"))
    runner = CliRunner()
    replayed = runner.invoke(app, ["replay", spec.key, "--game", "1", "--all", "--db", db])
    said = " ".join(replayed.output.split())
    assert replayed.exit_code == 0, replayed.output
    assert "it replays to the result the run counted (its files as the run read them" in said
    assert f"--content {content} " in said  # named as the run named it, not the copy
    counted = runner.invoke(app, ["cards", spec.key, "--db", db])
    assert counted.exit_code == 0 and "Never played:" in counted.output, counted.output
    assert cards.read_text().count("damage = 5")  # the designer's edit is left alone

    # A copy whose bytes are not the files' digest is not used: the replay refuses as before.
    with store.engine.begin() as connection:
        connection.execute(update(ContentFile).values(data=b"not the file"))
    refused = runner.invoke(app, ["replay", spec.key, "--game", "1", "--all", "--db", db])
    assert refused.exit_code == 2 and "changed since this record was made" in refused.output


def _ranking_spec(table: Path) -> RunSpec:
    """A run of The Triangle Clock on the ranking table ``table`` (a file option)."""
    return RunSpec(
        kind="simulate",
        game="triangle-clock",
        options={"ranking": str(table)},
        seatings=[["random", "random"]],
    )


def test_a_kept_copy_s_name_is_a_file_s_name_or_it_is_not_used(tmp_path):
    """The name comes back from the database: one that is a path is not written, though the
    copy digests to what the row pins (a database written by someone else)."""
    from meeple.core.options import digest_of
    from meeple.lab.replay import as_played

    table = tmp_path / "ranking.toml"
    shutil.copy(TABLE, table)
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = _ranking_spec(table)
    [row] = execute(spec, 1, store)
    table.write_text("# edited\n")
    with as_played(store, [row]) as (played,):
        restored = Path(played["options"]["ranking"])
        assert restored.name == "ranking.toml" and restored.read_bytes() == TABLE.read_bytes()
    outside = [("../../escaped.toml", TABLE.read_bytes())]
    store.keep_content(digest_of(outside), outside)
    with as_played(store, [dict(row, content={"ranking": digest_of(outside)})]) as (played,):
        assert played["options"] == row["options"]  # not restored
    assert not list(tmp_path.parent.rglob("escaped.toml"))


def test_a_file_whose_name_is_no_text_is_played_and_not_kept(tmp_path):
    """The database holds names as text: a name of bytes the system could not decode (a
    surrogate in Python) would fail the run as it began; it plays, with no copy kept."""
    import os

    table = tmp_path / os.fsdecode(b"r\xffnking.toml")
    shutil.copy(TABLE, table)
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = _ranking_spec(table)
    assert len(execute(spec, 1, store)) == 1
    assert store.kept_content(spec.content["ranking"]) is None
