"""The doctests of the engine's compiled modules: read from their sources, run in the modules imported.

mypyc (``make setup``, tools/build_engine.py) keeps no docstrings, and pytest's ``--doctest-modules``
refuses a module imported from another file than the one it collects. For a module that Python
imports compiled, its examples are found in a copy of it executed from the ``.py`` and run in the
compiled module's namespace; an uncompiled module's are collected as pytest does.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Generator, Iterable
from types import ModuleType
from typing import Any

import pytest
from _pytest.doctest import DoctestItem, DoctestModule


class _SourceDoctests(DoctestModule):
    def _name(self) -> str:
        return ".".join(self.path.relative_to(self.config.rootpath).with_suffix("").parts)

    def _getobj(self) -> ModuleType:
        spec = importlib.util.spec_from_file_location(self._name(), self.path)
        assert spec is not None and spec.loader is not None
        source = importlib.util.module_from_spec(spec)  # not in sys.modules: the compiled module stays the one imported
        spec.loader.exec_module(source)
        return source

    def collect(self) -> Iterable[DoctestItem]:
        name = self._name()
        compiled = importlib.import_module(name)
        sys.modules[name] = self.obj  # doctest finds the examples of the functions of the module by that name
        try:
            items = list(super().collect())
        finally:
            sys.modules[name] = compiled
        for item in items:
            item.dtest.globs = dict(vars(compiled))
        return items


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Any, parent: pytest.Collector) -> Generator[None, list[Any], list[Any]]:
    collected = yield
    return [_SourceDoctests.from_parent(parent, path=c.path) if isinstance(c, DoctestModule) and _compiled(c) else c
            for c in collected]


def _compiled(c: DoctestModule) -> bool:
    name = ".".join(c.path.relative_to(c.config.rootpath).with_suffix("").parts)
    if name.endswith(".__init__") or name.endswith(".conftest"):
        return False
    module = importlib.import_module(name)
    return not (module.__file__ or "").endswith(".py")
