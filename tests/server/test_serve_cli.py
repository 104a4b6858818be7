"""``meeple serve`` refuses what it cannot do with one clear line, never a traceback."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest

from meeple.interfaces import serve_cli
from meeple.interfaces.web.client import free_port

# Each command names a free port: the default one (8000) may be another program's, and
# the port is tried before the database, so the refusal would be the port's.


def test_a_bad_database_url_is_explained(run, tmp_path):
    result = run("serve", "--db", "nonsense", "--port", str(free_port()))
    assert result.exit_code == 2
    assert "error: 'nonsense' is not a database URL; write sqlite:///" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:"])
def test_an_in_memory_database_is_refused(run, url):
    # Each connection would see its own empty database: the server failed its start-up.
    result = run("serve", "--db", url, "--port", str(free_port()))
    assert result.exit_code == 2, result.output
    assert "error: an in-memory SQLite database keeps no match" in result.output
    assert "Traceback" not in result.output


def test_an_unreachable_database_is_explained(run):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        result = run(
            "serve",
            "--db",
            f"postgresql+psycopg://nobody@127.0.0.1:{port}/x",
            "--port",
            str(free_port()),
        )
    assert result.exit_code == 2
    assert "error: cannot open postgresql+psycopg://nobody@127.0.0.1" in result.output
    # psycopg's hint is on a line of its own after a tab: joined, not shown as an escape.
    assert "Connection refused Is the server running" in result.output, result.output
    assert "\\x09" not in result.output, result.output


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


def test_a_sqlite_busy_wait_is_read_from_the_url(tmp_path):
    from meeple.store.db import open_engine

    def waits(url: str) -> int:
        connection = open_engine(url).raw_connection()
        try:
            return connection.execute("PRAGMA busy_timeout").fetchone()[0]
        finally:
            connection.close()

    assert waits(f"sqlite:///{tmp_path / 'a.db'}") == 30_000
    assert waits(f"sqlite:///{tmp_path / 'b.db'}?timeout=2") == 2_000


def test_a_bad_sqlite_busy_wait_is_explained(run, tmp_path):
    result = run(
        "serve", "--db", f"sqlite:///{tmp_path / 's.db'}?timeout=soon", "--port", str(free_port())
    )
    assert result.exit_code == 2
    assert "timeout='soon'" in result.output and "not a number of seconds" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("flag", "value", "most"),
    [("--ipv6-prefix", "129", "128"), ("--lobby-page-size", "1001", "1,000"),
     ("--review-iterations", "100001", "100,000"),
     # A time past a year: the system's clocks overflow before 1e300 s, and the server's
     # looking for expired matches and its reviews failed at every try.
     ("--expire-idle-seconds", "1e300", "31,536,000"),
     ("--max-review-seconds", "31536001", "31,536,000")],
)  # fmt: skip
def test_a_limit_past_its_upper_bound_is_refused_naming_it(run, flag, value, most):
    with socket.socket() as taken:
        # A port in use: a value let through ends in the port's refusal, not in a server.
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run("serve", "--port", str(taken.getsockname()[1]), flag, value)
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert f"error: {flag} " in said and f": at most {most}; give a number within" in said
    assert "Traceback" not in result.output


def test_the_longest_time_a_limit_may_name_is_one_every_wait_of_the_server_takes(tmp_path):
    """A year: the expiry sweep counts back that far in the database's dates, and a review
    waits that long for its process (the system's poll takes about 24 days at most, and
    raised for more: every review failed)."""
    import multiprocessing
    import time

    from meeple.interfaces.web.limits import LONGEST_SECONDS
    from meeple.interfaces.web.reviews import _poll_until
    from meeple.store.matches import MatchStore

    store = MatchStore(f"sqlite:///{tmp_path / 'matches.db'}")
    assert store.stale(LONGEST_SECONDS, LONGEST_SECONDS) == []
    store.close()
    answer, sent = multiprocessing.Pipe(duplex=False)
    sent.send("done")
    assert _poll_until(answer, time.monotonic() + LONGEST_SECONDS)
    silent, _ = multiprocessing.Pipe(duplex=False)
    assert not _poll_until(silent, time.monotonic() + 0.05)


def test_every_server_limit_is_a_flag_made_from_its_field():
    """One place says each limit: a field of ServerLimits is the flag of the same name, with
    the field's description as its help, its default and lower bound, in its group's part
    of the help, an upper bound said in the help's words; a field GROUPS does not name stops
    the command being made."""
    import typer.main

    from meeple.interfaces.cli import app
    from meeple.interfaces.web.limits import GROUPS, LONGEST_SECONDS, ServerLimits

    group = typer.main.get_command(app)
    serve = group.commands["serve"]  # type: ignore[attr-defined]
    options = {o.name: o for o in serve.params}
    for name, field in ServerLimits.model_fields.items():
        option = options[name]
        assert option.opts == [f"--{name.replace('_', '-')}"], option.opts
        assert option.help == field.description and option.default == field.default
        assert option.rich_help_panel in GROUPS and name in GROUPS[option.rich_help_panel]
        # The lower bound labelled as click labels a range; ServerLimits checks it.
        lower = [rule.ge for rule in field.metadata if hasattr(rule, "ge")]
        assert option.metavar == (
            f"<{field.annotation.__name__}> [x>={lower[0]}]" if lower else None
        ), name
        # An upper bound has no label of click's: the help's words say it, and must say
        # the field's own; a time's, the command's help once for every time.
        uppers = [rule.le for rule in field.metadata if hasattr(rule, "le")]
        if name.endswith("_seconds"):
            assert uppers == [LONGEST_SECONDS], name
            assert f"at most a year: {LONGEST_SECONDS:,}." in serve.help
        else:
            for most in uppers:
                assert f"at most {most:,}" in option.help, (name, option.help)
    fewer = {group: names[1:] for group, names in GROUPS.items()}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(serve_cli, "GROUPS", fewer)
        with pytest.raises(RuntimeError, match="GROUPS must name each field of ServerLimits"):
            serve_cli._with_limit_flags(lambda **serve_limits: None)


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("127.0.0.l", "is not an IP address or network"),
        ("proxy.internal", "is not an IP address or network"),
        # Its own words (it was "not an IP address or network"), and what to give instead.
        ("10.0.0.1/8", "is a network with host bits set; give the network itself, 10.0.0.0/8, "
         "or the one address, 10.0.0.1"),
    ],
)  # fmt: skip
def test_a_proxy_that_is_no_address_is_explained(run, entry, says):
    # uvicorn keeps such an entry as a name no client's address equals: every client would
    # be counted as the proxy, one share of the limits for everyone, with nothing said.
    result = run("serve", "--forwarded-allow-ips", f"127.0.0.1, {entry}")
    assert result.exit_code == 2, result.output
    assert f"error: --forwarded-allow-ips: {entry!r} {says}" in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_trusting_every_address_as_a_proxy_is_refused(run):
    result = run("serve", "--forwarded-allow-ips", "*")
    assert result.exit_code == 2, result.output
    assert "would let any client name its own address" in result.output


@pytest.mark.parametrize(
    "flag", ["--max-agent-seconds", "--agent-margin-seconds", "--expire-idle-seconds"]
)
def test_an_infinite_time_limit_is_refused(run, flag):
    # inf passes every lower bound, and a limit of inf is none: an agent thinking for ever.
    result = run("serve", flag, "inf")
    assert result.exit_code == 2, result.output
    assert f"error: {flag} inf: input should be a finite number" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--max-agent-seconds", "0", "0.0: at least 0.001"),
        ("--max-agent-seconds", "nan", "nan: input should be a finite number"),
        ("--max-open-matches", "0", "0: at least 1"),
        ("--lobby-page-size", "2000", "2000: at most 1,000"),
    ],
)
def test_a_limit_out_of_its_bounds_is_one_error_line_naming_its_flag(run, flag, value, says):
    """Below a bound was click's boxed usage panel, above one an error line; and nan was
    refused as below the bound."""
    result = run("serve", flag, value)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"error: {flag} {says}; give a number within its bounds (meeple serve --help)"
    ), result.output


def test_a_negative_number_of_agent_workers_is_refused(run):
    result = run("serve", "--agent-workers", "-1")
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())  # typer boxes the error
    assert "Invalid value for '--agent-workers': Input should be greater than or equal to 0" in (
        said
    )


@pytest.fixture
def folder_taking_no_file(tmp_path) -> Path:
    """A folder in which no new file can be made: one without write permission, or (for
    root, whom permissions do not stop) /sys, where the system makes every file itself."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o555)
        return folder
    if not Path("/sys").is_dir():
        pytest.skip("needs a folder root cannot write: /sys (Linux)")
    return Path("/sys")


