"""Services keep what their imports made out of the garbage collector's full collections."""

from __future__ import annotations

import subprocess
import sys

FREEZE_AND_COUNT = """
import gc
from services.runtime.lifecycle import freeze_imports
before = gc.get_freeze_count()
freeze_imports()
print(before, gc.get_freeze_count(), len(gc.get_objects(generation=2)))
"""


def test_freezing_moves_the_imported_objects_out_of_the_collected_generations() -> None:
    done = subprocess.run([sys.executable, "-c", FREEZE_AND_COUNT], capture_output=True, text=True, timeout=60,
                          check=True)
    before, frozen, oldest_left = map(int, done.stdout.split())
    assert before == 0
    assert frozen > 10_000  # the modules, classes and protobuf descriptors of the services
    assert oldest_left < frozen / 100
