"""A tool from the npm registry (bench/npm.py): a machine without npm, or whose npm cannot reach
its registry, is told apart from an install that fails, so that a test or bench may skip for the
first and never for the second. npm is played by a script that answers as npm does."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.npm import Unavailable, npm_tool

# A refused connection as npm 11 writes it, and a registry whose name does not resolve as npm 9.
REFUSED = """npm error code ECONNREFUSED
npm error syscall connect
npm error errno ECONNREFUSED
npm error FetchError: request to http://127.0.0.1:9/left-pad failed, reason: connect ECONNREFUSED
npm error
npm error If you are behind a proxy, please make sure that the proxy config is set properly.
"""
UNKNOWN_HOST = """npm ERR! code ENOTFOUND
npm ERR! syscall getaddrinfo
npm ERR! errno ENOTFOUND
npm ERR! network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo
npm ERR! network This is a problem related to network connectivity.
"""
NO_SUCH_VERSION = """npm error code ETARGET
npm error notarget No matching version found for left-pad@9.9.9.
"""


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder and a PATH of its own: add ``node`` and ``npm`` to its bin."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    monkeypatch.setenv("PATH", str(bin_folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return bin_folder


def install_npm(bin_folder: Path, stderr: str) -> None:
    """``node``, and an ``npm`` that writes ``stderr`` and fails (shell builtins only: PATH
    holds nothing else)."""
    lines = " ".join(f"'{line}'" for line in stderr.splitlines())
    for name, script in (("node", "exit 0\n"), ("npm", f"printf '%s\\n' {lines} >&2\nexit 1\n")):
        path = bin_folder / name
        path.write_text(f"#!/bin/sh\n{script}", encoding="utf-8")
        path.chmod(0o755)


def test_without_npm_the_tool_is_unavailable(machine: Path) -> None:
    with pytest.raises(Unavailable, match="not installed"):
        npm_tool("left-pad", "left-pad", "1.3.0", "left-pad")


@pytest.mark.parametrize(("stderr", "code"), [(REFUSED, "ECONNREFUSED"),
                                              (UNKNOWN_HOST, "ENOTFOUND")])
def test_an_unreachable_registry_makes_the_tool_unavailable(machine: Path, stderr: str,
                                                            code: str) -> None:
    install_npm(machine, stderr)
    with pytest.raises(Unavailable, match=rf"cannot reach its registry \({code}\)"):
        npm_tool("left-pad", "left-pad", "1.3.0", "left-pad")


def test_any_other_failure_to_install_is_an_error(machine: Path) -> None:
    install_npm(machine, NO_SUCH_VERSION)
    with pytest.raises(RuntimeError, match="No matching version found"):
        npm_tool("left-pad", "left-pad", "9.9.9", "left-pad")


def test_an_installed_tool_is_taken_from_the_cache_without_npm(machine: Path,
                                                               tmp_path: Path) -> None:
    cli = tmp_path / "cache" / "tafelrunde" / "left-pad-1.3.0" / "node_modules" / ".bin"
    cli.mkdir(parents=True)
    (cli / "left-pad").touch()
    assert npm_tool("left-pad", "left-pad", "1.3.0", "left-pad") == cli / "left-pad"
