"""The app's string catalogues (pwa/i18n/<lang>.json) against each other and against the code.

Every language has every key, with the same placeholders and the same plural structure; a plural
value has the forms its language needs; every key the code names exists and every key is used;
and a German, French or Italian value equals the English one only where the word is the same in
that language (names of games and cards, international words), so no copied English slips in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel import Locale

PWA = Path(__file__).resolve().parents[2] / "pwa"
CATALOGUES = {path.stem: json.loads(path.read_text(encoding="utf-8"))
              for path in sorted((PWA / "i18n").glob("*.json"))}
ENGLISH: dict[str, Any] = CATALOGUES["en"]
OTHERS = sorted(set(CATALOGUES) - {"en"})
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
# CLDR's `many` covers a million and up in French and Italian (and elided ordinals in Italian,
# which "8°" does not use): the `other` form reads right there, so `many` may be left out.
OPTIONAL_CATEGORIES = {"many"}
# In these languages the `one` form is used for exactly 1, so it may say "the last card" without
# the number; in French `one` also covers 0 and 1.5, so there it must keep {n}.
ONE_MEANS_ONE = {"de", "en", "it"}

# Keys whose value is rightly the same as in English: names of games and cards, numbers, and words
# these languages use as they are.
SAME_AS_ENGLISH = {
    "de": {"app.offline", "nav.home", "standings.name", "tt.player_name", "share.export_title",
           "season.name",
           "ss.saboteur", "ts.swiss.short.koenig",
           "ts.french.short.koenig"},
    "fr": {"new.options", "sc.mode.points", "ts.mode.points", "total.points", "tt.points",
           "season.points",
           "pad.points", "tt.tiebreak.points", "tt.tables", "tt.table_n", "tt.table", "tt.exports",
           "sc.points", "ts.points", "tt.my_points", "tt.my_tables", "ss.saboteur",
           "ss.colour.violet", "ts.swiss.suit.rosen", "sc.scores", "tidy.entry.scores"},
    "it": {"tidy.no"},
}
# Jass ranks keep their Swiss German names in every language; indices are letters and digits;
# a rating's mu and sigma are openskill's names.
SAME_EVERYWHERE = {"game.sea-change", "game.tschau-sepp",
                   "season.period",
                   "ts.swiss.rank.banner", "ts.swiss.rank.under", "ts.swiss.rank.ober",
                   "ts.swiss.short.banner", "ts.swiss.short.under", "ts.swiss.short.ober",
                   "ts.swiss.short.ass", "ts.french.rank.banner", "ts.french.short.banner",
                   "ts.french.short.ass"}

SOURCES = {path: path.read_text(encoding="utf-8") for path in sorted((PWA / "js").rglob("*.js"))}
NAMESPACES = {key.split(".")[0] for key in ENGLISH}
QUOTED_KEY = re.compile(r"""['"]([a-z]+(?:\.[a-z0-9_-]+)+)['"]""")
# t(`audit.${action}`), and roundT(game, `audit.${action}`) (match-view.js: a game's own words)
TEMPLATE_KEY = re.compile(r"\b(?:(?:t|has)\(|roundT\([^,()]+,\s*)`([a-z]+(?:\.[a-z0-9_-]+)*\.)\$\{")


def forms(value: Any) -> dict[str, str]:
    return value if isinstance(value, dict) else {"": value}


def placeholders(value: Any) -> set[str]:
    return {name for text in forms(value).values() for name in PLACEHOLDER.findall(text)}


