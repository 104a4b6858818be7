"""The terminal both command modules print to, and how they report an error."""

from __future__ import annotations

import typer
from rich.console import Console

console = Console(highlight=False)


def fail(message: str) -> typer.Exit:
    """Print an error for a person (unwrapped, so it can be copied) and return the exit."""
    console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(code=2)
