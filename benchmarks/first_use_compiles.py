"""What compiles at its first use although ``meeple compile`` ran: two ways to look.

    .venv/bin/python benchmarks/first_use_compiles.py after [TREE]
    .venv/bin/python benchmarks/first_use_compiles.py env triangle-clock --opponent policy

``after`` reads the numba caches of a checkout (``TREE``, this one by default: the caches in
its source tree's ``__pycache__`` folders) after a run, say a clean clone's ``.ci/run``, and
lists every kernel a cache file of which was written after the last mark ``meeple compile``
wrote (:func:`meeple.core.kernel_cache.mark_compiled`), with the argument types of each
version in its index: what the run's processes compiled at their first use. A version that
differs from one ``meeple compile`` made only in an array's layout or read-only flag is a
caller passing another type (each is compiled anew). Read it after the run has ended.

``env`` times a research environment's steps right after ``meeple compile GAME`` into a new,
empty ``NUMBA_CACHE_DIR``: ``OpponentVecEnv(GAME, opponent=...)``'s reset and first two
steps, in a process of their own. A first step much longer than the second compiled.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

STEPS = """
import time
import numpy as np
from meeple.core.batch import random_legal_ids
from meeple.envs.opponent import OpponentVecEnv
env = OpponentVecEnv({game!r}, num_envs=4, opponent={opponent!r}, seed=2)
start = time.perf_counter(); env.reset(); reset = time.perf_counter() - start
rng, steps = np.random.default_rng(0), []
for _ in range(2):
    start = time.perf_counter()
    env.step(random_legal_ids(env.action_masks(), rng))
    steps.append(time.perf_counter() - start)
print(f"reset {{reset:.2f}} s, first step {{steps[0]:.2f}} s, second step {{steps[1]:.4f}} s")
"""


def _versions(index: Path) -> list[str]:
    """The argument types of every version a numba cache index lists."""
    with index.open("rb") as file:
        pickle.load(file)  # numba's version
        _stamp, overloads = pickle.loads(file.read())
    return [str(key[0]) for key in overloads]


def after(tree: Path) -> None:
    """List the kernels compiled after the last ``meeple compile`` mark in ``tree``."""
    source = tree / "src" / "meeple"
    marks = sorted(source.glob("__pycache__/numba-*/*.compiled"), key=lambda p: p.stat().st_mtime)
    if not marks:
        sys.exit(f"no mark of `meeple compile` under {source}: run it (or the suite) first")
    since = marks[-1].stat().st_mtime
    late = sorted(
        {
            index
            for index in source.glob("**/__pycache__/numba-*/*/*.nbi")
            if any(
                f.stat().st_mtime > since
                for f in index.parent.glob(index.name.removesuffix(".nbi") + "*")
            )
        }
    )
    print(f"{len(late)} kernels compiled after the last mark of `meeple compile`:")
    for index in late:
        parts = index.relative_to(source).parts
        package = "/".join(parts[: parts.index("__pycache__")])
        print(f"- {package} {index.name.split('.py')[0]}")
        for version in _versions(index):
            print(f"    {version}")


def env(game: str, opponent: str) -> None:
    """Time an environment's first steps after ``meeple compile GAME`` from an empty cache."""
    meeple = Path(sys.executable).with_name("meeple")
    with tempfile.TemporaryDirectory() as empty:
        cache = {**os.environ, "NUMBA_CACHE_DIR": empty}
        subprocess.run([str(meeple), "compile", game], env=cache, check=True)
        code = STEPS.format(game=game, opponent=opponent)
        subprocess.run([sys.executable, "-c", code], env=cache, check=True)


def main() -> None:
    """Run one of the two looks."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    looks = parser.add_subparsers(dest="look", required=True)
    tree = looks.add_parser("after", help="kernels a finished run compiled after meeple compile")
    tree.add_argument("tree", nargs="?", type=Path, default=Path(__file__).parents[1])
    steps = looks.add_parser("env", help="an environment's first steps after meeple compile")
    steps.add_argument("game")
    steps.add_argument("--opponent", default="policy")
    args = parser.parse_args()
    if args.look == "after":
        after(args.tree)
    else:
        env(args.game, args.opponent)


if __name__ == "__main__":
    main()
