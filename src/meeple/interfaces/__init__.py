"""The ways in: the command line, the web, and environment adapters."""
