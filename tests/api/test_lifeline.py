"""A child that must not outlive its parent is gone within half a second of the parent's
SIGKILL (:mod:`api.server.lifeline`): told by the kernel on Linux, or by its own watch
elsewhere; so is an app's helper process (:mod:`api.server.offload`). Timed from the kill to the
child's exit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from api.server import lifeline
from api.server.settings import REPO_ROOT
from tests.conftest import seconds_to_exit

ORPHAN_SECONDS = 0.5
"""How long a child may outlive its parent."""
START_PATIENCE = 60.0

CHILD = """
import os, signal, sys, time
from api.server import lifeline
if sys.argv[1] == "watching":
    lifeline._kernel_sends = lambda signal_number: False  # as where there is no prctl
lifeline.die_with(os.getppid(), signal.SIGKILL)
print("ready", flush=True)
time.sleep(600)
"""
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]],
                         stdout=subprocess.PIPE, text=True)
assert child.stdout.readline() == "ready\\n"
print(child.pid, flush=True)
time.sleep(600)
"""
APP = """
import asyncio, os, time
from api.server.offload import Offload
from tests.api.test_lifeline import helper_pid

async def main() -> None:
    offload = Offload(os.environ["DATABASE_URL"], "full")
    print(await offload.run(helper_pid), flush=True)
    time.sleep(600)

asyncio.run(main())
"""


async def helper_pid(_database: object) -> int:
    """A job: the helper's process id."""
    return os.getpid()


def started(*arguments: str, env: dict[str, str] | None = None) -> tuple[
        subprocess.Popen[str], int]:
    """A Python process running ``arguments`` from the repository, and the process id it
    prints first (its child's)."""
    parent = subprocess.Popen([sys.executable, "-c", *arguments], cwd=REPO_ROOT, text=True,
                              stdout=subprocess.PIPE, env={**os.environ, **(env or {})})
    assert parent.stdout is not None
    line = parent.stdout.readline()
    assert line.strip().isdigit(), line
    return parent, int(line)


def exit_after_parent_killed(parent: subprocess.Popen[str], child: int) -> float:
    try:
        exited = seconds_to_exit({child}, parent.kill)
    finally:
        parent.kill()
        parent.wait(START_PATIENCE)
        assert parent.stdout is not None
        parent.stdout.close()
    assert child in exited, "the child outlived its parent"
    return exited[child]


@pytest.mark.parametrize("how", ["kernel", "watching"])
def test_a_child_dies_with_its_parent(how: str) -> None:
    parent, child = started(PARENT, CHILD, how)
    assert exit_after_parent_killed(parent, child) < ORPHAN_SECONDS


def test_a_child_whose_parent_was_gone_before_it_asked_dies_at_once() -> None:
    # This process's parent is not the process named: as if the parent had died already.
    signalled: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda number, _frame: signalled.append(number))
    try:
        lifeline.watch(os.getpid(), signal.SIGUSR1)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert signalled == [signal.SIGUSR1]


def test_an_apps_helper_dies_with_the_app(tmp_path: Path) -> None:
    app, helper = started(APP, env={
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'helper.db'}"})
    assert exit_after_parent_killed(app, helper) < ORPHAN_SECONDS
