"""pyproject.toml names every package the wheel must carry (a package-dir mapping rules out
discovery): a new folder of modules under api/ or scoring/ must be added there, or the installed
command would fail to import it. (tests/packaging builds and installs the wheel itself.)"""

from __future__ import annotations

import tomllib

from api.server.settings import REPO_ROOT


def test_every_folder_of_modules_is_a_package_of_the_wheel() -> None:
    setuptools = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join(path.parent.relative_to(REPO_ROOT).parts)
        for top in ("api", "scoring") for path in (REPO_ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    mapped = {name for name in setuptools["packages"] if name in setuptools["package-dir"]
              or any(name.startswith(f"{parent}.") for parent in setuptools["package-dir"])}
    assert sorted(folders) == sorted(set(setuptools["packages"]) - mapped)
