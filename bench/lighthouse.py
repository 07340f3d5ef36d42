"""Lighthouse (mobile) on the app's first screen: every category's score and the main metrics,
against a performance target of 98.

Lighthouse comes from the npm registry and drives Debian's chromium (``CHROME_PATH``). It is
installed once (:mod:`bench.npm`: a cache folder outside the repository, ``$XDG_CACHE_HOME`` or
``~/.cache``, then ``tafelrunde/lighthouse-<version>``), pinned to ``LIGHTHOUSE_VERSION``: the
12 line, because 13 needs Node 22 and Debian 12 ships Node 18 (12.8 runs on 18.16 and later).
``--lighthouse PATH`` runs another installed CLI instead.

Lighthouse's defaults are kept: a mid-range phone on a slow 4G network, simulated. Simulated
scores still move a little from run to run, so the bench runs ``--runs`` times (default 3) and
judges the median performance score. It also prints what Lighthouse would improve (audits of
the performance category that did not pass, with their estimated savings) and every failed
audit of the other categories.

The server is ``tafelrunde serve`` on a free port with a throwaway database, as in
``bench/pwa_weight.py``.

Exit status: 0 at or above the target, 1 below it, 2 when Lighthouse or chromium cannot be had.
``--smoke`` makes one run and exits 0 below the target too, and when Lighthouse cannot be had
(no npm, or no registry to reach) prints why and exits 0: CI checks that the bench runs, and a
simulated score on a busy shared machine (79 under a load of 20) says nothing about the app;
the bench without ``--smoke`` judges the median of several runs on a quiet machine.

Run: ``.venv/bin/python bench/lighthouse.py [--runs N] [--smoke]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path, where bench/api.py would shadow
# the package; the project root must come first instead.
if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.npm import Unavailable, npm_tool
from bench.pwa_weight import served_app

LIGHTHOUSE_VERSION = "12.8.2"
TARGET = 98
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    ("first-contentful-paint", "First Contentful Paint"),
    ("largest-contentful-paint", "Largest Contentful Paint"),
    ("total-blocking-time", "Total Blocking Time"),
    ("cumulative-layout-shift", "Cumulative Layout Shift"),
    ("speed-index", "Speed Index"),
    ("interactive", "Time to Interactive"),
)
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run"


def lighthouse_cli(given: str | None) -> Path:
    """The Lighthouse CLI: the one given, else the cached install, made first if missing."""
    if given:
        return Path(given)
    return npm_tool("lighthouse", "lighthouse", LIGHTHOUSE_VERSION, "lighthouse")


def chromium() -> str:
    path = os.environ.get("CHROME_PATH") or shutil.which("chromium")
    if not path:
        raise Unavailable("chromium is not installed (Debian package chromium)")
    return path


def run_once(cli: Path, browser: str, url: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        done = subprocess.run(
            [str(cli), url, "--output=json", f"--output-path={report}", "--quiet",
             f"--chrome-flags={CHROME_FLAGS}",
             *(f"--only-categories={category}" for category in CATEGORIES)],
            env={**os.environ, "CHROME_PATH": browser}, capture_output=True, text=True,
            timeout=300, check=False)
        if done.returncode != 0 or not report.exists():
            raise RuntimeError(f"lighthouse failed: {done.stderr.strip()[-2000:]}")
        result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
        return result


def score(result: dict[str, Any], category: str) -> int:
    return round(100 * (result["categories"][category]["score"] or 0))


def print_run(number: int, result: dict[str, Any]) -> None:
    scores = "  ".join(f"{category} {score(result, category)}" for category in CATEGORIES)
    print(f"run {number}: {scores}")
    audits = result["audits"]
    for audit_id, name in METRICS:
        audit = audits[audit_id]
        print(f"    {name:<26} {audit.get('displayValue', ''):>10}  (score {audit['score']})")


def print_findings(result: dict[str, Any]) -> None:
    """What did not pass: performance audits with their estimated savings, and failed audits of
    the other categories."""
    audits = result["audits"]
    metrics = {audit_id for audit_id, _ in METRICS}
    findings = []
    for category in CATEGORIES:
        for ref in result["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            passed = audit["score"] is None or audit["score"] >= 0.9
            if ref["id"] in metrics or passed or audit["scoreDisplayMode"] in {
                    "notApplicable", "informative", "manual"}:
                continue
            findings.append(f"    {category}: {audit['title']}  {audit.get('displayValue', '')}")
    print("not passed:" if findings else "not passed: nothing")
    for line in findings:
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs (default 3)")
    parser.add_argument("--lighthouse", help="a Lighthouse CLI to run instead of the cached one")
    parser.add_argument("--smoke", action="store_true",
                        help="one run; skip with a message when Lighthouse cannot be had")
    options = parser.parse_args()
    runs = 1 if options.smoke else max(1, options.runs)
    try:
        cli = lighthouse_cli(options.lighthouse)
        browser = chromium()
    except Unavailable as reason:
        print(f"lighthouse bench skipped: {reason}")
        return 0 if options.smoke else 2
    with served_app() as base:
        results = []
        for number in range(1, runs + 1):
            results.append(run_once(cli, browser, f"{base}/"))
            print_run(number, results[-1])
    median = statistics.median(score(result, "performance") for result in results)
    print_findings(results[-1])
    print(f"lighthouse {results[-1]['lighthouseVersion']}, mobile, {runs} run(s): median "
          f"performance {median:g} (target {TARGET}): {'OK' if median >= TARGET else 'BELOW'}")
    return 0 if options.smoke or median >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
