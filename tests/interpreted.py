"""Code run in a process of its own on the engine's and the bots' sources (``MAUMAU_PURE=1``), for the tests
that hold the compiled modules to what their sources do, or replace a call only the sources let be replaced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def interpreted(code: str) -> str:
    """What ``python -c code`` prints, run from the checkout on the sources; fails the test with its errors."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "MAUMAU_PURE": "1"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
