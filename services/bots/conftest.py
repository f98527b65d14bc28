"""The doctests of the bots' compiled modules (greedy, worlds, reading): read from their sources, run in the
modules imported, as the engine's (``services/rules/conftest.py``)."""

from services.rules.conftest import pytest_collect_file

__all__ = ["pytest_collect_file"]
