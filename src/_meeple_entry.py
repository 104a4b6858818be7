"""The ``meeple`` command's entry point (``[project.scripts]``).

It lies outside the ``meeple`` package so that it runs before the package is imported: a
Ctrl-C in the command's first second, while the package and its libraries load, cut an
import and printed the traceback of whichever module it cut. Once the command line is
parsed, Typer ends a command that a Ctrl-C reaches with status 130; one while it loads now
does too, with one line saying nothing was done. Only what the interpreter has loaded
already is imported here: this runs at every start.
"""

import sys

_INTERRUPTED = "Interrupted while meeple started: nothing was done.\n"


def main() -> None:
    """Load and run the ``meeple`` command; a Ctrl-C while it loads ends it with one line
    and exit status 130 (128 + SIGINT), as a later one does under Typer's handling."""
    import os
    import signal

    def stop(_signum: int, _frame: object) -> None:
        # The process ends here instead of raising KeyboardInterrupt inside the import under
        # way, which a library may turn into an error of its own: pydantic-core, cut while it
        # loads datetime, raises a PanicException, not a KeyboardInterrupt. Nothing has been
        # done yet that could need finishing.
        os.write(2, _INTERRUPTED.encode())
        os._exit(130)

    # A command started in the background ignores SIGINT, and keeps ignoring it.
    interruptible = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if interruptible:
        signal.signal(signal.SIGINT, stop)
    try:
        from meeple.interfaces.cli import main as command
    finally:
        if interruptible:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        command()
    except KeyboardInterrupt:
        # Between the imports and Typer's own handling (or past a command that lets it
        # through): the usual status, without the traceback.
        sys.exit(130)
