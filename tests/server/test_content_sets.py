"""Designers' data reaches a server match only as a set the operator installed, by name."""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from meeple.core.designer import copy_data
from meeple.core.registry import make
from meeple.interfaces.web.client import Client, free_port
from meeple.interfaces.web.content_sets import ContentSets
from tests import plain_http


def install(tmp_path):
    """A content folder with one Erosion set whose first card is weakened, and one Squad
    Combat set as shipped."""
    folder = tmp_path / "content"
    copy_data("erosion", folder / "erosion" / "weak")
    cards = folder / "erosion" / "weak" / "cards.json"
    data = json.loads(cards.read_text())
    data["cards"][0]["process"]["n"] = 1
    cards.write_text(json.dumps(data))
    copy_data("squad-combat", folder / "squad-combat" / "demo")
    return folder


def test_a_match_plays_an_installed_set_by_name_and_never_shows_its_path(server_factory, tmp_path):
    folder = install(tmp_path)
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1, "--content", str(folder))
    games = {g["name"]: g for g in plain_http.get(f"{server.url}/api/games").json()}
    assert games["erosion"]["content_sets"] == ["weak"]
    assert games["squad-combat"]["content_sets"] == ["demo"]
    assert games["edges"]["content_sets"] == []
    body = {"game": "erosion", "options": {"cards": "set:weak"}, "seats": ["human", "random"]}
    created = plain_http.post(f"{server.url}/api/matches", json=body)
    assert created.status_code == 200, created.text
    match = created.json()["match"]
    summary = plain_http.get(f"{server.url}/api/matches/{match}").text
    assert "set:weak" in summary and str(folder) not in summary

    async def play() -> None:
        me = await Client(server.url, match, created.json()["seats"][0]["token"]).connect()
        assert me.state["options"]["cards"] == "set:weak"
        # Both seats move, the computer's in a worker process that reads the set too (the
        # server draws the seed: two passes in a row may end the game sooner).
        played = await me.play_random(random.Random(1), moves=4)
        assert played == 4 or me.state["status"] == "finished"
        assert {e["seat"] for e in me.log} == {0, 1}, me.log
        assert not me.errors
        assert str(folder) not in json.dumps(me.messages)
        await me.close()

    asyncio.run(play())


def test_a_set_match_s_record_pins_the_set_and_replays_with_its_files_only(
    server_factory, tmp_path, run
):
    """A finished set match's record names the set and pins its files' digest: at the
    terminal it is refused without them (saying whose they are), replayed with them, and
    refused with other files (the shipped cards)."""
    folder = install(tmp_path)
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(folder))
    body = {"game": "erosion", "options": {"cards": "set:weak"}, "seats": ["human", "random"]}
    created = plain_http.post(f"{server.url}/api/matches", json=body).json()
    token = plain_http.take_seat(server.url, created["match"], created["seats"][0]["token"])
    resigned = plain_http.post(
        f"{server.url}/api/matches/{created['match']}/resign", json={"token": token}
    )
    assert resigned.status_code == 200, resigned.text
    record = plain_http.get(f"{server.url}/api/matches/{created['match']}/record").json()
    set_file = folder / "erosion" / "weak" / "cards.json"
    assert record["options"] == {"cards": "set:weak"}
    assert record["content"] == make("erosion", cards=str(set_file)).options.content_digests()
    # The replay page uploads the record as served: the server replays it on its set.
    replayed = plain_http.post(f"{server.url}/api/replay", json=record, timeout=60)
    assert replayed.status_code == 200 and replayed.json()["result"]["resigned"] == [0]
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(record))
    refused = run("replay", str(saved), "--all")
    assert (
        refused.exit_code == 2
        and "played on a game server's content set (cards='set:weak')" in (refused.output)
    ), refused.output
    assert "ask its operator for them" in refused.output and "--cards PATH" in refused.output
    replayed = run("replay", str(saved), "--all", "--cards", str(set_file))
    assert replayed.exit_code == 0, replayed.output
    # The match ended before its game did, as its result says, not "not over".
    moves = len(record["moves"])
    ended = (
        f"The match ended after {moves} move{'s' * (moves != 1)}, before its game did: "
        "Alps (seat 0) resigned; Andes (seat 1) won."
    )
    assert ended in " ".join(replayed.output.split()), replayed.output
    copy_data("erosion", tmp_path / "shipped")
    other = run("replay", str(saved), "--all", "--cards", str(tmp_path / "shipped" / "cards.json"))
    assert other.exit_code == 2 and "changed since this record was made" in other.output, (
        other.output
    )


