"""Every bench script still runs: each one at its ``--smoke`` size, as a script, from a folder of
its own, so that none rots unseen between the times someone measures with it.

A bench script is a ``bench/*.py`` file that runs as ``__main__``; the figures it prints are
not judged here (they are for people to read), only that it runs to the end and says something.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.server.settings import REPO_ROOT

BENCHES = sorted(path for path in (REPO_ROOT / "bench").glob("*.py")
                 if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8"))


def test_the_benches_are_found() -> None:
    assert {"api.py", "scoring.py", "tournament.py", "load.py", "crash.py"} <= {
        path.name for path in BENCHES}


@pytest.mark.slow
@pytest.mark.parametrize("script", BENCHES, ids=[path.stem for path in BENCHES])
def test_the_bench_runs_at_its_smoke_size(script: Path, tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("TAFELRUNDE_") or name.startswith("TAFELRUNDE_TEST_")}
    done = subprocess.run([sys.executable, str(script), "--smoke"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.strip()
