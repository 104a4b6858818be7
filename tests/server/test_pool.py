"""What the worker pool makes of a task that fails: the server tells a fault of its own code
(a task that raised, which asking again repeats) from a worker that died or overran."""

from __future__ import annotations

import asyncio

import pytest

from meeple.interfaces.web.pool import AgentPool, TaskFailed


def fail(text: str) -> str:
    """A pool job (run in a worker) with a bug in it."""
    raise IndexError(text)


def echo(text: str) -> str:
    """A pool job (run in a worker) that answers."""
    return text


def test_a_task_that_raises_is_a_task_failure_and_the_pool_serves_on():
    async def go() -> None:
        pool = AgentPool(1, tasks={"fail": fail, "echo": echo})
        try:
            with pytest.raises(TaskFailed, match="IndexError: out of range"):
                await pool.run("fail", ("out of range",), None)
            assert await pool.run("echo", ("still here",), None) == "still here"
        finally:
            pool.close()

    asyncio.run(go())
