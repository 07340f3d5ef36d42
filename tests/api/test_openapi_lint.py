"""The served OpenAPI document passes Redocly's recommended rules without an error or a warning:
what client generators and documentation tools read (security per operation, the licence, no
one-armed oneOf) says what the API does.

Redocly's CLI comes from the npm registry, pinned, installed once into a cache folder outside the
repository (:mod:`bench.npm`: ``$XDG_CACHE_HOME`` or ``~/.cache``, then
``tafelrunde/redocly-<version>``); later runs use that install. Without node and npm, or when npm
cannot reach its registry, the test skips with the reason, except under ``CI=true``, where it
fails; any other failure to install it fails everywhere.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from bench.npm import Unavailable, npm_tool

REDOCLY_VERSION = "2.77.0"

Client = AsyncTestClient[Litestar]


@pytest.fixture(scope="session")
def redocly() -> Path:
    """The cached Redocly CLI, installed first if it is missing."""
    try:
        return npm_tool("redocly", "@redocly/cli", REDOCLY_VERSION, "redocly")
    except Unavailable as reason:
        if os.environ.get("CI") == "true":
            pytest.fail(str(reason))
        pytest.skip(str(reason))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_redocly_finds_no_error_and_no_warning(client: Client, redocly: Path,
                                                     tmp_path: Path) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    document = tmp_path / "openapi.json"
    document.write_text(response.text, encoding="utf-8")
    linted = await asyncio.to_thread(
        subprocess.run, [str(redocly), "lint", "--format=json", str(document)], cwd=tmp_path,
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"})
    report: dict[str, Any] = json.loads(linted.stdout)
    found = [f"{problem['severity']} {problem['ruleId']} at "
             f"{', '.join(where['pointer'] for where in problem['location'])}: "
             f"{problem['message']}" for problem in report["problems"]]
    assert found == []
    assert linted.returncode == 0, linted.stderr
