"""Where the databases are unless the command is told otherwise (relative to the working
directory): constants apart from the modules that open them, which import the database
library."""

DEFAULT_URL = "sqlite:///results/meeple.db"
"""Where results go unless told otherwise."""

DEFAULT_MATCH_URL = "sqlite:///results/server.db"
"""Where ``meeple serve`` keeps its matches unless told otherwise."""
