"""Accessibility of the main screens at 360×640, measured in chromium against a real server.

Every main screen (start, new match for each game, the score sheet of each game including Sea
Change's card grid, standings, winner, history, share) is checked for: an accessible name on every
control (the browser's own accessibility tree, not our guess), tap targets of at least 44×44 px,
no sideways scrolling at normal and at 200 % text size, WCAG AA contrast of every visible text in
the light and the dark scheme, and no transition or animation under reduced motion.

Decisions: a checkbox inside its label is measured by the label (the whole label is the tap
target, as the browser forwards taps on it); disabled controls are exempt from contrast (WCAG
1.4.3 exempts inactive components); contrast composites every translucent background and every
`opacity` between the text and the page, so dimmed cards count as they look.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.e2e.conftest import new_phone

pytestmark = pytest.mark.browser

Screen = tuple[str, Callable[[Any], None]]

# Roles a user operates; each needs a name a screen reader can say.
CONTROL_ROLES = {"button", "link", "textbox", "spinbutton", "combobox", "checkbox", "radio",
                 "searchbox", "listbox", "switch", "slider", "menuitem", "tab"}

TARGETS = """() => {
  const problems = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('button, a[href], input, select, textarea')) {
    if (!el.checkVisibility() || el.closest('.sr-only')) continue;
    const label = el.closest('label');
    const target = el.type === 'checkbox' && label ? label : el;
    if (seen.has(target)) continue;
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (Math.round(box.width) < 44 || Math.round(box.height) < 44) {
      const name = el.getAttribute('aria-label') || el.textContent.trim()
        || el.outerHTML.slice(0, 80);
      problems.push(`${name}: ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return problems;
}"""

OVERFLOW = """() => {
  const wide = document.scrollingElement.scrollWidth;
  if (wide <= innerWidth) return null;
  const culprits = [...document.querySelectorAll('main *, header *')]
    .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
    .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''));
  return `${wide} > ${innerWidth}: ${culprits.slice(0, 5).join(', ')}`;
}"""

# The colour a pixel of text (and of the background right next to it) has on screen: every
# ancestor's background composited from the canvas inwards, each opacity group blended over
# what lies beneath it.
CONTRAST = """() => {
  const parse = (css) => {
    const m = css.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  const mix = (inner, under, o) => [0, 1, 2]
    .map((i) => inner[i] * o + under[i] * (1 - o)).concat(1);
  const paint = (chain, i, under, ink) => {
    if (i === chain.length) return ink ? over(ink, under) : under;
    const style = getComputedStyle(chain[i]);
    const own = over(parse(style.backgroundColor), under);
    const inner = paint(chain, i + 1, own, ink);
    return mix(inner, under, Number(style.opacity));
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // The body paints the whole page opaque, so the canvas beneath never shows.
  const canvas = [255, 255, 255, 1];
  const check = (el, text, colour) => {
    const chain = [];
    for (let at = el; at; at = at.parentElement) chain.unshift(at);
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const ink = paint(chain, 0, canvas, parse(colour));
    const ground = paint(chain, 0, canvas, null);
    const got = ratio(ink, ground);
    const needed = large ? 3 : 4.5;
    return got + 0.005 < needed ? `"${text.slice(0, 30)}" ${got.toFixed(2)} < ${needed}` : null;
  };
  const problems = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el.checkVisibility({ visibilityProperty: true })) continue;
    if (el.closest('.sr-only, [disabled], noscript, option, .qr')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const problem = check(el, text, getComputedStyle(el).color);
    if (problem) problems.add(problem);
  }
  for (const input of document.querySelectorAll('input:not([type=checkbox]), select')) {
    if (!input.checkVisibility() || input.disabled) continue;
    if (input.value) {
      const shown = input.tagName === 'SELECT' ? input.selectedOptions[0]?.text || '' : input.value;
      const problem = check(input, shown, getComputedStyle(input).color);
      if (problem) problems.add(problem);
    } else if (input.placeholder) {
      const hint = getComputedStyle(input, '::placeholder').color;
      const problem = check(input, input.placeholder, hint);
      if (problem) problems.add(`placeholder ${problem}`);
    }
  }
  return [...problems];
}"""

MOTION = """() => {
  const moving = [];
  for (const el of [document.documentElement, ...document.querySelectorAll('*')]) {
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(el, pseudo);
      const lasts = (list) => list.split(',').some((d) => parseFloat(d) > 0);
      if ((lasts(style.transitionDuration) && style.transitionProperty !== 'none')
          || (style.animationName !== 'none' && lasts(style.animationDuration))) {
        moving.push(`${el.tagName.toLowerCase()}.${el.className}${pseudo || ''}`);
      }
    }
  }
  return moving;
}"""


CLUB = "club"  # the club of the season screens: its id and its member link's tokens


@pytest.fixture(scope="module")
def matches(server: Any) -> dict[str, tuple[str, str]]:
    """One match per screen kind, made through the API: (id, edit token)."""
    def made(game: str, players: list[str], rounds: list[dict[str, Any]]) -> tuple[str, str]:
        match = server.post("/api/v1/matches", {"game": game, "players": players})
        for entry in rounds:
            server.post(f"/api/v1/matches/{match['id']}/rounds", entry, match["token"])
        return match["id"], match["token"]

    ann_wins = {"final_trump": "red", "scores": [5, 2, 1], "trump_zero": 0}
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    for day, penalties in (("05", [0, 3, 6]), ("12", [6, 0, 3]), ("19", [3, 6, 0])):
        match = server.post("/api/v1/matches", {
            "game": "tschau-sepp", "players": ["Ann", "Ben", "Cid"], "options": {"games": 1},
            "club": club["id"], "played_at": f"2026-11-{day}T20:00:00+01:00"}, club["token"])
        server.post(f"/api/v1/matches/{match['id']}/rounds",
                    {"winner": penalties.index(0), "penalty": penalties}, match["token"])
    server.post(f"/api/v1/clubs/{club['id']}/seasons", {
        "name": "Herbst", "from": "2026-11-01", "to": "2026-11-30", "best": 2}, club["token"])
    return {
        CLUB: (club["id"], f"{club['token']}&v={club['view_token']}"),
        "finished": made("sea-change", ["Ann", "Ben", "Cid"], [ann_wins] * 3),
        "running": made("sea-change", ["Ann", "Ben", "Cid"], [ann_wins]),
        "seven-seals": made("seven-seals", ["Ann", "Ben", "Cid"], []),
        "tschau-sepp": made("tschau-sepp", ["Ann", "Ben", "Cid"], []),
    }


def main_screens(matches: dict[str, tuple[str, str]]) -> list[Screen]:
    """(route, what to tap after opening) of every main screen, the edit token stored first."""
    def nothing(page: Any) -> None:
        del page

    def tap(selector: str) -> Callable[[Any], None]:
        return lambda page: page.click(selector)

    def suits_asked(page: Any) -> None:
        """Card mode before the suits in play are known: every suit is pressed as in play."""
        page.get_by_role("radio", name="Cards", exact=True).click()
        page.locator("[data-suit=red][aria-pressed=true]").wait_for()

    def card_mode(page: Any) -> None:
        page.click("[data-path=final_trump] [data-value=red]")
        page.get_by_role("radio", name="Cards", exact=True).click()
        page.click("[data-suit=purple]")  # the suits not in play, asked first
        page.click("[data-suit=yellow]")
        page.locator("[data-card=red-0]").click()
        page.locator("[data-card=blue-4]").click()
        page.locator(".piles [role=radio]").nth(1).click()
        page.locator("[data-card=green-12]").click()
        page.locator(".pile .note").first.wait_for()
        # The question goes once the guide has answered with the deck: measure the grid alone,
        # whenever that answer comes (suits_asked measures the question).
        page.locator("[data-suit]").first.wait_for(state="detached")

    def seven_seals_bids(page: Any) -> None:
        page.locator("[data-path='bids[1]']").get_by_role("button", name="Saboteur").click()
        for _ in range(3):
            page.locator("[data-path='bids[0]'] [data-colour=blue]").click()
        page.locator("[data-path='bids[2]'] [data-colour=blue]").click()

    finished, _ = matches["finished"]
    club, club_link = matches[CLUB]
    running, _ = matches["running"]
    return [
        *((f"#/m/{m}?t={token}", nothing) for kind, (m, token) in matches.items() if kind != CLUB),
        ("#/", nothing),
        ("#/new", nothing),
        ("#/new", tap("[data-value=seven-seals]")),
        ("#/new", tap("[data-value=tschau-sepp]")),
        (f"#/m/{running}", tap("[data-path=final_trump] [data-value=red]")),
        (f"#/m/{running}", suits_asked),
        (f"#/m/{running}", card_mode),
        (f"#/m/{matches['seven-seals'][0]}", seven_seals_bids),
        (f"#/m/{matches['tschau-sepp'][0]}", tap("[data-path=winner] [data-value='0']")),
        (f"#/m/{running}/standings", nothing),
        (f"#/m/{finished}/winner", nothing),
        (f"#/m/{finished}/history", nothing),
        (f"#/m/{finished}/share", nothing),
        (f"#/c/{club}/season?t={club_link}", nothing),
        (f"#/c/{club}/season/1/p/1", nothing),
        (f"#/c/{club}/p/1", tap("#member-forget")),
        (f"#/c/{club}", nothing),
    ]


def visit(phone: Any, screens: list[Screen]) -> Iterator[str]:
    """Opens each screen in turn and yields where it is once it is drawn and prepared."""
    for route, prepare in screens:
        phone.page.goto("about:blank")  # a full load each time: body[data-ready] then means drawn
        phone.open(route)
        prepare(phone.page)
        phone.page.wait_for_timeout(150)  # the guide's debounced answer
        yield f"{route.split('?')[0]} ({prepare.__name__})"


def sweep(browser: Any, server: Any, matches: dict[str, tuple[str, str]], scheme: str
          ) -> dict[str, list[str]]:
    """Every measure on every main screen in one colour scheme, under reduced motion."""
    phone = new_phone(browser, server)
    phone.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    tree = phone.context.new_cdp_session(phone.page)
    found: dict[str, list[str]] = {"controls": [], "unnamed": [], "small": [], "wide": [],
                                   "faint": [], "moving": []}
    try:
        for where in visit(phone, main_screens(matches)):
            page = phone.page
            for node in tree.send("Accessibility.getFullAXTree")["nodes"]:
                role = node.get("role", {}).get("value")
                if node.get("ignored") or role not in CONTROL_ROLES:
                    continue
                found["controls"].append(where)
                if not str(node.get("name", {}).get("value", "")).strip():
                    found["unnamed"].append(f"{where}: {role} {node.get('backendDOMNodeId')}")
            found["small"] += [f"{where}: {problem}" for problem in page.evaluate(TARGETS)]
            found["faint"] += [f"{where}: {problem}" for problem in page.evaluate(CONTRAST)]
            found["moving"] += [f"{where}: {element}" for element in page.evaluate(MOTION)]
            for size in ("200%", ""):
                # The CSP forbids inline styles in markup, not through the CSSOM.
                page.evaluate("(size) => { document.documentElement.style.fontSize = size; }",
                              size)
                overflow = page.evaluate(OVERFLOW)
                if overflow:
                    found["wide"].append(f"{where} at {size or '100%'}: {overflow}")
    finally:
        phone.context.close()
    assert phone.errors == []
    return found


@pytest.fixture(scope="module")
def swept(browser: Any, server: Any, matches: dict[str, tuple[str, str]]
          ) -> Callable[[str], dict[str, list[str]]]:
    done: dict[str, dict[str, list[str]]] = {}

    def measures(scheme: str) -> dict[str, list[str]]:
        if scheme not in done:
            done[scheme] = sweep(browser, server, matches, scheme)
        return done[scheme]
    return measures


def test_every_control_on_the_main_screens_has_an_accessible_name(swept: Any) -> None:
    measured = swept("light")
    assert len(measured["controls"]) > 300
    assert measured["unnamed"] == [], "\n".join(measured["unnamed"])


def test_every_visible_control_is_a_tap_target_of_at_least_44_px(swept: Any) -> None:
    assert swept("light")["small"] == [], "\n".join(swept("light")["small"])


def test_no_main_screen_scrolls_sideways_at_normal_or_double_text_size(swept: Any) -> None:
    assert swept("light")["wide"] == [], "\n".join(swept("light")["wide"])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_all_visible_text_meets_wcag_aa_contrast(swept: Any, scheme: str) -> None:
    assert swept(scheme)["faint"] == [], "\n".join(swept(scheme)["faint"])


def test_reduced_motion_turns_every_transition_and_animation_off(phone: Any, swept: Any) -> None:
    phone.open("#/")
    assert phone.page.evaluate(MOTION) != []  # the toast slides in when motion is welcome
    assert swept("light")["moving"] == [], "\n".join(swept("light")["moving"])
