"""The tests' servers are forked from one Python that has imported the server
(tests/forked_servers.py), except where a fork could not give the server what a new Python
would: those start the installed script, as a test marked ``started_by_exec`` does."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests import plain_http
from tests.processes import parent


def test_a_server_is_forked_and_answers_stops_and_says_how_it_ended(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    forker = parent(server.proc.pid)
    assert forker != os.getpid()
    assert "meeple serve" in Path(f"/proc/{forker}/cmdline").read_text().replace("\0", " ")
    assert os.getpgid(server.proc.pid) == server.proc.pid  # a session of its own
    assert plain_http.get(f"{server.url}/api/games", timeout=10).status_code == 200
    assert server.proc.poll() is None
    assert server.log_path.read_text().startswith("meeple server on")
    assert server.terminate(timeout=20) < 20
    assert server.proc.returncode in (0, -signal.SIGTERM)
    again = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    os.kill(again.proc.pid, signal.SIGKILL)
    assert again.proc.wait(timeout=10) == -signal.SIGKILL


def test_an_environment_read_at_start_gets_a_new_python(server_factory, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONWARNINGS", "default")  # read as the interpreter starts
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    assert parent(server.proc.pid) == os.getpid()


@pytest.mark.started_by_exec
def test_a_marked_test_s_server_is_the_installed_script_in_a_new_python(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    assert parent(server.proc.pid) == os.getpid()
    command = Path(f"/proc/{server.proc.pid}/cmdline").read_text().split("\0")
    assert command[1].endswith("/meeple") and command[2] == "serve"