def test_the_app_offers_exactly_the_languages_it_has_catalogues_for() -> None:
    source = (PWA / "js" / "i18n.js").read_text(encoding="utf-8")
    offered = re.search(r"export const LANGUAGES = \[([^\]]*)\]", source)
    assert offered is not None
    languages = sorted(re.findall(r"'(\w+)'", offered[1]))
    assert languages == sorted(CATALOGUES) == ["de", "en", "fr", "it"]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_every_key(lang: str) -> None:
    catalogue = CATALOGUES[lang]
    assert sorted(set(ENGLISH) - set(catalogue)) == [], "missing"
    assert sorted(set(catalogue) - set(ENGLISH)) == [], "only in this language"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_value_has_the_placeholders_and_plural_shape_of_the_english_one(lang: str) -> None:
    """A plural value names the same forms as the English one, so every catalogue has the same
    keys: English ordinals need one, two and few (1st, 2nd, 3rd); German repeats its `other` (1.)
    there, forms its own rules never choose."""
    wrong = [key for key, value in CATALOGUES[lang].items()
             if placeholders(value) != placeholders(ENGLISH[key])
             or isinstance(value, dict) != isinstance(ENGLISH[key], dict)
             or (isinstance(value, dict) and set(value) != set(ENGLISH[key]))]
    assert wrong == []


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_plural_values_have_the_forms_their_language_needs(lang: str) -> None:
    """Counts choose by the cardinal rules, keys ending in .ordinal by the ordinal ones (CLDR)."""
    locale = Locale.parse(lang)
    for key, value in CATALOGUES[lang].items():
        if not isinstance(value, dict):
            continue
        rules = locale.ordinal_form if key.endswith(".ordinal") else locale.plural_form
        assert set(value) <= PLURAL_CATEGORIES, key
        assert (set(rules.tags) - OPTIONAL_CATEGORIES) | {"other"} <= set(value), key
        needed = placeholders(value)
        for category, text in value.items():
            missing = needed - set(PLACEHOLDER.findall(text))
            if category == "one" and lang in ONE_MEANS_ONE:
                missing -= {"n"}
            assert not missing, f"{key}.{category} lacks {missing}"


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_no_value_is_empty_or_padded(lang: str) -> None:
    bad = [key for key, value in CATALOGUES[lang].items()
           for text in forms(value).values() if not text.strip() or text != text.strip()]
    assert bad == []


def test_french_punctuation_keeps_its_space_on_the_same_line() -> None:
    """French puts a space before : ; ! ? — a no-break one, so the sign never starts a line."""
    loose = [key for key, value in CATALOGUES["fr"].items() for text in forms(value).values()
             if re.search(r" [:;!?]", text)]
    assert loose == []


def api_catalogue(lang: str) -> dict[str, list[str]]:
    """The API's words in ``lang`` (its .po catalogue): every form of each translation, by the
    English message id."""
    from babel.messages.pofile import read_po

    from api.i18n.maintenance import po_path

    with po_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    return {str(message.id if isinstance(message.id, str) else message.id[0]):
            [message.string] if isinstance(message.string, str) else list(message.string)
            for message in catalog if message.id}


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_french_and_italian_write_the_typographic_apostrophe_in_the_app_and_the_api(
        lang: str) -> None:
    """"l’équipe", "un’altra": ’ as French and Italian typesetting has it, in the app's words and
    in the API's alike, so one screen never shows both (the straight ' is a typewriter's)."""
    app = [key for key, value in CATALOGUES[lang].items() for text in forms(value).values()
           if "'" in text]
    api = [english for english, said in api_catalogue(lang).items()
           if any("'" in text for text in said)]
    assert (app, api) == ([], [])
    assert any("\u2019" in text for value in CATALOGUES[lang].values()
               for text in forms(value).values())
    assert any("\u2019" in text for said in api_catalogue(lang).values() for text in said)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_value_equals_the_english_one_only_where_the_word_is_the_same(lang: str) -> None:
    same = {key for key, value in CATALOGUES[lang].items() if value == ENGLISH[key]}
    assert sorted(same - SAME_EVERYWHERE - SAME_AS_ENGLISH[lang]) == [], "copied from English?"
    assert sorted(SAME_AS_ENGLISH[lang] - same) == [], "no longer the same: drop from the list"