def test_a_set_not_installed_is_refused_naming_those_that_are_and_a_path_still_is(
    server_factory, tmp_path
):
    folder = install(tmp_path)
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(folder))
    for value, words in (
        ("set:strong", "no content set 'strong' is installed on this server; installed for "
         "erosion: set:weak"),
        # A path is refused naming what may be asked for instead.
        (str(folder / "erosion" / "weak" / "cards.json"), "names a file"),
        ("/etc/passwd", "play the content that ships with meeple, or a set installed on "
         "this server, by name: set:weak"),
    ):  # fmt: skip
        body = {"game": "erosion", "options": {"cards": value}, "seats": ["human", "random"]}
        refused = plain_http.post(f"{server.url}/api/matches", json=body)
        assert refused.status_code == 400, refused.text
        assert set(refused.json()) == {"error", "code"} and words in refused.json()["error"]


def test_a_refused_option_names_the_set_or_the_shipped_content_never_a_path(
    server_factory, tmp_path
):
    """A deck the content lacks is refused naming where it was looked for, as the client
    knows it: ``set:demo``, or the shipped content; the server's folders stay its own."""
    folder = install(tmp_path)
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(folder))
    for options, where in (
        ({"content": "set:demo", "decks": "iron-lin"}, "no deck 'iron-lin' in set:demo (did"),
        ({"decks": "alpa"}, "no deck 'alpa' in the shipped content; the ids are: iron-line"),
    ):
        body = {"game": "squad-combat", "options": options, "seats": ["human", "random"]}
        refused = plain_http.post(f"{server.url}/api/matches", json=body)
        assert refused.status_code == 400, refused.text
        error = refused.json()["error"]
        assert where in error and "/" not in error, error
    # An uploaded record whose set's files do not match its digest is refused naming the set.
    record = {"game": "erosion", "options": {"cards": "set:weak"}, "seed": 1, "moves": [],
              "content": {"cards": "sha256:" + "0" * 64}}  # fmt: skip
    refused = plain_http.post(f"{server.url}/api/replay", json=record, timeout=60)
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert "the content set:weak" in error and "changed since" in error, error
    assert str(folder) not in error and str(folder.resolve()) not in error, error


def test_the_cards_and_rules_of_a_match_s_set_are_the_set_s_own(server_factory, tmp_path):
    """A page draws a match's cards from ``/api/games/{game}/cards?options=`` with the
    match's options: the weakened card is shown as the set has it (the page drew the shipped
    card, which the match does not play), and the Rules panel of an uploaded record naming
    the set is answered instead of refused as a file."""
    folder = install(tmp_path)
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(folder))

    def get(path: str, options: dict | None = None) -> httpx.Response:
        query = {"options": json.dumps(options)} if options is not None else None
        return plain_http.get(f"{server.url}{path}", params=query, timeout=30)

    shipped = get("/api/games/erosion/cards").json()
    weak = get("/api/games/erosion/cards", {"cards": "set:weak"})
    assert weak.status_code == 200, weak.text
    assert shipped[0]["id"] == weak.json()[0]["id"]
    assert shipped[0]["process"]["n"] > 1 and weak.json()[0]["process"]["n"] == 1
    rules = get("/api/games/erosion/rules", {"cards": "set:weak"})
    assert rules.status_code == 200 and rules.json()["game"] == "erosion", rules.text
    for path in ("/api/games/erosion/cards", "/api/games/erosion/rules"):
        for options, words in (
            ({"cards": "set:strong"}, "no content set 'strong' is installed on this server"),
            ({"cards": str(folder / "erosion" / "weak" / "cards.json")}, "names a file"),
        ):
            refused = get(path, options)
            assert refused.status_code == 400, refused.text
            assert words in refused.json()["error"], refused.text
        assert str(folder) not in get(path, {"cards": "set:weak"}).text


def test_a_set_s_own_deck_is_checked_against_the_set(server_factory, tmp_path):
    """A deck only the installed set has is a deck the match may ask for: the options are
    checked against the data the game will read, not the shipped content."""
    folder = install(tmp_path)
    decks = folder / "squad-combat" / "demo" / "decks.toml"
    decks.write_text(decks.read_text().replace("[iron-line", "[my-line"))
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(folder))
    options = {"content": "set:demo", "decks": "my-line"}
    body = {"game": "squad-combat", "options": options, "seats": ["human", "random"]}
    created = plain_http.post(f"{server.url}/api/matches", json=body)
    assert created.status_code == 200, created.text


