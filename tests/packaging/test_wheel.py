"""The wheel as a user gets it: built from the tracked files, installed (not editable) into a
fresh virtual environment, started from an empty folder far from the repository, and played.

The fresh environment gets exactly the versions this one runs (as constraints), so pip takes
them from its cache and the local index rather than resolving anew.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import httpx
import pytest

from api.i18n import LANGUAGES
from api.server.cli import RUNNING
from api.server.settings import REPO_ROOT

pytestmark = pytest.mark.slow

# Where each tracked folder lands in the wheel.
IN_THE_WHEEL = {"api": "api", "scoring": "scoring", "pwa": "api/pwa",
                "migrations": "api/migrations"}


def tracked(*paths: str) -> list[str]:
    listed = subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files", "-z", *paths],
                            capture_output=True, check=True).stdout.decode()
    return [name for name in listed.split("\0") if name]


def run(*command: str | Path, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done.stdout


@dataclass(frozen=True)
class Build:
    wheel: Path
    said: str  # what the build backend wrote to stderr


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The wheel, built in a copy of the tracked files (a build leaves build/ and egg-info
    behind, which must not land in the repository) by the build backend itself, as any front
    end (pip, build, uv) calls it: pip would keep the backend's warnings to itself."""
    source = tmp_path_factory.mktemp("source")
    for name in tracked(*IN_THE_WHEEL, "pyproject.toml", "README.md", "LICENSE"):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((REPO_ROOT / name).read_bytes())
    dist = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from setuptools import build_meta; "
         "build_meta.build_wheel(sys.argv[1])", str(dist)],
        cwd=source, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    (built,) = dist.glob("tafelrunde-*.whl")
    return Build(built, done.stderr)


@pytest.fixture(scope="module")
def wheel(build: Build) -> Path:
    return build.wheel


def test_the_build_warns_of_nothing(build: Build) -> None:
    """setuptools warns of what it will stop doing (a licence given as a table, data folders
    that look like packages): the build must not depend on any of it."""
    warnings = re.findall(r"^\S+:\d+: (\w*Warning\w*: .*)$", build.said, re.MULTILINE)
    assert warnings == []


