"""Ids never start with ``-``: a spreadsheet would take one for a formula (and the exports'
guard would put a ``'`` before it), a command line for an option."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.shared import ids


def test_an_id_drawn_with_a_leading_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: Iterator[str] = iter(["-81z2", "-x", "Kq9-"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda _bytes: next(drawn))
    assert ids.new_id(9) == "Kq9-"


def test_ids_are_url_safe_of_the_length_asked_and_never_start_with_a_dash() -> None:
    made = [ids.new_id(9) for _ in range(5000)]  # some 78 would start with "-" if not drawn again
    assert not [i for i in made if i.startswith("-")]
    assert {len(i) for i in made} == {12}
    assert all(c.isalnum() or c in "-_" for i in made for c in i)


def test_every_id_of_a_match_a_tournament_or_a_club_is_drawn_so() -> None:
    """Only tokens (never shown in a sheet) and a table phone's key are drawn otherwise."""
    api = Path(ids.__file__).resolve().parents[1]
    drawn_elsewhere = sorted(str(p.relative_to(api)) for p in api.rglob("*.py")
                             if "token_urlsafe(" in p.read_text())
    assert drawn_elsewhere == ["edge/auth.py", "shared/ids.py", "tournaments/access.py"]
