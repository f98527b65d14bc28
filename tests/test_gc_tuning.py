"""Services tune the garbage collector: the imports frozen out of it, the youngest generation collected less often."""

from __future__ import annotations

import subprocess
import sys

FREEZE_AND_COUNT = """
import gc
from services.runtime.lifecycle import tune_gc
before = gc.get_freeze_count()
tune_gc()
print(before, gc.get_freeze_count(), len(gc.get_objects(generation=2)), gc.get_threshold()[0])
"""


def _tuned() -> list[int]:
    """Freeze counts before and after, objects left in the oldest generation, the youngest's threshold."""
    done = subprocess.run([sys.executable, "-c", FREEZE_AND_COUNT], capture_output=True, text=True, timeout=60,
                          check=True)
    return [int(x) for x in done.stdout.split()]


def test_freezing_moves_the_imported_objects_out_of_the_collected_generations() -> None:
    before, frozen, oldest_left, _ = _tuned()
    assert before == 0
    assert frozen > 10_000  # the modules, classes and protobuf descriptors of the services
    assert oldest_left < frozen / 100


def test_the_youngest_generation_is_collected_after_many_more_new_objects() -> None:
    assert _tuned()[3] == 20_000
