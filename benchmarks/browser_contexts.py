"""What Chromium spends on a browser test's context: a new one each time, or one lent from
the browser tests' pool and emptied after (``tests/web/conftest.py``'s ``Browser``).

    .venv/bin/python benchmarks/browser_contexts.py --loads 10 --rounds 3

A real ``meeple serve`` (SQLite, agents in threads) and the Chromium the browser tests
drive (``driven_chromium``: the headless shell where installed), started as they start it,
their flags too. Each load is what most browser tests begin with: a context at 1280x800, a
page in it, the lobby opened until its game cards show, a name kept in local storage, and
the context closed (given back, for the pool, which then empties it). The two ways take
turns, ``--loads`` loads each per round, so that a change in the machine's speed falls on
both. The table gives Chromium's CPU seconds (every one of its processes, read from
``/proc``) and the wall-clock seconds per load, and the pool's share of each. Linux only
(``/proc``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser_idle import chromium_cpu, served_chromium
from tests.web.conftest import CHROMIUM_ARGS, Browser

from meeple.interfaces.web.client import driven_chromium


class Fresh:
    """A new context for every load: what the tests did before the pool."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        """``Browser.new_context`` with the tests' reduced motion."""
        return self.browser.new_context(reduced_motion="reduce", **options)


def load(opener: Any, url: str) -> None:
    """One test's worth of context: open, load the lobby, keep a name, close."""
    context = opener.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{url}/")
    page.wait_for_selector(".game-card")
    page.evaluate("localStorage.setItem('meeple-name', 'Ann')")
    context.close()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="loads of each way per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of both ways")
    args = parser.parse_args()
    with served_chromium("meeple-contexts-", CHROMIUM_ARGS, driven_chromium()) as (url, browser):
        ways = {
            "a new context each time": Fresh(browser),
            "a pooled context": Browser(browser),
        }
        for opener in ways.values():  # the server's first answers and the pool's first context
            load(opener, url)
        spent = {name: [0.0, 0.0] for name in ways}
        for _ in range(args.rounds):
            for name, opener in ways.items():
                cpu, wall = chromium_cpu(), time.perf_counter()
                for _ in range(args.loads):
                    load(opener, url)
                spent[name][0] += chromium_cpu() - cpu
                spent[name][1] += time.perf_counter() - wall
        loads = args.loads * args.rounds
        fresh_cpu, fresh_wall = spent["a new context each time"]
        print(f"{loads} loads each way")
        print("| context | Chromium CPU s a load | wall s a load | CPU / new | wall / new |")
        print("|---|---:|---:|---:|---:|")
        for name, (cpu, wall) in spent.items():
            print(
                f"| {name} | {cpu / loads:.3f} | {wall / loads:.3f} "
                f"| {cpu / fresh_cpu:.2f} | {wall / fresh_wall:.2f} |"
            )


if __name__ == "__main__":
    main()
