"""GET /api/v1/qr draws a link to this server as a QR code (SVG), cached by the browser for a
year under a strong ETag; anything else is a 422 naming ``text``. That the codes read back as
their links is proven where a camera would see them: tests/e2e decode the app's codes with zbar."""

from __future__ import annotations

import re

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.conftest import problem

Client = AsyncTestClient[Litestar]
QR = "/api/v1/qr"
HERE = "http://testserver.local"  # the test client's host
LINK = f"{HERE}/#/m/Xy3kP9?t=tAbLeToKeN0123456789abcdefghijk"

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


async def test_a_link_to_this_server_is_an_svg_cached_for_a_year(client: Client) -> None:
    drawn = await client.get(QR, params={"text": LINK})
    assert drawn.status_code == 200
    assert drawn.headers["content-type"].startswith("image/svg+xml")
    assert drawn.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert re.fullmatch(r'"[0-9a-f]{32}"', drawn.headers["etag"])  # strong: no W/
    assert drawn.headers["cache-control"] == "private, max-age=31536000, immutable"


async def test_the_same_link_is_the_same_code_and_another_link_another(client: Client) -> None:
    first = await client.get(QR, params={"text": LINK})
    again = await client.get(QR, params={"text": LINK})
    other = await client.get(QR, params={"text": f"{HERE}/#/m/Xy3kP9"})
    assert (again.content, again.headers["etag"]) == (first.content, first.headers["etag"])
    assert other.headers["etag"] != first.headers["etag"]


async def test_a_revalidation_with_the_codes_tag_is_304(client: Client) -> None:
    etag = (await client.get(QR, params={"text": LINK})).headers["etag"]
    current = await client.get(QR, params={"text": LINK}, headers={"If-None-Match": etag})
    assert (current.status_code, current.content) == (304, b"")
    assert current.headers["etag"] == etag
    stale = await client.get(QR, params={"text": LINK}, headers={"If-None-Match": '"old"'})
    assert stale.status_code == 200


async def test_a_link_of_more_than_512_characters_is_refused(client: Client) -> None:
    longest = LINK + "x" * (512 - len(LINK))
    assert (await client.get(QR, params={"text": longest})).status_code == 200
    body = problem(await client.get(QR, params={"text": longest + "x"}), 422)
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("text", "too_long")]
    assert body["errors"][0]["params"] == {"limit": 512, "length": 513}


@pytest.mark.parametrize("text", [
    "https://phishing.example/#/m/Xy3kP9",  # another site
    "http://testserver.local.example/",  # a host that only starts like this one
    "javascript:alert(1)",
    "Tafelrunde",  # not a link at all
    "",
])
async def test_only_links_to_this_server_are_drawn(client: Client, text: str) -> None:
    body = problem(await client.get(QR, params={"text": text}), 422)
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("text", "not_this_server")]


async def test_the_refusal_is_said_in_the_readers_language(client: Client) -> None:
    body = problem(await client.get(QR, params={"text": "https://elsewhere.example/"},
                                    headers={"Accept-Language": "de-CH"}), 422)
    assert body["errors"][0]["message"] == (
        "Nur Links zu diesem Server (testserver.local) werden als QR-Code gezeichnet.")


async def test_without_a_text_it_is_400_naming_it(client: Client) -> None:
    body = problem(await client.get(QR), 400)
    assert "text" in str(body)