def test_every_key_the_code_names_exists() -> None:
    named = {(path.name, key) for path, source in SOURCES.items()
             for key in QUOTED_KEY.findall(source) if key.split(".")[0] in NAMESPACES}
    assert sorted((file, key) for file, key in named if key not in ENGLISH) == []
    prefixes = {prefix for source in SOURCES.values() for prefix in TEMPLATE_KEY.findall(source)}
    assert sorted(p for p in prefixes if not any(key.startswith(p) for key in ENGLISH)) == []


def test_every_key_is_used_by_the_code() -> None:
    literal = {key for source in SOURCES.values() for key in QUOTED_KEY.findall(source)}
    prefixes = {prefix for source in SOURCES.values() for prefix in TEMPLATE_KEY.findall(source)}
    unused = [key for key in ENGLISH
              if key not in literal and not any(key.startswith(p) for p in prefixes)]
    assert unused == []


NUMBER_RANKS = {"6", "7", "8", "9"}


def app_card_name(lang: str, faces: str, card: str) -> str:
    """A Jass card as pwa/js/games/tschau-sepp.js names it (cardName)."""
    suit, rank = card.split("-")
    catalogue = CATALOGUES[lang]
    rank_name = rank if rank in NUMBER_RANKS else catalogue[f"ts.{faces}.rank.{rank}"]
    return str(catalogue["ts.card"]).format(suit=catalogue[f"ts.{faces}.of.{suit}"],
                                            rank=rank_name)


@pytest.mark.parametrize("faces", ["swiss", "french"])
@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_app_names_every_jass_card_as_the_api_does(lang: str, faces: str) -> None:
    """The card on a button and the card in the API's message at the field are one name."""
    from api.i18n import Phrase, negotiate, words_for
    from scoring.games._tschau_sepp_cards import CARD, CARDS
    from scoring.messages import Message, Names

    said = words_for(negotiate(lang))
    named = Message("card", "{card}", kinds={"card": CARD})
    names = Names(options={"card_faces": faces})

    different = [(card, app_card_name(lang, faces, card), said(Phrase(named, {"card": card},
                                                                     names)))
                 for card in CARDS]
    assert [(card, app, api) for card, app, api in different
            if app[:1].upper() + app[1:] != api] == []


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_app_calls_each_game_what_the_api_calls_it(lang: str) -> None:
    """The game picker, the printed standings and the API's messages ("Les sept sceaux se joue
    à 3 à 5") name a game the same way, in each language."""
    from api.i18n import negotiate, words_for
    from scoring.registry import all_games, game_name

    said = words_for(negotiate(lang))
    assert {game_id: CATALOGUES[lang][f"game.{game_id}"] for game_id in all_games()} == {
        game_id: game_name(game, said) for game_id, game in all_games().items()}


GAME_NAMES = {lang: {key: value for key, value in catalogue.items() if key.startswith("game.")}
              for lang, catalogue in CATALOGUES.items()}


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_no_words_name_a_game_as_another_language_does(lang: str) -> None:
    """"Sea Change, Die sieben Siegel et Tschau Sepp" on a French screen: a sentence that names
    a game uses the language's own name of it, not the German or the English one."""
    foreign = {name for other, names in GAME_NAMES.items() for key, name in names.items()
               if name != GAME_NAMES[lang][key]}
    assert foreign
    assert [(key, name) for key, value in CATALOGUES[lang].items()
            for text in forms(value).values() for name in foreign if name in text] == []


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_dashboards_standings_name_their_columns_as_the_printed_ones(lang: str) -> None:
    """The organiser's screen and the printed page or CSV of the same standings: one name per
    column (the average keeps its short name on the screen)."""
    from api.i18n import negotiate, words_for
    from api.tournaments.export import standings_words

    printed = standings_words(words_for(negotiate(lang)))
    app = {"points": "tt.points", "tables": "tt.tables",
           **{key: f"tt.tiebreak.{key}" for key in ("score_share", "opponents", "table_wins")}}
    assert {key: CATALOGUES[lang][name] for key, name in app.items()} == {
        key: printed.heading(key) for key in app}


