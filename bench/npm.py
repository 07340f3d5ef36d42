"""A command-line tool from the npm registry, for the benches and tests that need one (Lighthouse,
Redocly's CLI): installed once with ``npm install``, pinned, into a cache folder outside the
repository (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``tafelrunde/<name>-<version>``); later
runs use that install.

What the machine lacks is told apart from what fails: without node and npm, or when npm cannot
reach its registry (a refused connection, an unknown host, a timeout: :data:`UNREACHABLE`),
:class:`Unavailable` says why, and the caller may skip; any other failure of ``npm install`` (a
version that does not exist, a broken package) is an error.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

# npm 9 writes "npm ERR! code …", npm 10 and later "npm error code …"; these codes say that the
# registry did not answer (npm files most of them under "network", a refused connection not).
UNREACHABLE = re.compile(r"^npm (?:ERR!|error) code (ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|"
                         r"EAI_FAIL|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT)$",
                         re.MULTILINE)


class Unavailable(Exception):
    """A tool cannot be had on this machine: no node and npm, or no registry to fetch from (or,
    for Lighthouse, no chromium)."""


def cache_folder(name: str, version: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tafelrunde" / f"{name}-{version}"


def npm_tool(name: str, package: str, version: str, command: str) -> Path:
    """The ``command`` of ``package`` at ``version``, installed first if it is missing."""
    folder = cache_folder(name, version)
    cli = folder / "node_modules" / ".bin" / command
    if cli.exists():
        return cli
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise Unavailable("node and npm are not installed (Debian packages nodejs and npm)")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"installing {package}@{version} into {folder} ...", flush=True)
    installed = subprocess.run(
        [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--omit=dev",
         "--save-exact", f"{package}@{version}"],
        capture_output=True, text=True, timeout=600, check=False)
    unreachable = UNREACHABLE.search(installed.stderr)
    if installed.returncode != 0 and unreachable:
        raise Unavailable(f"npm cannot reach its registry ({unreachable[1]})")
    if installed.returncode != 0 or not cli.exists():
        raise RuntimeError(f"npm could not install {package}@{version}:\n"
                           f"{installed.stderr.strip()[-2000:]}")
    return cli