def test_the_wheel_holds_every_tracked_file_of_the_app_and_says_mit(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        fields = archive.read(f"{info}/METADATA").decode().splitlines()
    expected = {IN_THE_WHEEL[name.split("/")[0]] + name[name.index("/"):]
                for name in tracked(*IN_THE_WHEEL)}
    assert sorted(expected - names) == []
    assert f"{info}/licenses/LICENSE" in names
    assert "License-Expression: MIT" in fields
    assert not any(name.startswith(("tests/", "bench/", "pwa/", "migrations/")) for name in names)


def test_the_wheels_metadata_names_its_authors_python_and_languages(wheel: Path) -> None:
    """What a package index shows beside the README (twine check passes on the wheel and the
    sdist; README says how to run it)."""
    with zipfile.ZipFile(wheel) as archive:
        info = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        fields = archive.read(info).decode().splitlines()
    assert "Author: Tafelrunde developers" in fields
    assert "Requires-Python: >=3.11" in fields
    assert "Classifier: Programming Language :: Python :: 3.11" in fields
    assert {f"Classifier: Natural Language :: {language}"
            for language in ("English", "French", "German", "Italian")} <= set(fields)
    assert "Description-Content-Type: text/markdown" in fields


def test_the_wheel_carries_every_catalogue_compiled(wheel: Path) -> None:
    """The build step compiled each language's .po (pyproject.toml's cmdclass): nobody did."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {f"api/i18n/locale/{language}/LC_MESSAGES/messages.mo"
            for language in LANGUAGES} <= names


def pins() -> str:
    """This environment's versions of everything the wheel may pull in."""
    return "".join(f"{dist.metadata['Name']}=={dist.version}\n"
                   for dist in metadata.distributions()
                   if dist.metadata["Name"] and dist.metadata["Name"].lower() != "tafelrunde")


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel (no extras) installed; its bin folder."""
    home = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", home)
    constraints = home / "constraints.txt"
    constraints.write_text(pins())
    run(sys.executable, "-m", "pip", "--python", home / "bin" / "python", "install", "--quiet",
        "--constraint", constraints, wheel)
    return home / "bin"


def clean_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items()
            if not name.startswith("TAFELRUNDE_") and name not in ("PYTHONPATH", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``tafelrunde serve --port 0`` of the installed wheel, in an empty folder."""
    folder = tmp_path_factory.mktemp("club-laptop")
    process = subprocess.Popen([installed / "tafelrunde", "serve", "--port", "0"], cwd=folder,
                               env=clean_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        running = RUNNING.fullmatch(line.strip())
        assert running is not None, line + process.stdout.read()
        assert (folder / "tafelrunde.db").exists()  # migrated before it answers
        yield running["base"]
    finally:
        process.terminate()
        process.wait(timeout=15)
        if process.stdout is not None:
            process.stdout.close()


def test_the_installed_code_is_the_wheels_not_the_repositorys(installed: Path) -> None:
    where = run(installed / "python", "-c", "import api, scoring; print(api.__file__); "
                "print(scoring.__file__)", cwd=installed, env=clean_env())
    assert all(str(installed.parent) in line for line in where.splitlines()), where
    assert str(REPO_ROOT) not in where


def test_the_installed_app_is_served_at_the_root(served: str) -> None:
    page = httpx.get(f"{served}/", timeout=10)
    assert page.status_code == 200
    assert page.text == (REPO_ROOT / "pwa" / "index.html").read_text(encoding="utf-8")
    assert httpx.get(f"{served}/sw.js", timeout=10).status_code == 200
    # The service worker's list of files is written from the installed copy of the app.
    precache = httpx.get(f"{served}/precache.js", timeout=10).text
    assert '"js/tournaments/dashboard.js"' in precache
    assert '"index.html"' in precache


def test_a_round_is_played_against_the_installed_server(served: str) -> None:
    with httpx.Client(base_url=served, timeout=10) as http:
        created = http.post("/api/v1/matches", json={
            "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem"]})
        assert created.status_code == 201, created.text
        match = created.json()
        url = f"/api/v1/matches/{match['id']}"
        recorded = http.post(f"{url}/rounds", json={"winner": 1, "penalty": [7, 0, 3]},
                             headers={"Authorization": f"Bearer {match['token']}"})
        assert recorded.status_code == 201, recorded.text
        read = http.get(url).json()
    assert read["version"] == 2
    assert [r["entry"] for r in read["rounds"]] == [{"winner": 1, "penalty": [7, 0, 3]}]


def test_the_installed_server_speaks_the_readers_language(served: str) -> None:
    with httpx.Client(base_url=served, timeout=10) as http:
        missing = http.get("/api/v1/matches/nothing-here", headers={"Accept-Language": "de-CH"})
    assert missing.status_code == 404
    assert missing.headers["content-language"] == "de"
    assert missing.json()["title"] == "Nicht gefunden"


def test_the_installed_command_says_the_wheels_version(installed: Path) -> None:
    version = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert run(installed / "tafelrunde", "--version", env=clean_env()) == f"tafelrunde {version}\n"


def test_the_installed_migrations_match_the_models(installed: Path, tmp_path: Path) -> None:
    env = {**clean_env(), "TAFELRUNDE_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"}
    run(installed / "tafelrunde", "db", "upgrade", cwd=tmp_path, env=env)
    assert run(installed / "tafelrunde", "db", "check", cwd=tmp_path, env=env).endswith(
        "models and migrations agree\n")


def test_postgresql_without_its_extra_is_one_clear_line(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [installed / "tafelrunde", "db", "upgrade"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, check=False, env={
            **clean_env(), "TAFELRUNDE_DATABASE_URL": "postgresql+asyncpg://club@127.0.0.1/t"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("tafelrunde db upgrade: error: "
                           "TAFELRUNDE_DATABASE_URL='postgresql+asyncpg://club@"
                           "127.0.0.1/t': PostgreSQL needs the postgres extra: "
                           "pip install 'tafelrunde[postgres]'\n")
