"""``meeple serve`` refuses what it cannot do with one clear line, never a traceback."""

from __future__ import annotations

import socket


def test_a_bad_database_url_is_explained(run, tmp_path):
    result = run("serve", "--db", "nonsense")
    assert result.exit_code == 2
    assert "error: 'nonsense' is not a database URL; write sqlite:///" in result.output
    assert "Traceback" not in result.output


def test_an_unreachable_database_is_explained(run):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        result = run("serve", "--db", f"postgresql+psycopg://nobody@127.0.0.1:{port}/x")
    assert result.exit_code == 2
    assert "error: cannot open postgresql+psycopg://nobody@127.0.0.1" in result.output


def test_a_port_in_use_is_explained(run, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        result = run("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert result.exit_code == 2
    assert f"error: cannot listen on 127.0.0.1:{port}" in result.output
    assert "--port" in result.output


def test_an_address_not_on_this_machine_is_explained(run, tmp_path):
    # 192.0.2.1 is reserved for documentation (RFC 5737): no machine has it.
    result = run("serve", "--host", "192.0.2.1", "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert result.exit_code == 2
    assert "error: cannot listen on 192.0.2.1:" in result.output
    assert "--host takes an address of this machine" in result.output
