"""The record: a table's stored history proved (``verify``), exported and signed (``export``), and
told step by step as a viewer saw it (``replay``); ``records`` reads them from the streams for the CLI."""
