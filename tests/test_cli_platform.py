"""The CLI finds the platform ``make run`` started (its .data/run.json) when given no NATS, says which NATS it
uses, and says plainly when none answers (real NATS; the commands run as processes, as an operator runs them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.natsserver import free_port

MAUMAU = str(Path(sys.executable).with_name("maumau"))


def maumau(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "NATS_URL"}
    return subprocess.run([MAUMAU, *args], cwd=cwd, env={**clean, **env}, capture_output=True, text=True,
                          timeout=60)


def running_here(tmp_path: Path, nats_url: str) -> Path:
    (tmp_path / ".data").mkdir()
    (tmp_path / ".data" / "run.json").write_text(json.dumps({"nats_url": nats_url}))
    return tmp_path


def test_a_command_given_no_nats_talks_to_the_platform_running_here(nats_url: str, tmp_path: Path) -> None:
    done = maumau(running_here(tmp_path, nats_url), "staff", "sign-out", "Ninguém")
    assert f"maumau: NATS at {nats_url} (from .data/run.json)" in done.stderr
    assert (done.returncode, done.stdout) == (1, "no_account: nobody is called 'Ninguém'\n")  # it was asked


def test_nats_url_comes_before_the_platform_running_here(nats_url: str, tmp_path: Path) -> None:
    elsewhere = f"nats://127.0.0.1:{free_port()}"
    done = maumau(running_here(tmp_path, elsewhere), "staff", "sign-out", "Ninguém", NATS_URL=nats_url)
    assert f"maumau: NATS at {nats_url} (from NATS_URL)" in done.stderr and done.returncode == 1


def test_no_nats_answering_is_said_plainly(tmp_path: Path) -> None:
    nowhere = f"nats://127.0.0.1:{free_port()}"
    done = maumau(tmp_path, "verify", "some-table", "--nats-url", nowhere)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"maumau: no NATS answers at {nowhere} (from --nats-url). Start the "
                                            "platform (make run) or name its NATS with --nats-url or NATS_URL.")
    assert "Traceback" not in done.stderr
