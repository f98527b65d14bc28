"""The ``maumau`` command: every service's process, the record's tools, the load and bench tools (``cli.main``).

It stands above everything it starts, so that no package it runs has to import it back.
"""
