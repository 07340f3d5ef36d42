"""Tafelrunde at the lower bound of every dependency pyproject.toml names, played once.

A lower bound is a promise: `pip install tafelrunde` may give anyone exactly that version of each
package, so each must install with the others and run the server. This script pins every runtime
dependency and the `postgres` extra at its `>=` bound (nothing else is constrained; their own
dependencies come as pip resolves them), installs the tracked files into a fresh virtual
environment, starts `tafelrunde serve` on a temporary SQLite file, and plays a Tschau Sepp match
to its end over HTTP; where TAFELRUNDE_TEST_POSTGRES_URL names a PostgreSQL server (CI's), once
more on a database of its own there.

Standard library only: it runs with the python3 that runs .ci/run.
    python3 tests/packaging/lower_bounds.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# A requirement as pyproject.toml writes them: name, extras, then comma-separated specifiers.
REQUIREMENT = re.compile(r"(?P<name>[A-Za-z0-9._-]+)(?:\[[^\]]*\])?\s*(?P<specifiers>[^;#]*)")
RUNNING = re.compile(r"Tafelrunde is running at (?P<base>http://\S+:\d+)/")


def lower_bounds(pyproject: dict[str, object]) -> list[str]:
    """`name==version` for each runtime dependency and each of the postgres extra."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    wanted = [*project["dependencies"], *project["optional-dependencies"]["postgres"]]
    pins = []
    for requirement in wanted:
        parsed = REQUIREMENT.fullmatch(requirement.strip())
        if parsed is None:
            raise SystemExit(f"lower_bounds: cannot read the requirement {requirement!r}")
        bounds = [part.strip()[2:].strip() for part in parsed["specifiers"].split(",")
                  if part.strip().startswith(">=")]
        if len(bounds) != 1:
            raise SystemExit(f"lower_bounds: {requirement!r} needs exactly one '>=' bound")
        pins.append(f"{parsed['name']}=={bounds[0]}")
    return pins


def copy_tracked(target: Path) -> None:
    """The tracked files, so that building the package leaves nothing in the checkout."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def call(base: str, method: str, path: str, body: object = None,
         token: str | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, json.loads(answer.read())


def play(base: str) -> None:
    """Two games of Tschau Sepp: Ann goes out first, then Bea; Ann has the fewest penalty
    points (3 against 6 and 14), so she wins and the match is finished. Then the match's link
    as the QR code the share screen shows."""
    status, match = call(base, "POST", "/api/v1/matches", {
        "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem"], "options": {"games": 2}})
    assert status == 201, match
    token = str(match["token"])
    rounds = f"/api/v1/matches/{match['id']}/rounds"
    status, first = call(base, "POST", rounds, {"winner": 0, "penalty": [0, 6, 7]}, token)
    assert (status, first["status"]) == (201, "in_progress"), first
    status, last = call(base, "POST", rounds, {"winner": 1, "penalty": [3, 0, 7]}, token)
    assert (status, last["status"], last["winners"]) == (201, "finished", [0]), last
    status, read = call(base, "GET", f"/api/v1/matches/{match['id']}")
    assert (status, read["status"], len(read["rounds"])) == (200, "finished", 2), read
    link = urllib.parse.quote(f"{base}/#/m/{match['id']}", safe="")
    with urllib.request.urlopen(f"{base}/api/v1/qr?text={link}", timeout=30) as drawn:
        assert drawn.headers["Content-Type"].startswith("image/svg+xml")
        assert drawn.read().startswith(b"<svg")


# Run by the environment's own python, so that asyncpg is the lower bound's.
DATABASE = """
import asyncio, sys
import asyncpg
async def main(admin, verb, name):
    connection = await asyncpg.connect(admin)
    await connection.execute(f'{verb} DATABASE "{name}"')
    await connection.close()
asyncio.run(main(*sys.argv[1:]))
"""


def play_on(venv: Path, work: Path, env: dict[str, str], database_url: str) -> None:
    """``tafelrunde serve`` of the environment on this database, and a match played on it."""
    server = subprocess.Popen(
        [str(venv / "bin" / "tafelrunde"), "serve", "--host", "127.0.0.1", "--port", "0"],
        cwd=work, env={**env, "TAFELRUNDE_DATABASE_URL": database_url},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        running = RUNNING.search(line)
        if running is None:  # what it said before it stopped
            said = line + server.communicate(timeout=60)[0]
            raise SystemExit(f"lower_bounds: serve on {database_url} did not start:\n{said}")
        play(running["base"])
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"lower bounds: a match played to its end on {database_url.split(':', 1)[0]}")


def main() -> int:
    started = time.monotonic()
    pins = lower_bounds(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory(prefix="tafelrunde-lower-bounds-") as temporary:
        work = Path(temporary)
        constraints = work / "constraints.txt"
        constraints.write_text("".join(f"{pin}\n" for pin in pins), encoding="utf-8")
        source = work / "source"
        copy_tracked(source)
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        # PIP_CONSTRAINT replaces any constraint file pip's configuration names (.ci/run sets
        # it to CI's exact pins): here the lower bounds are the only constraints.
        env = {**os.environ, "PIP_CONSTRAINT": str(constraints)}
        env.pop("VIRTUAL_ENV", None)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet",
                        "--disable-pip-version-check", f"{source}[postgres]"],
                       env=env, check=True)
        installed = subprocess.run([str(venv / "bin" / "pip"), "freeze", "--all"], env=env,
                                   capture_output=True, text=True, check=True).stdout
        named = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
        print("lower bounds:", ", ".join(
            line for line in installed.split()
            if line.split("==")[0].lower().replace("_", "-") in named))
        server_env = {name: value for name, value in env.items()
                      if not name.startswith("TAFELRUNDE_")}
        play_on(venv, work, server_env, f"sqlite+aiosqlite:///{work / 'lower.db'}")
        postgres = os.environ.get("TAFELRUNDE_TEST_POSTGRES_URL")
        if postgres:  # CI's PostgreSQL: asyncpg's bound too, on a database of its own
            python = str(venv / "bin" / "python")
            name = f"tafelrunde_lower_{os.getpid()}"
            admin = postgres.replace("postgresql+asyncpg://", "postgresql://", 1)
            subprocess.run([python, "-c", DATABASE, admin, "CREATE", name], check=True)
            try:
                play_on(venv, work, server_env, f"{postgres.rsplit('/', 1)[0]}/{name}")
            finally:
                subprocess.run([python, "-c", DATABASE, admin, "DROP", name], check=True)
    print(f"lower bounds: installed and played in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
