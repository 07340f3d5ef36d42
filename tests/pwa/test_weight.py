"""The first visit's budgets (bench/pwa_weight.py), as a test: bytes on the wire do not depend on
the machine, so a file that pushes the visit, or what loads before its first screen, over its
budget fails here, for a reader of any of the app's languages, instead of only showing in a
figure nobody reads."""

from __future__ import annotations

from api.server.settings import REPO_ROOT
from bench.pwa_weight import (
    BUDGET,
    CRITICAL_BUDGET,
    critical_path,
    first_visit,
    on_the_wire,
    served_app,
)

LANGUAGES = sorted(path.stem for path in (REPO_ROOT / "pwa" / "i18n").glob("*.json"))


def test_a_first_visit_and_its_first_screen_stay_within_their_budgets() -> None:
    assert LANGUAGES == ["de", "en", "fr", "it"]
    with served_app() as base:
        for language in LANGUAGES:
            installed, _ = first_visit(base, language)
            first_screen = critical_path(base, language)
            assert on_the_wire(installed) <= BUDGET, (language, on_the_wire(installed))
            assert on_the_wire(first_screen) <= CRITICAL_BUDGET, (
                language, on_the_wire(first_screen))
            # What the budgets count: the page, its words and its sheet among them.
            assert {"/", f"/i18n/{language}.json", "/css/app.css", "/js/app.js"} <= {
                transfer.path for transfer in first_screen}