# Where a Tschau Sepp game and a round are two words (rules.md §3 counts Tschau Sepp in games;
# French and Italian say manche and mano for both).
ROUND_WORDS = {"en": ("round", "game"), "de": ("Runde", "Spiel")}
MATCH_SCREENS = ("screens/sheet.js", "screens/standings.js", "screens/history.js",
                 "screens/winner.js", "screens/share.js", "screens/start.js", "match-view.js",
                 "score-chart.js")
# Words about rounds that are never a Tschau Sepp game: a score pad's, a tournament's, the app's.
NOT_A_TSCHAU_SEPP_GAME = {"pad.finish_sure", "tidy.table_place", "tidy.table_place_unnamed",
                          "start.lead"}
ROUND_T_KEY = re.compile(r"\broundT\([^,()]+,\s*'([a-z_.-]+)'")
PLAIN_T_KEY = re.compile(r"(?<![\w.])t\('([a-z_.-]+)'")


@pytest.mark.parametrize("lang", sorted(ROUND_WORDS))
def test_tschau_sepp_says_games_on_every_match_screen(lang: str) -> None:
    """A match screen says a round through roundT (match-view.js), which takes Tschau Sepp's
    own sentence (`ts.games.*`): "Spiel 3", "Stand nach Spiel 3", as its options and reasons
    from the API say, never "Runde" beside "Anzahl Spiele"."""
    round_word, game_word = ROUND_WORDS[lang]
    catalogue = CATALOGUES[lang]
    sources = [(PWA / "js" / name).read_text(encoding="utf-8") for name in MATCH_SCREENS]
    plain = {key for source in sources for key in PLAIN_T_KEY.findall(source)}
    said_plainly = sorted(key for key in plain - NOT_A_TSCHAU_SEPP_GAME
                          if re.search(rf"\b{round_word}", json.dumps(ENGLISH.get(key, "")), re.I))
    assert said_plainly == [], "names a round but not through roundT"
    through = {key for source in sources for key in ROUND_T_KEY.findall(source)}
    through |= {key for key in ENGLISH if key.startswith("audit.")}
    for key in sorted(through):
        generic = " ".join(forms(catalogue[key]).values())
        own = catalogue.get(f"ts.games.{key.replace('.', '_', 1)}")
        if round_word.lower() in generic.lower():
            assert own is not None, key
            said = " ".join(forms(own).values()).lower()
            assert round_word.lower() not in said, key
            assert game_word.lower() in said, key


def _closing(source: str, start: int) -> int:
    """The index of the bracket closing the one at ``start``, past strings and templates."""
    depth, at = 0, start
    while at < len(source):
        char = source[at]
        if char in "'\"`":
            at = _string_end(source, at)
        elif char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
            if depth == 0:
                return at
        at += 1
    return at


def _string_end(source: str, start: int) -> int:
    """The index of the quote closing the string or template that opens at ``start``."""
    at = start + 1
    while source[at] != source[start]:
        if source.startswith("${", at):
            at = _closing(source, at + 1)
        at += 2 if source[at] == "\\" else 1
    return at


def _target(href: str, base: str) -> str:
    """A link's href as the screen it opens: ``#/m/*/winner`` for every match's winner."""
    href = href.strip().strip("'`").replace("${base}", base)
    href = re.sub(r"\$\{encodeURIComponent\([^)]*\)\}|\$\{\w+\.(?:number|player|id)\}", "*", href)
    href = re.sub(r"tournamentRoute\([^)]*\)", "#/t/*", href)
    return re.sub(r"(\w+Route)\([^,)]*", r"\1(*", href)


