"""The app in German, French and Italian, in chromium at 360×640 against a real server.

A phone set to Swiss German, French or Italian starts the app in its language, plays a Sea Change
match with a deliberate typo through to the winner, and on every screen on the way (start, new
match, entry, the error at the field, the winner) no English shows: neither in the visible text
nor in what a screen reader says (aria-label, title, placeholder, alt). The same for a tournament
round: new tournament, dashboard, table cards, projector board, player view, entering and
confirming at the table. Every API request of the phone asks for its language. The language
picker switches and remembers; plural forms and numbers follow the reader's language and region.

How English is found, from two sources:
- the app's own words: every string of the English catalogue whose translation differs is cut at
  its placeholders into fragments (“{n} rounds played” → “rounds played”); a fragment that also
  occurs in the target language's catalogue (French “Table”) is not evidence and is dropped;
- the API's words: what the API says in English (problem titles, details and messages, reasons,
  option labels, help and choices of GET /games) for the very requests the screen shows, asked
  again with Accept-Language: en; each that differs from its answer in the target language must
  not appear.
Text marked with another language (the picker's “English”, lang="en") is the one place English
belongs.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONES, Phone, Server, box_of, phone_in_use

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parents[2] / "pwa" / "i18n"
CATALOGUES: dict[str, dict[str, Any]] = {
    path.stem: json.loads(path.read_text(encoding="utf-8")) for path in I18N.glob("*.json")}
# A save travels through the outbox, the API and three reads before the next screen shows: on a
# loaded machine that can take longer than Playwright's 5 s default for an expectation.
SAVED = 15000
PLACEHOLDER = re.compile(r"\{\w+\}")

# What a person reads or hears on the page, with the language each piece is marked in.
WORDS = """() => {
  const found = [];
  const langOf = (el) => el.closest('[lang]')?.getAttribute('lang') || '';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, noscript, template, [hidden]')) continue;
    if (node.textContent.trim()) found.push([node.textContent.trim(), langOf(el)]);
  }
  const attributes = ['aria-label', 'title', 'placeholder', 'alt', 'aria-description'];
  for (const el of document.querySelectorAll(attributes.map((a) => `[${a}]`).join(','))) {
    for (const name of attributes) {
      const value = el.getAttribute(name);
      if (value && value.trim()) found.push([value.trim(), langOf(el)]);
    }
  }
  found.push([document.title, document.documentElement.lang]);
  return found;
}"""


# Longer words must still fit a 360 px phone: a scrolling strip (the tabs) may not hide a label.
# Wide tables scroll in their panel in every language, by design.
CUT_OFF = """() => [...document.querySelectorAll('main *:not(input, .sr-only, :has(> table))')]
  .filter((el) => getComputedStyle(el).overflowX !== 'visible'
    && el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.slice(0, 60)}`)"""


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def fragments(text: str) -> set[str]:
    """The literal pieces of a catalogue string worth looking for (two letters or more)."""
    pieces = (piece.strip(" ,.:;!?()…–-\u00a0\u202f") for piece in PLACEHOLDER.split(text))
    return {piece for piece in pieces if len(re.findall(r"[^\W\d_]", piece)) >= 2}


def english_fragments(lang: str) -> list[re.Pattern[str]]:
    english, target = CATALOGUES["en"], CATALOGUES[lang]
    own = {piece for value in target.values() for text in forms(value) for piece in fragments(text)}
    suspects = {piece for key, value in english.items() if value != target[key]
                for text in forms(value) for piece in fragments(text)} - own
    return [re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)") for piece in sorted(suspects)]


def english_on_screen(page: Any, lang: str, api_english: frozenset[str] = frozenset()) -> list[str]:
    """English found on the page, from the app or the API (`api_english`), and anything cut off
    because a translation is longer."""
    patterns = english_fragments(lang)
    shown = [text for text, marked in page.evaluate(WORDS) if marked in ("", lang)]
    english = {f"{pattern.pattern} in {text!r}" for text in shown
               for pattern in patterns if pattern.search(text)}
    english |= {f"the API's {said!r}" for said in api_english for text in shown if said in text}
    return sorted(english) + page.evaluate(CUT_OFF)


# Where the API's answers carry words a person reads.
WORDED = {"title", "detail", "message", "label", "description", "default_rule"}


def said(answer: Any) -> set[str]:
    """Every word-carrying string of an API answer (choice labels included)."""
    if isinstance(answer, list):
        return {text for item in answer for text in said(item)}
    if not isinstance(answer, dict):
        return set()
    found = {value for key, value in answer.items() if key in WORDED and isinstance(value, str)}
    found |= set((answer.get("choice_labels") or {}).values())
    return found | {text for key, value in answer.items() if key not in WORDED
                    for text in said(value)}


def ask(server: Server, path: str, lang: str, body: Any = None, token: str | None = None) -> Any:
    """The API's answer (or problem) to a request in `lang`; a refused write changes nothing."""
    request = urllib.request.Request(
        f"{server.base}/api/v1{path}", method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Accept-Language": lang, "Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as refused:
        return json.load(refused)


def api_english(server: Server, lang: str, path: str, body: Any = None,
                token: str | None = None) -> frozenset[str]:
    """What the API says in English to this request and says otherwise in `lang`."""
    return frozenset(said(ask(server, path, "en", body, token))
                     - said(ask(server, path, lang, body, token)))


def words(lang: str, key: str, **params: Any) -> str:
    """A catalogue string as the app shows it (whole-number parameters, plural by `n`)."""
    value = CATALOGUES[lang][key]
    if isinstance(value, dict):
        value = value["one" if params.get("n") == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]), value)


def requests_of(phone: Phone) -> list[tuple[str, dict[str, str]]]:
    seen: list[tuple[str, dict[str, str]]] = []
    phone.page.on("request", lambda request: seen.append((request.url, request.headers))
                  if "/api/" in request.url else None)
    return seen


def test_a_match_is_played_with_a_typo_to_the_winner_without_a_word_of_english(
        server: Server, local_phone: Phone, lang: str) -> None:
    page = local_phone.page
    sent = requests_of(local_phone)
    local_phone.open("#/")
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert english_on_screen(page, lang) == []

    page.get_by_role("link", name=words(lang, "start.new"), exact=True).click()
    page.click("[data-value=sea-change]")
    expect(page.locator("#opt-target_vp")).to_be_visible()
    games = api_english(server, lang, "/games")
    assert games, "the API said nothing about the games in English to compare with"
    assert english_on_screen(page, lang, games) == []
    page.get_by_role("button", name=words(lang, "new.add_player")).click()
    for seat, name in enumerate(["Anna", "Ben", "Cid"]):
        page.get_by_label(words(lang, "new.player_n", n=seat + 1), exact=True).fill(name)
    page.fill("#opt-target_vp", "1")  # one round decides the match
    page.get_by_role("button", name=words(lang, "new.start")).click()

    expect(page.locator("form.entry-form")).to_be_visible()
    match = page.url.split("#/m/")[1].split("/")[0]
    page.click("[data-path=final_trump] [data-value=yellow]")
    page.get_by_label(words(lang, "sc.score_of", name="Anna"), exact=True).fill("3")
    page.get_by_label(words(lang, "sc.score_of", name="Ben"), exact=True).fill("3")
    cid = page.get_by_label(words(lang, "sc.score_of", name="Cid"), exact=True)
    expect(cid).to_have_value("2")  # filled in from the checksum, 8 with three players
    page.click("[data-path=trump_zero] [data-value='1']")
    assert english_on_screen(page, lang, games) == []

    cid.fill("4")  # the typo: the round adds up to 10
    page.get_by_role("button", name=words(lang, "sheet.save")).click()
    error = page.locator("[data-error-path=scores]")
    expect(error).to_contain_text("10")
    token = page.evaluate("(id) => JSON.parse(localStorage['tafelrunde.tokens'])[id].token", match)
    typo = {"final_trump": "yellow", "scores": [3, 3, 4], "trump_zero": 1}
    refused = api_english(server, lang, f"/matches/{match}/rounds", typo, token)
    assert refused, "the API said nothing about the typo in English to compare with"
    assert english_on_screen(page, lang, refused) == []

    cid.fill("2")
    page.get_by_role("button", name=words(lang, "sheet.save")).click()
    expect(page.locator("#winner-names")).to_have_text(words(lang, "winner.single", names="Ben"),
                                                       timeout=SAVED)
    reason = api_english(server, lang, f"/matches/{match}", token=token)
    assert reason, "the API gave no reason in English to compare with"
    expect(page.locator("#winner-reason")).to_have_text(
        ask(server, f"/matches/{match}", lang, token=token)["reason"]["message"])
    assert english_on_screen(page, lang, reason) == []

    # The language with the phone's region: the API writes numbers as the app does (de-CH 0.33).
    assert sent, "the phone made no API request"
    for url, headers in sent:
        asked = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("lang", [None])[0]
        assert PHONES[lang] in (headers.get("accept-language"), asked), url


def test_a_tournament_round_reads_in_the_language_from_registration_to_confirmation(
        browser: Any, server: Server, local_phone: Phone, lang: str) -> None:
    """The organiser's dashboard, table cards, projector board and player view; a table's phone
    enters the result and another confirms it."""
    page = local_phone.page
    local_phone.open("#/t/new")
    page.get_by_label(words(lang, "tt.name")).fill("Jassabend")
    page.click("[data-path=game] [data-value=tschau-sepp]")
    expect(page.locator("#opt-table")).to_be_visible()
    assert english_on_screen(page, lang, api_english(server, lang, "/games")) == []
    page.fill("#tt-rounds", "1")
    page.fill("#opt-games", "1")
    page.select_option("#opt-table", "count")
    page.get_by_role("button", name=words(lang, "tt.create")).click()
    for name in ["Anna", "Ben", "Cid", "Dora"]:
        page.get_by_label(words(lang, "tt.player_name"), exact=True).fill(name)
        page.get_by_role("button", name=words(lang, "tt.add_player"), exact=True).click()
        expect(page.locator(f".player-list strong:text-is('{name}')")).to_be_visible()
    page.get_by_role("button", name=words(lang, "tt.start_round", n=1)).click()
    expect(page.locator(".round-panel [data-state=open]")).to_be_visible()
    assert english_on_screen(page, lang) == []

    page.get_by_role("link", name=words(lang, "tt.cards")).click()
    expect(page.locator(".table-card .qr img")).to_be_visible()
    assert english_on_screen(page, lang) == []
    link = str(page.locator(".table-link").get_attribute("href"))
    page.get_by_role("link", name=words(lang, "tt.to_tournament")).click()
    page.get_by_role("link", name=words(lang, "tt.board")).click()
    expect(page.locator(".board-standings tbody tr")).to_have_count(4)
    assert english_on_screen(page, lang) == []
    page.get_by_role("link", name=words(lang, "tt.nav.overview")).click()
    page.locator(".player-list a", has_text="Ben").click()
    expect(page.locator("#my-table")).to_be_visible()
    assert english_on_screen(page, lang) == []

    match = link.split("#/m/")[1].split("?")[0]
    token = urllib.parse.parse_qs(link.split("?")[1])["t"][0]
    with phone_in_use(browser, server, PHONES[lang]) as table, \
            phone_in_use(browser, server, PHONES[lang]) as neighbour:
        table.page.goto(link)
        table.page.click("[data-path=winner] [data-value='0']")
        table.page.get_by_role("button", name=words(lang, "ts.games.sheet_save")).click()
        expect(table.page.locator("#table-waiting")).to_have_text(words(lang, "tt.other_phone"),
                                                                  timeout=SAVED)
        reason = api_english(server, lang, f"/matches/{match}", token=token)
        assert reason, "the API gave no reason in English to compare with"
        assert english_on_screen(table.page, lang, reason) == []
        neighbour.page.goto(link)
        neighbour.page.get_by_role("button", name=words(lang, "tt.confirm_result")).click()
        expect(neighbour.page.locator("#table-confirmed")).to_have_text(
            words(lang, "tt.confirmed"), timeout=SAVED)
        assert english_on_screen(neighbour.page, lang, reason) == []
    page.get_by_role("link", name=words(lang, "tt.nav.overview")).click()
    expect(page.locator("#round-line")).to_have_text(words(lang, "tt.finished", n=1))
    assert english_on_screen(page, lang) == []


def test_the_history_of_four_players_fits_the_phone_with_each_round_editable(
        server: Server, local_phone: Phone, lang: str) -> None:
    """The edit links of a four-player sheet stay on a 360 px screen: the word in its own
    column ("Ändern", "Modifier") pushed them past the edge, half cut off."""
    players = ["Anna", "Benedikt", "Cécile", "Dora"]
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": players,
                                           "options": {"games": 5}})
    for winner in (0, 1):
        server.post(f"/api/v1/matches/{made['id']}/rounds", {
            "winner": winner, "penalty": [0 if seat == winner else 7 + seat for seat in range(4)]},
            made["token"])
    local_phone.open(f"#/m/{made['id']}?t={made['token']}")
    local_phone.open(f"#/m/{made['id']}/history")
    page = local_phone.page
    for number in (1, 2):
        edit = page.get_by_role("link", name=words(lang, "ts.games.history_edit_round", n=number),
                                exact=True)
        expect(edit).to_be_visible()
        box = box_of(edit)
        assert box["x"] + box["width"] <= page.viewport_size["width"]
        assert min(box["width"], box["height"]) >= 44
    assert page.evaluate("() => document.querySelector('.sheet').scrollWidth") <= page.evaluate(
        "() => document.querySelector('.sheet').clientWidth")
    assert english_on_screen(page, lang) == []


# Whatever of a panel reaches past its right border (a panel's own overflow is visible).
PAST_THE_PANEL = """() => [...document.querySelectorAll('main .panel')].flatMap((panel) => {
  const edge = panel.getBoundingClientRect().right;
  return [...panel.querySelectorAll('*')]
    .filter((el) => el.checkVisibility() && !el.closest('.sr-only')
      && el.getBoundingClientRect().right > edge + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent.slice(0, 40)}`);
})"""


def test_the_standings_of_four_players_stay_inside_their_panel(
        server: Server, local_phone: Phone, lang: str) -> None:
    """The winner's table ran past the panel's border in French (Pénalités, Victoires)."""
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "options": {"games": 2},
                                           "players": ["Anna", "Benedikt", "Cécile", "Dora"]})
    for winner in (0, 1):
        server.post(f"/api/v1/matches/{made['id']}/rounds", {
            "winner": winner, "penalty": [0 if seat == winner else 7 + seat for seat in range(4)]},
            made["token"])
    local_phone.open(f"#/m/{made['id']}?t={made['token']}")
    for screen in ("winner", "standings"):
        local_phone.open(f"#/m/{made['id']}/{screen}")
        expect(local_phone.page.locator("table.standings").first).to_be_visible()
        assert local_phone.page.evaluate(PAST_THE_PANEL) == [], screen


@pytest.mark.parametrize(("faces", "names"), [
    ("swiss", {"de": ("Rosen", "Eicheln-Under"), "fr": ("Roses", "Under de gland"),
               "it": ("Rose", "Under di ghiande")}),
    ("french", {"de": ("Herz", "Kreuz-Bube"), "fr": ("Cœur", "Valet de trèfle"),
                "it": ("Cuori", "Fante di fiori")}),
])
def test_jass_cards_are_named_as_the_deck_on_the_table_is_printed(
        server: Server, local_phone: Phone, lang: str, faces: str,
        names: dict[str, tuple[str, str]]) -> None:
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Anna", "Ben"],
                                           "options": {"card_faces": faces}})
    local_phone.open(f"#/m/{made['id']}?t={made['token']}")
    page = local_phone.page
    page.click("[data-path=winner] [data-value='0']")
    suit, card = names[lang]
    expect(page.get_by_role("group", name=suit, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=card, exact=True)).to_be_visible()
    assert english_on_screen(page, lang) == []


def test_the_picker_switches_the_language_and_the_phone_remembers_it(
        local_phone: Phone, lang: str) -> None:
    page = local_phone.page
    local_phone.open("#/")
    other = "it" if lang != "it" else "fr"
    picker = page.get_by_role("combobox", name=words(lang, "app.language"))
    expect(picker).to_have_value(lang)
    picker.select_option(other)
    expect(page.get_by_role("heading", name=words(other, "start.title"))).to_be_visible()
    assert page.evaluate("() => document.documentElement.lang") == other
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.get_by_role("combobox", name=words(other, "app.language"))).to_have_value(other)
    assert english_on_screen(page, other) == []


@pytest.mark.parametrize(("phone", "expected"), [
    ("de-CH", "de"), ("de-DE", "de"), ("fr-CH", "fr"), ("it-CH", "it"), ("en-GB", "en"),
    ("es-ES", "en"), ("rm-CH", "en")])
def test_the_app_starts_in_the_phone_language_or_english(
        browser: Any, server: Server, phone: str, expected: str) -> None:
    with phone_in_use(browser, server, locale=phone) as made:
        made.open("#/")
        assert made.page.evaluate("() => document.body.dataset.ready") == expected
        title = words(expected, "start.title")
        expect(made.page.get_by_role("heading", name=title)).to_be_visible()


# The reader's language chooses the words and the plural; the phone's region the digits.
SHOWN = """async ([lang]) => {
  const i18n = await import('/js/i18n.js');
  await i18n.useLanguage(lang);
  return {
    rounds: [0, 1, 2].map((n) => i18n.t('start.rounds', { n })),
    places: [1, 2, 3, 4].map((n) => i18n.t('rank.ordinal', { n })),
    share: i18n.number(1 / 3, { maximumFractionDigits: 2 }),
    big: i18n.number(12345.5),
    names: i18n.list(['Anna', 'Ben', 'Cid']),
  };
}"""


# What depends on the language alone; the digits depend on the phone's region too.
WORDED_NUMBERS = {
    "de": {"rounds": ["0 Runden gespielt", "1 Runde gespielt", "2 Runden gespielt"],
           "places": ["1.", "2.", "3.", "4."], "names": "Anna, Ben und Cid"},
    "fr": {"rounds": ["0 manche jouée", "1 manche jouée", "2 manches jouées"],
           "places": ["1er", "2e", "3e", "4e"], "names": "Anna, Ben et Cid"},
    "it": {"rounds": ["0 mani giocate", "1 mano giocata", "2 mani giocate"],
           "places": ["1°", "2°", "3°", "4°"], "names": "Anna, Ben e Cid"},
    "en": {"rounds": ["0 rounds played", "1 round played", "2 rounds played"],
           "places": ["1st", "2nd", "3rd", "4th"], "names": "Anna, Ben and Cid"},
}


@pytest.mark.parametrize(("phone", "lang", "share", "big", "names"), [
    ("de-CH", "de", "0.33", "12'345.5", None),
    ("de-DE", "de", "0,33", "12.345,5", None),
    ("fr-CH", "fr", "0,33", "12\u202f345,5", None),
    ("it-CH", "it", "0.33", "12'345.5", None),
    ("en-GB", "en", "0.33", "12,345.5", None),
    ("de-CH", "en", "0.33", "12,345.5", "Anna, Ben, and Cid"),  # US English: the serial comma
])
def test_plurals_ordinals_numbers_and_lists_follow_the_language_and_the_phone_region(
        browser: Any, server: Server, phone: str, lang: str, share: str, big: str,
        names: str | None) -> None:
    expected = {**WORDED_NUMBERS[lang], "share": share, "big": big}
    if names is not None:
        expected["names"] = names
    with phone_in_use(browser, server, locale=phone) as made:
        made.open("#/")
        assert made.page.evaluate(SHOWN, [lang]) == expected


@pytest.mark.parametrize(("game", "players"), [
    ("seven-seals", ["Anna", "Ben", "Cid"]), ("tschau-sepp", ["Anna", "Ben", "Cid"]),
    ("sea-change", ["Anna"]), ("score-pad", ["Anna", "Ben", "Cid"])])
def test_every_games_entry_and_its_refusal_read_in_the_language(
        server: Server, local_phone: Phone, lang: str, game: str, players: list[str]) -> None:
    """The entry form of each game (Sea Change solo, with the AI), saved as it opens (7 black
    seals in Die sieben Siegel, of 6), and the API's refusal at the fields."""
    options = {"sea-change": {"suits": ["blue", "red", "green"]},
               "score-pad": {"title": "Jass", "round_total": 157}}.get(game, {})
    made = server.post("/api/v1/matches", {"game": game, "players": players,
                                           "options": options})
    page = local_phone.page
    path = f"/matches/{made['id']}/rounds"
    sent: list[Any] = []
    # Heard on the context: a service worker taking control meanwhile sends what waits itself.
    local_phone.context.on("request", lambda request: sent.append(request.post_data_json)
                           if request.method == "POST" and request.url.endswith(path) else None)
    local_phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(page.locator("form.entry-form")).to_be_visible()
    games = api_english(server, lang, "/games")
    assert english_on_screen(page, lang, games) == []
    if game == "seven-seals":
        page.fill("[data-path='black[0]'] input", "4")
        page.fill("[data-path='black[1]'] input", "3")
    save = "ts.games.sheet_save" if game == "tschau-sepp" else "sheet.save"  # it counts games
    page.get_by_role("button", name=words(lang, save)).click()
    expect(page.locator(".field-error").first).to_be_visible(timeout=SAVED)
    assert sent, "the phone sent no round"
    refused = api_english(server, lang, path, sent[-1], made["token"])
    assert refused, "the API said nothing in English to compare with"
    assert english_on_screen(page, lang, games | refused) == []
