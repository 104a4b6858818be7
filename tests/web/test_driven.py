"""Which Chromium the browser tests drive (``driven_chromium``): Debian's headless shell
where installed, the whole browser where it is not."""

from __future__ import annotations

from meeple.interfaces.web import client


def test_the_headless_shell_where_installed_else_the_whole_browser(monkeypatch, tmp_path):
    shell = tmp_path / "chromium-headless-shell"
    monkeypatch.setattr(client, "HEADLESS_SHELL", shell)
    assert client.driven_chromium() == client.CHROMIUM
    shell.touch()
    assert client.driven_chromium() == shell
