"""MAUMAU_NICE: a service can run at a lower CPU priority; the supervisor lowers the reacting services'."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.runtime.supervisor import _children

PRINT_NICE = "import os; from services.runtime.priority import lower_priority; lower_priority(); print(os.nice(0))"


def _nice_after(value: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MAUMAU_NICE"}
    if value is not None:
        env["MAUMAU_NICE"] = value
    return subprocess.run([sys.executable, "-c", PRINT_NICE], env=env, capture_output=True, text=True, timeout=60)


def test_a_service_lowers_its_priority_by_maumau_nice() -> None:
    before = os.nice(0)
    assert int(_nice_after("7").stdout) == min(19, before + 7)


def test_without_maumau_nice_the_priority_stays() -> None:
    assert int(_nice_after(None).stdout) == os.nice(0)


@pytest.mark.parametrize("value", ["fast", "-5", "20"])
def test_a_bad_maumau_nice_stops_the_service_with_a_clear_error(value: str) -> None:
    done = _nice_after(value)
    assert done.returncode != 0
    assert "MAUMAU_NICE must be a whole number from 0 to 19" in done.stderr


def test_a_quick_command_does_not_pay_for_the_services_imports() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from cli.main import main; "
                           "from services.runtime.priority import lower_priority; lower_priority(); "
                           "print(sorted({'nats', 'aiohttp', 'grpc', 'uvloop'} & set(sys.modules)))"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_the_supervisor_lowers_the_reacting_services_only(tmp_path: Path) -> None:
    children, _ = _children(tmp_path, quiet=True, projector=True)
    lowered = {c.name for c in children if int(c.env.get("MAUMAU_NICE", "0")) > 0}
    assert lowered == {"proj", "clock", "bots"}
