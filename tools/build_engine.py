"""Compile the rules engine's hot modules with mypyc, in place: ``python -m tools.build_engine`` (``make setup``).

Each module becomes an extension module beside its ``.py`` (``services/rules/state.cpython-311-….so``),
all of them sharing one library, ``services/rules/_engine__mypyc``; Python imports them in place of the
sources (``services/rules/__init__.py`` says when it does not). The C sources go to ``build/mypyc``.
Git ignores the products; ``--clean`` removes them (the engine then runs as Python).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "services" / "rules"
BOTS = ROOT / "services" / "bots"
# What a playout, a decision and a fold run: the state, the turn machinery, the rulesets' hooks and the
# deal's shuffle (its swaps; a fifth of a classic52 action went to the deal). The rest (the server, the
# views, the wire, the decider's events) is left to the interpreter.
MODULES = (
    "cards", "actions", "phases", "shuffle", "position", "state", "turn", "legal", "applying", "checking", "engine",
    "rulesets/base", "rulesets/french", "rulesets/colors", "rulesets/crazy8",
)  # fmt: skip
# The strong bot's rollouts and sampled worlds (issue 29, Carmen's searches): Tito's preference, the worlds and
# their rollouts, the reading's check of a deal. In the engine's group, so that they reach the state's slots and
# the engine's functions natively; they run as Python whenever the engine does (services/rules/__init__.py).
BOT_MODULES = ("greedy", "worlds", "reading")
GROUP = "services.rules._engine"


def sources() -> list[Path]:
    """The modules compiled: the engine's, then the bots'."""
    return [RULES / f"{m}.py" for m in MODULES] + [BOTS / f"{m}.py" for m in BOT_MODULES]


def products() -> list[Path]:
    """The extension modules and their shared library, as built in place."""
    engine = [p for p in RULES.rglob("*.so") if p.name.split(".")[0] in {Path(m).name for m in MODULES}
              or p.name.startswith("_engine__mypyc.")]
    return engine + [p for p in BOTS.glob("*.so") if p.name.split(".")[0] in BOT_MODULES]


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]  # no stubs; the build is its one user

    os.chdir(ROOT)  # ``--inplace`` writes each module under the working directory, by its package

    extensions = mypycify([str(p) for p in sources()], opt_level="3", group_name=GROUP,
                          target_dir=str(ROOT / "build" / "mypyc"))
    setup(name="maumau-engine", ext_modules=extensions,
          script_args=["-q", "build_ext", "--inplace", "--build-temp", str(ROOT / "build" / "mypyc" / "temp")])
    for p in products():  # dated now even where nothing was compiled again: newer than their sources (see the package)
        p.touch()


def main() -> None:
    if sys.argv[1:] == ["--clean"]:
        for p in products():
            p.unlink()
        return
    build()


if __name__ == "__main__":
    main()
