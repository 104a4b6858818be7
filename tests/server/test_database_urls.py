"""A database URL as a host hands it out: ``postgres://`` is read as PostgreSQL, and its
password is never printed, logged or written into a report or the results database."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from meeple.interfaces.web.client import free_port
from meeple.store.db import open_engine, sqlite_file
from meeple.store.urls import hide_password, normalized

SECRET = "s3cret-Pa55"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("postgresql://meeple:pw@db:5432/m", "postgresql://meeple:***@db:5432/m"),
        ("postgresql+psycopg://u:p@h/x", "postgresql+psycopg://u:***@h/x"),
        ("meeple simulate edges --db=postgres://u:p@h/x", "meeple simulate edges --db=postgres://u:***@h/x"),
        ("cannot open postgres://u:p@h/x: refused", "cannot open postgres://u:***@h/x: refused"),
        ("postgresql://u@h/x", "postgresql://u@h/x"),
        ("sqlite:///results/server.db", "sqlite:///results/server.db"),
        ("http://127.0.0.1:8000/play/x", "http://127.0.0.1:8000/play/x"),
    ],
)  # fmt: skip
def test_a_password_in_a_url_is_written_as_stars(text, shown):
    assert hide_password(text) == shown


def test_postgres_is_postgresql():
    assert normalized("postgres://u@h/x") == "postgresql://u@h/x"
    assert normalized("postgres+psycopg://u@h/x") == "postgresql+psycopg://u@h/x"
    assert normalized("postgresql://u@h/x") == "postgresql://u@h/x"
    assert normalized("sqlite:///postgres.db") == "sqlite:///postgres.db"


def test_a_hosts_url_is_opened_as_postgresql_and_the_refusal_hides_its_password(run):
    """``postgres://`` was answered 'no database driver' (SQLAlchemy dropped the spelling),
    with the password in the message."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        url = f"postgres://meeple:{SECRET}@127.0.0.1:{port}/x"
        served = run("serve", "--db", url, "--port", str(free_port()))
        simulated = run("results", "--db", url)
    for result in (served, simulated):
        assert result.exit_code != 0
        assert f"cannot open postgresql://meeple:***@127.0.0.1:{port}/x" in result.output
        assert SECRET not in result.output and "Traceback" not in result.output


@pytest.fixture
def secret_url(postgres) -> str:
    """A fresh PostgreSQL database, named as a host would hand it out, with a password
    (the cluster trusts its loopback clients, so any password is let in)."""
    if postgres is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the PostgreSQL tests, but no cluster could be started")
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
    url = postgres.new_database()
    return url.replace("postgresql+psycopg://postgres@", f"postgres://postgres:{SECRET}@")


def test_no_password_reaches_a_report_the_results_or_a_server_s_log(
    run, secret_url, server_factory, tmp_path, monkeypatch
):
    out = tmp_path / "out"
    command = [
        "simulate", "edges", "--board", "2x2", "--seat", "random", "--seat", "random",
        "--games", "2", "--db", secret_url, "--out", str(out),
    ]  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["meeple", *command])  # the command line a run notes
    simulated = run(*command)
    assert simulated.exit_code == 0, simulated.output
    listed = run("results", "--db", secret_url)
    assert listed.exit_code == 0, listed.output
    assert "--db postgres://postgres:***@127.0.0.1" in " ".join(listed.output.split())
    written = [p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()]
    assert any("postgres://postgres:***@" in text for text in written)
    server = server_factory(secret_url)
    server.stop()
    log = server.log_path.read_text()
    assert "matches in postgres://postgres:***@127.0.0.1" in " ".join(log.split())
    for text in (simulated.output, listed.output, log, *written):
        assert SECRET not in text


def test_a_sqlite_uri_filename_makes_no_folder_named_file(run, tmp_path, monkeypatch):
    """``sqlite:///file:...?uri=true`` is SQLite's URI filename: the folder made for the
    database is its path's, and a read-only one (``mode=ro``) gets none. The URL's
    database was read as a plain path: a folder named ``file:`` appeared where meeple ran."""
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "missing" / "x.db"
    served = run(
        "serve", "--db", f"sqlite:///file:{missing}?mode=ro&uri=true", "--port", str(free_port())
    )
    assert served.exit_code != 0 and "unable to open database file" in served.output
    assert "Traceback" not in served.output
    assert not (tmp_path / "missing").exists()
    relative = "sqlite:///file:sub/x.db?uri=true"
    assert sqlite_file(relative) == Path("sub/x.db")
    assert sqlite_file("sqlite:///file::memory:?uri=true") is None
    assert sqlite_file("sqlite:///file:x.db?mode=memory&uri=true") is None
    with open_engine(relative).begin() as connection:
        connection.exec_driver_sql("create table t (x integer)")
    assert (tmp_path / "sub" / "x.db").is_file()
    # A plain path keeps its folder made.
    open_engine("sqlite:///plain/x.db").dispose()
    assert (tmp_path / "plain").is_dir()
    assert not list(tmp_path.glob("file:*"))
