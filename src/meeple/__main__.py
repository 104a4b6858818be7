"""``python -m meeple``: the ``meeple`` command, where the environment's scripts folder is
not on the PATH."""

from meeple.interfaces.cli import main

main()