def _href(attributes: str) -> str | None:
    found = re.search(r"\bhref: ", attributes)
    if found is None:
        return None
    at = found.end()
    while at < len(attributes) and attributes[at] not in ",}":
        if attributes[at] in "([{":
            at = _closing(attributes, at)
        elif attributes[at] in "'`":
            at = _string_end(attributes, at)
        at += 1
    return attributes[found.end():at]


def links_by_target() -> dict[str, dict[str, set[str]]]:
    """Every link the app names with a catalogue key (``h('a', {href}, t('key'))``) and every
    tab of a match's or a tournament's tab bar, by the screen it opens: the keys, and the files."""
    found: dict[str, dict[str, set[str]]] = {}
    for path, source in SOURCES.items():
        based = re.search(r"const base = ([^;]+);", source)
        base = _target(based[1], "") if based else "${base}"
        named = []
        for link in re.finditer(r"h\('a', \{", source):
            end = _closing(source, link.end() - 1)
            href = _href(source[link.end() - 1:end + 1])
            label = re.match(r"\s*,\s*t\('([a-z_.-]+)'\)", source[end + 1:])
            if href is not None and label is not None:
                named.append((href, label[1]))
        # A tab bar's tabs: [key, href, label] (a match's), or [key, href] named tt.nav.<key>.
        for tab in re.finditer(r"\['(\w+)', (base|`[^`]*`)(?:, '([a-z_.]+)')?\]", source):
            if not (tab[2] == "base" and tab[3]):  # a match's first tab: the screen it opens on
                named.append((tab[2], tab[3] or f"tt.nav.{tab[1]}"))
        for href, key in named:
            found.setdefault(_target(href, base), {}).setdefault(key, set()).add(path.name)
    return found


# Links named by what they do rather than where they lead (a correction's Cancel returns to the
# history it started from).
ACTIONS = {"edit.cancel"}


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_links_to_the_same_screen_have_the_same_name(lang: str) -> None:
    """"See match" here and "Open match" there, "Back", "Overview" and "To the tournament" for
    one screen: the links and tabs that open the same screen name it the same way, in every
    language (a button may say more than its tab: "See the winner" for the tab "Winner")."""
    catalogue = CATALOGUES[lang]
    targets = links_by_target()
    assert {"#/m/*/winner", "#/t/*", "#/t/*/board", "#/m/*"} <= set(targets)
    differing = {}
    for target, keys in targets.items():
        names = sorted({str(catalogue[key]) for key in keys.keys() - ACTIONS}, key=len)
        if any(names[0].casefold() not in name.casefold() for name in names[1:]):
            differing[target] = {key: catalogue[key] for key in keys}
    assert differing == {}


# The same thing named in two places, each its own key: one name.
SAME_THING = [("share.view", "club.view_link"), ("tt.board", "season.board"),
              ("nav.history", "club.tab.history")]


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_same_thing_has_one_name_wherever_it_is_named(lang: str) -> None:
    """A match's view link and a club's, a tournament's projector board and a season's, a
    match's history and a club's."""
    catalogue = CATALOGUES[lang]
    assert [keys for keys in SAME_THING if len({catalogue[key] for key in keys}) > 1] == []


def test_what_a_link_preview_shows_is_in_no_language() -> None:
    """index.html is one file for every language: the description a chat's link preview shows
    holds only names (the app's, the games' as some language calls them), never English words."""
    page = (PWA / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<meta name="description" content="([^"]*)">', page)
    assert found is not None
    names = {"Tafelrunde", *(name for names in GAME_NAMES.values() for name in names.values())}
    assert set(re.split(r"\s*·\s*", found[1])) <= names


def test_every_change_the_match_history_can_list_has_words() -> None:
    """The history screen says each audit action as ``audit.<action>``: an action the API adds
    without words would show as its key."""
    from typing import get_args, get_type_hints

    from api.matches.schemas import HistoryItem

    actions = get_args(get_type_hints(HistoryItem)["action"])
    assert actions
    assert sorted(a for a in actions if f"audit.{a}" not in ENGLISH) == []
