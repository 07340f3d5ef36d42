"""The running totals chart on the standings and winner screens at 360×640, light and dark: the
numbers a screen reader reads from the chart's table are the API's running totals round by round,
the picture fits the phone, every line keeps 3:1 against its panel in both schemes and differs
from the others by more than its colour; the winner screen names the winner and the reason, and
offers the way on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import box_of
from tests.e2e.test_pwa import api_match, new_api_match, points_round

pytestmark = pytest.mark.browser

# The chart's table as a screen reader reads it: column heads, then per row the round and cells.
CHART_TABLE = """(figure) => {
  const table = figure.querySelector('table');
  return {
    caption: table.caption.textContent,
    heads: [...table.tHead.rows[0].cells].map((cell) => cell.textContent),
    rows: [...table.tBodies[0].rows].map((row) => [...row.cells].map((cell) => cell.textContent)),
  };
}"""

# Each line's colour against the panel behind the chart, its dash pattern and marker shape.
LINES = """(figure) => {
  const rgb = (css) => css.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const linear = (c) => c.map((v) => { const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
  const ratio = (a, b) => { const [x, y] = [lum(linear(a)), lum(linear(b))].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const panel = rgb(getComputedStyle(figure.closest('.panel')).backgroundColor);
  // A marker's shape: its element, and a path's outline around its own centre.
  const shape = (el) => {
    if (el.tagName !== 'path') return el.tagName + (el.getAttribute('fill') || '');
    const box = el.getBBox();
    const centre = [box.x + box.width / 2, box.y + box.height / 2];
    let i = 0;
    return el.getAttribute('d').replace(/-?\\d+(\\.\\d+)?/g,
      (v) => String(Math.round(Number(v) - centre[i++ % 2])));
  };
  return [...figure.querySelectorAll('svg .chart-series')].map((g) => ({
    name: g.dataset.series,
    colour: getComputedStyle(g).stroke,
    contrast: ratio(rgb(getComputedStyle(g).stroke), panel),
    dash: g.querySelector('path').getAttribute('stroke-dasharray'),
    marker: shape(g.lastElementChild),
    strong: g.classList.contains('strong'),
  }));
}"""


def running(match: dict[str, Any], key: str) -> list[list[str]]:
    """The rows the chart's table should read: the round, then each side's running total."""
    return [[str(r["number"]), *(str(v) for v in r["totals"][key])] for r in match["rounds"]]


def check_picture(page: Any, figure: Any, names: list[str]) -> list[dict[str, Any]]:
    box = box_of(figure.locator("svg"))
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= 360, box
    assert box["width"] >= 300  # the phone's width, not a thumbnail
    for label in figure.locator("svg .chart-labels text").all():
        label_box = box_of(label)
        assert label_box["x"] + label_box["width"] <= 360, label.text_content()
        assert float(label.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")) >= 12
    lines: list[dict[str, Any]] = figure.evaluate(LINES)
    assert [line["name"] for line in lines] == names
    assert all(line["contrast"] >= 3 for line in lines), lines
    # Never colour alone: each line has its own dash pattern and marker shape.
    assert len({line["dash"] for line in lines}) == len(lines)
    assert len({line["marker"] for line in lines}) == len(lines)
    assert len({line["colour"] for line in lines}) == len(lines)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 360
    return lines


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_standings_chart_reads_the_running_totals_round_by_round(
        phone: Any, server: Any, scheme: str) -> None:
    match, token = new_api_match(server)
    for scores in [(5, 2, 1), (1, 5, 2), (2, 1, 5)]:
        server.post(f"/api/v1/matches/{match}/rounds", points_round(*scores), token)
    phone.page.emulate_media(color_scheme=scheme)
    phone.open(f"#/m/{match}/standings")
    page = phone.page
    figure = page.locator(".score-chart figure")
    expect(figure.locator("figcaption")).to_have_text("Running totals: VP")
    stored = api_match(server, match)
    read = figure.evaluate(CHART_TABLE)
    assert read["heads"] == ["Round", "Ann", "Ben", "Cid"]
    assert read["rows"] == running(stored, "vp")
    lines = check_picture(page, figure, ["Ann", "Ben", "Cid"])
    assert not any(line["strong"] for line in lines)  # nobody has won yet

    page.get_by_role("button", name="Points", exact=True).click()
    expect(figure.locator("figcaption")).to_have_text("Running totals: Points")
    expect(page.get_by_role("button", name="Points", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    read = figure.evaluate(CHART_TABLE)
    # The points are each round's scores added up: 5+1+2, 2+5+1, 1+2+5.
    assert read["rows"] == [["1", "5", "2", "1"], ["2", "6", "7", "3"], ["3", "8", "8", "8"]]
    assert read["rows"] == running(stored, "points")
    check_picture(page, figure, ["Ann", "Ben", "Cid"])

    # A new round reaches the open chart, which stays on the total the reader chose.
    server.post(f"/api/v1/matches/{match}/rounds", points_round(5, 2, 1), token)
    expect(figure.locator("tbody tr")).to_have_count(4)
    expect(figure.locator("figcaption")).to_have_text("Running totals: Points")
    assert figure.evaluate(CHART_TABLE)["rows"][-1] == ["4", "13", "10", "9"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_winner_screen_celebrates_with_the_reason_the_chart_and_the_way_on(
        phone: Any, server: Any, scheme: str) -> None:
    match, token = new_api_match(server)
    for _ in range(3):
        server.post(f"/api/v1/matches/{match}/rounds", points_round(5, 2, 1), token)
    stored = api_match(server, match)
    assert stored["status"] == "finished"
    phone.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    phone.open(f"#/m/{match}/winner?t={token}")
    page = phone.page
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    expect(page.locator("#winner-reason")).to_have_text(stored["reason"]["message"])
    expect(page.locator(".winner .trophy")).to_be_visible()
    # Under reduced motion nothing moves: the confetti rests where it would have landed.
    assert page.locator(".winner").evaluate(
        "(el) => [el, ...el.querySelectorAll('*')].every((node) => "
        "getComputedStyle(node).animationName === 'none')")
    figure = page.locator(".score-chart figure")
    read = figure.evaluate(CHART_TABLE)
    assert read["rows"] == running(stored, "vp")
    assert read["rows"][-1] == ["3", "3", "0", "0"]
    lines = check_picture(page, figure, ["Ann", "Ben", "Cid"])
    assert [line["strong"] for line in lines] == [True, False, False]
    page.get_by_role("link", name="New match").click()
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    page.go_back()
    page.get_by_role("button", name="Play again").click()
    expect(page.locator(".players input").first).to_have_value("Ann")


def test_eight_players_get_eight_lines_told_apart_without_colour(phone: Any, server: Any) -> None:
    names = ["Ann", "Ben", "Cid", "Dora", "Eva", "Fritz", "Gina", "Hugo"]
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": names})
    for winner in (0, 3):
        penalty = [0 if seat == winner else 3 * (seat + 1) for seat in range(8)]
        server.post(f"/api/v1/matches/{made['id']}/rounds", {"winner": winner, "penalty": penalty},
                    made["token"])
    phone.open(f"#/m/{made['id']}/standings")
    figure = phone.page.locator(".score-chart figure")
    expect(figure.locator("figcaption")).to_have_text("Running totals: Penalty")
    stored = api_match(server, made["id"])
    assert figure.evaluate(CHART_TABLE)["rows"] == running(stored, "penalty")
    check_picture(phone.page, figure, names)


def test_the_confetti_falls_once_when_motion_is_welcome(phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    for _ in range(3):
        server.post(f"/api/v1/matches/{match}/rounds", points_round(5, 2, 1), token)
    phone.page.emulate_media(reduced_motion="no-preference")
    phone.open(f"#/m/{match}/winner")
    style = phone.page.locator(".confetti span").first.evaluate(
        "(el) => [getComputedStyle(el).animationName,"
        " getComputedStyle(el).animationIterationCount]")
    assert style == ["confetti-fall", "1"]
