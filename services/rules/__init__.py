"""The Mau-Mau rules engine (pure: no I/O, no clock, no randomness of its own) and its gRPC service.

``make setup`` compiles the engine's hot modules with mypyc into extension modules beside their
sources (tools/build_engine.py), which Python imports in place of the ``.py``; where nothing was
compiled the ``.py`` runs. The package imports its sources only, even where extension modules were
built, with ``MAUMAU_PURE=1`` (the same engine run interpreted, to compare: docs/performance.md) and
when a compiled module's source changed after the build (an edit is run as written, with a warning,
until ``make setup`` compiles it again). The strong bot's compiled modules (``services.bots``: greedy,
worlds, reading, built in the engine's group) follow the engine: their sources run whenever the engine's do,
and when one of theirs changed.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

_PACKAGES = (__name__ + ".", "services.bots.")  # the packages with modules compiled in the engine's group


class _SourcesOnly:
    """A finder of this package's modules (and the bots') that knows only ``.py`` files (no extension modules)."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith(_PACKAGES) or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None


def _stale() -> bool:
    """Whether a compiled module's source is newer than the engine's build, or gone."""
    here = Path(__file__).parent
    built = [p.stat().st_mtime for p in here.glob("_engine__mypyc.*")]
    if not built:
        return False
    for ext in [*here.rglob("*.so"), *(here.parent / "bots").glob("*.so")]:
        source = ext.with_name(ext.name.split(".")[0] + ".py")
        if not ext.name.startswith("_engine__mypyc.") and (not source.exists() or source.stat().st_mtime > built[0]):
            return True
    return False


if os.environ.get("MAUMAU_PURE"):
    sys.meta_path.insert(0, _SourcesOnly)
elif _stale():
    warnings.warn("services.rules: a compiled module's source changed since the engine was built; the engine "
                  "runs from its sources (make setup compiles it again)", stacklevel=1)
    sys.meta_path.insert(0, _SourcesOnly)