def test_a_broken_set_stops_the_server_from_starting_with_one_line_each(run, tmp_path):
    folder = install(tmp_path)
    cards = folder / "erosion" / "weak" / "cards.json"
    data = json.loads(cards.read_text())
    data["cards"][1]["rock"] = "granit"
    cards.write_text(json.dumps(data))
    (folder / "chess").mkdir()
    result = run(
        "serve", "--content", str(folder), "--db", f"sqlite:///{tmp_path / 's.db'}",
        "--port", str(free_port()),
    )  # fmt: skip
    assert result.exit_code == 2
    assert "the content sets cannot be served" in result.output
    assert "card WX02, field rock" in result.output
    assert "chess: not a game with data" in result.output
    assert "Traceback" not in result.output


def test_a_content_folder_that_is_a_file_or_unreadable_is_one_line(run, tmp_path, monkeypatch):
    from pathlib import Path

    file = tmp_path / "cards.json"
    file.write_text("{}")
    db = f"sqlite:///{tmp_path / 's.db'}"
    result = run("serve", "--content", str(file), "--db", db, "--port", str(free_port()))
    assert result.exit_code == 2, result.output
    assert f"--content {file}: a file, not a folder" in result.output
    folder = install(tmp_path)

    def refused(self):
        # What listing a folder of mode 0700 that another user owns raises (root reads all).
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", refused)
    result = run("serve", "--content", str(folder), "--db", db, "--port", str(free_port()))
    assert result.exit_code == 2, result.output
    assert f"--content {folder}: cannot read {folder}: Permission denied" in result.output
    assert "Traceback" not in result.output


def test_a_set_edited_while_the_server_runs_changes_nothing_until_it_starts_again(tmp_path):
    """A match, its page's cards and its agents' workers read the set as the server started
    with it: an edit mid-match would otherwise give the page and the agents other numbers
    than the match plays."""
    folder = install(tmp_path)
    sets = ContentSets(folder)
    cards = folder / "erosion" / "weak" / "cards.json"
    data = json.loads(cards.read_text())
    data["cards"][0]["process"]["n"] = 5
    cards.write_text(json.dumps(data))
    game = make("erosion", **sets.resolve("erosion", {"cards": "set:weak"}))
    assert game.catalog.cards[0].process.n == 1
    sets.close()


def test_a_match_whose_set_was_edited_between_two_starts_is_set_aside_naming_the_set(
    server_factory, tmp_path
):
    """A restarted server does not replay a match on a set edited since the match began
    (its moves would play other numbers than its players saw): the match is set aside,
    naming the set and not its path, until the set is as it was; matches of the shipped
    data and of other sets are served as ever."""
    folder = install(tmp_path)
    db = f"sqlite:///{tmp_path / 's.db'}"
    server = server_factory(db, 1, "--content", str(folder))
    matches = {}
    for name, options in (("weak", {"cards": "set:weak"}), ("shipped", {})):
        body = {"game": "erosion", "options": options, "seats": ["human", "human"]}
        matches[name] = plain_http.post(f"{server.url}/api/matches", json=body).json()["match"]
    server.stop()
    cards = folder / "erosion" / "weak" / "cards.json"
    as_it_was = cards.read_bytes()
    data = json.loads(as_it_was)
    data["cards"][0]["process"]["n"] = 2
    cards.write_text(json.dumps(data))

    server = server_factory(db, 1, "--content", str(folder))
    aside = plain_http.get(f"{server.url}/api/matches/{matches['weak']}")
    assert aside.status_code == 503 and aside.json()["code"] == "match_unavailable"
    # Not listed for players to click into (it was, answered with a 500).
    live = [m["match"] for m in plain_http.get(f"{server.url}/api/matches?status=live").json()]
    assert matches["weak"] not in live and matches["shipped"] in live
    said = aside.json()["error"]
    assert "cards=set:weak" in said and "edited since the match began" in said, said
    assert str(folder) not in aside.text and "meeple-sets" not in aside.text
    assert plain_http.get(f"{server.url}/api/matches/{matches['shipped']}").status_code == 200
    server.stop()

    cards.write_bytes(as_it_was)
    server = server_factory(db, 1, "--content", str(folder))
    served = plain_http.get(f"{server.url}/api/matches/{matches['weak']}")
    assert served.status_code == 200 and served.json()["options"] == {"cards": "set:weak"}


def test_a_server_stopped_leaves_no_copy_of_its_sets(server_factory, tmp_path, monkeypatch):
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the server's copies go here
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 0, "--content", str(install(tmp_path))
    )
    assert list(temp.glob("meeple-sets-*"))
    assert server.stop() is not None
    assert not list(temp.glob("meeple-sets-*"))