@pytest.mark.parametrize("command", ["serve", "simulate"])
def test_a_new_sqlite_file_in_a_folder_taking_no_file_names_the_folder_and_why(
    run, folder_taking_no_file, command, tmp_path
):
    """SQLite says only "unable to open database file"; the system says why."""
    file = folder_taking_no_file / "meeple-new.db"
    more = {
        "serve": ("--port", str(free_port())),
        "simulate": ("edges", "--board", "2x2", "--seat", "random", "--seat", "random",
                     "--games", "1", "--out", str(tmp_path / "out")),
    }[command]  # fmt: skip
    result = run(command, *more, "--db", f"sqlite:///{file}")
    assert result.exit_code == 2, result.output
    assert (
        f"error: cannot open sqlite:///{file}: cannot make a file in the folder "
        f"{folder_taking_no_file}: Permission denied"
    ) in result.output, result.output
    assert "Traceback" not in result.output and not file.exists()


def test_a_server_on_every_address_says_where_others_open_it(monkeypatch):
    """``--host 0.0.0.0`` (or ``::``): the lobby's link is this machine's loopback, so the
    start says where people on the network open it, and where to read before letting in
    strangers; a server on one address says nothing more."""
    for host in ("0.0.0.0", "::"):
        words = serve_cli.network_words(host, 8766)
        assert words is not None and "docs/security.md" in words
        # This machine's address where it has a network (a machine without one is told so).
        opened = r"people on its network open (http://\d+(\.\d+){3}:8766|its address, port 8766);"
        assert re.search(opened, words), words
    assert serve_cli.network_words("127.0.0.1", 8766) is None
    assert serve_cli.network_words("192.168.1.5", 8766) is None
    monkeypatch.setattr(serve_cli, "_network_address", lambda: None)  # no network at all
    assert "open its address, port 8766;" in serve_cli.network_words("0.0.0.0", 8766)


def test_open_says_so_where_there_is_no_browser_to_open(run, tmp_path, monkeypatch):
    """``--open`` on a machine with no desktop session (a server, a container): the start
    says no browser opens and prints the lobby's address, where webbrowser says nothing."""

    class NotServing:
        started = False

        def run(self) -> None:
            """Return at once: the words printed before serving are what is checked."""

    monkeypatch.setattr(serve_cli, "_has_browser", lambda: False)
    monkeypatch.setattr(serve_cli, "_make_server", lambda config, hub: NotServing())
    port = free_port()
    result = run("serve", "--open", "--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}")
    said = " ".join(result.output.split())
    assert "--open: no browser to open here (no desktop session)." in said, said
    assert f"Open http://127.0.0.1:{port} in a browser for the lobby" in said, said
