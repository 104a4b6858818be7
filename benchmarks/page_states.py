"""What each state of a match costs the game page in Chromium, early and late in the match.

    .venv/bin/python benchmarks/page_states.py --moves 60

For every game, a real ``meeple serve`` (SQLite, agents in threads) and Debian's headless
Chromium: a page seated at a match against ``random`` (seeded) makes its moves as a player
who types them (a legal move chosen at random, ``--seed``) into the page's move box, and the
computer answers at once, so states arrive in bursts as they do against a fast computer.
Chromium's own counters for the page (``Performance.getMetrics``: main-thread task, style
and layout seconds) are read after each move; the table gives milliseconds of each per
state received, in the first half of the states and the second, and the ratio of the
second half's task time to the first's (the page's own work, and the reading and typing
this script does in it). A page that draws its whole move log
anew at every state costs more per state as the log grows (a ratio well over 1); one that
adds only what changed costs about the same throughout.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import httpx
from browser_idle import served_chromium  # benchmarks/ is the script's folder

GAMES = {
    "edges": {"board": "4x4"},
    "erd": {},
    "erosion": {},
    "squad-combat": {},
    "triangle-clock": {"memorise_seconds": 60, "choice_seconds": 0},
}
COUNTERS = ("TaskDuration", "RecalcStyleDuration", "LayoutDuration")


def counters(cdp: Any) -> dict[str, float]:
    """The page's main-thread counters now (seconds since it opened)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: metrics[name] for name in COUNTERS}


def play(page: Any, moves: int, rng: random.Random, cdp: Any, states: list[int]) -> list[Any]:
    """Type up to ``moves`` legal moves as they come (fewer if the match ends first); after
    each, the states received so far and the counters."""
    marks = [(states[0], counters(cdp))]
    while len(marks) <= moves and page.get_attribute("body", "data-status") == "playing":
        seq = page.get_attribute("body", "data-seq")
        legal = page.locator("#legal .legal-move").all_text_contents()
        if not legal or page.is_hidden("#typed"):
            page.wait_for_timeout(20)
            continue
        page.fill("#notation", rng.choice(legal))
        page.press("#notation", "Enter")
        page.wait_for_function(
            f"() => document.body.dataset.seq !== '{seq}'"
            " || document.body.dataset.status !== 'playing'"
        )
        marks.append((states[0], counters(cdp)))
    page.wait_for_timeout(500)  # the last answer drawn
    marks.append((states[0], counters(cdp)))
    return marks


def measure(browser: Any, url: str, game: str, moves: int, seed: int) -> dict[str, Any]:
    """One match of ``game``: the states and counters of each half of its moves."""
    created = httpx.post(
        f"{url}/api/matches",
        json={"game": game, "options": GAMES[game], "seats": ["human", "random"], "seed": seed},
        timeout=30,
    ).json()
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    states = [0]
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived", lambda f: states.__setitem__(0, states[0] + ('"state"' in str(f)))
        ),
    )
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(f"{url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    marks = play(page, moves, random.Random(seed), cdp, states)
    context.close()
    # The halves split at the move after which about half the states had come.
    (n0, c0), (n2, c2) = marks[0], marks[-1]
    n1, c1 = min(marks, key=lambda mark: abs(2 * (mark[0] - n0) - (n2 - n0)))
    return {
        "moves": len(marks) - 2,
        "early": (n1 - n0, {k: c1[k] - c0[k] for k in COUNTERS}),
        "late": (n2 - n1, {k: c2[k] - c1[k] for k in COUNTERS}),
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="moves the page types")
    parser.add_argument("--seed", type=int, default=1, help="the match's and the moves' seed")
    parser.add_argument("--game", action="append", choices=list(GAMES), help="default: all")
    args = parser.parse_args()
    with served_chromium("meeple-page-states-") as (url, browser):
        print(
            "| game | moves typed | states, first half / second | task ms per state, "
            "first / second | style ms | layout ms | second / first (task) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for game in args.game or GAMES:
            got = measure(browser, url, game, args.moves, args.seed)
            (n1, c1), (n2, c2) = got["early"], got["late"]

            def per(c: dict[str, float], n: int, key: str) -> float:
                return 1000 * c[key] / max(n, 1)

            task1, task2 = per(c1, n1, "TaskDuration"), per(c2, n2, "TaskDuration")
            print(
                f"| {game} | {got['moves']} | {n1} / {n2} | {task1:.1f} / {task2:.1f} | "
                f"{per(c1, n1, 'RecalcStyleDuration'):.1f} / "
                f"{per(c2, n2, 'RecalcStyleDuration'):.1f} | "
                f"{per(c1, n1, 'LayoutDuration'):.1f} / {per(c2, n2, 'LayoutDuration'):.1f} | "
                f"{task2 / task1 if task1 else float('nan'):.2f} |"
            )


if __name__ == "__main__":
    main()
