"""Strangers' input (issue 53), against a real server process: no option of a client's
names a file the server reads, every refusal is ``{"error", "code"}``, every bad message
is answered, and none of it leaves a traceback in the log."""

from __future__ import annotations

import httpx
import pytest

from meeple.interfaces.web.client import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("untrusted")
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log").start()
    server.folder = folder
    yield server
    server.kill()


def _log(server) -> str:
    return server.log_path.read_text(errors="replace")


def _record(game: str, **options) -> dict:
    return {"format": "meeple-record/1", "game": game, "options": options, "seed": 1, "moves": []}


@pytest.mark.parametrize(
    ("game", "option", "path"),
    [
        ("triangle-clock", "ranking", "/etc/passwd"),
        ("triangle-clock", "ranking", "/proc/self/environ"),
        ("triangle-clock", "ranking", "/dev/zero"),
        ("triangle-clock", "ranking", "/no/such/file"),
        ("squad-combat", "content", "/etc"),
    ],
)
def test_a_replayed_record_cannot_make_the_server_read_its_files(server, game, option, path):
    reply = httpx.post(f"{server.url}/api/replay", json=_record(game, **{option: path}))
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert f"option {option!r}" in error and "names a file" in error
    # Nothing about the file: whether it exists, or what parsing it said.
    for leak in ("TOML", "root:", "cannot read", "missing", "No such"):
        assert leak not in reply.text
    reply = httpx.post(f"{server.url}/api/matches", json={"game": game, "options": {option: path}})
    assert reply.status_code == 400 and "names a file" in reply.json()["error"]
