"""The terminal both command modules print to, and how they report an error."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

console = Console(highlight=False)


def fail(message: str) -> typer.Exit:
    """Print an error for a person (unwrapped, so it can be copied) and return the exit."""
    # Messages quote what a person typed; escaped, "[/]" in it is shown instead of read
    # as Rich markup (which would raise instead of reporting).
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code=2)
