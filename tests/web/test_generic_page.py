"""The generic game page: a game without a drawing of its own (the example added from outside
meeple, examples/tic_tac_toe) is drawn as its view in text with its legal moves as buttons,
and a whole match is played by clicking them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple.interfaces.web.client import ServerProcess
from tests import plain_http
from tests.test_new_game import install_example
from tests.web.browser import Frames, no_server_errors, play_by_clicks


@pytest.fixture
def example_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``meeple serve`` with the example installed."""
    installed = install_example(tmp_path / "site")
    process = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log", 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", installed["PYTHONPATH"])
        process.start()
    try:
        yield process
    finally:
        process.stop()


def test_the_generic_page_plays_a_whole_match_by_clicking_buttons(
    example_server: ServerProcess,
    context: Any,
    watch: Any,
    page_errors: list[str],
    console_errors: list[str],
) -> None:
    reply = plain_http.post(
        f"{example_server.url}/api/matches",
        json={"game": "tic-tac-toe", "options": {"size": 4}, "seats": ["human", "heuristic"]},
        timeout=30,
    )
    assert reply.status_code == 200, reply.text
    created = reply.json()
    catalogue = plain_http.get(f"{example_server.url}/api/games", timeout=30).json()
    drawing = {entry["name"]: entry["drawing"] for entry in catalogue}
    assert drawing["tic-tac-toe"] is False and drawing["edges"] is True
    # The browser's own errors too (console_errors): a page that asked for the drawing
    # module a game does not have logged a missing resource and "no drawing for tic-tac-toe"
    # at every load.
    page = watch(context.new_page())
    frames = Frames().attach(page)
    token = created["seats"][0]["token"]
    page.goto(f"{example_server.url}/play/{created['match']}#token={token}")
    page.wait_for_selector("#board .generic .generic-move")
    # The view as text: the board's rows one per line, then the buttons of the empty squares.
    assert "board:\n  ....\n  ....\n  ....\n  ...." in page.inner_text(".generic-view")
    assert len(page.query_selector_all("#board .generic-move")) == 16
    assert page.query_selector(".no-drawing") is None

    play_by_clicks(page, frames, seed=3, seconds=60)

    no_server_errors(frames)
    assert not page_errors, page_errors
    assert not console_errors, console_errors
    page.wait_for_selector("#end:not([hidden]) .end-title")
    assert not page.query_selector_all("#board .generic-move")
    match = plain_http.get(
        f"{example_server.url}/api/matches/{created['match']}", timeout=30
    ).json()
    assert match["status"] == "finished"
    # The replay draws it the same way: the final board, no buttons.
    page.click("#end #replay-link")
    page.wait_for_selector("#board .generic-view")
    assert not page.query_selector_all("#board .generic-move")
    assert not page_errors, page_errors
    # The replay asked for no module the game lacks, nor logged any other error.
    assert not console_errors, console_errors
