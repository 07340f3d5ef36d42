"""Every answer speaks the request's language (api.md "Languages"): negotiation, the catalogues,
and translated problems, reasons, guides and games, with codes, paths and params unchanged."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from litestar.testing import AsyncTestClient

from api.i18n import catalogues, compiling, maintenance, words_for
from api.i18n.negotiation import Choice, from_header, negotiate
from scoring.registry import GAME_NAME
from tests.api.conftest import NewTable
from tests.conftest import problem

Client = AsyncTestClient  # type: ignore[type-arg]
LANGUAGES = ("de", "fr", "it", "en")


# --- negotiation ---------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "language"), [
    ("de", "de"), ("fr-CH", "fr"), ("it-CH,de;q=0.8", "it"), ("EN-gb", "en"),
    ("es, fr;q=0.5", "fr"),  # Spanish we do not have: the next acceptable one
    ("de;q=0.3, fr;q=0.7, it;q=0.5", "fr"),  # the highest q wins, wherever it stands
    ("fr;q=0.5, de;q=0.5", "fr"),  # equal q: the client's order
    ("es, pt", "en"), ("", "en"), ("*", "en"), ("de;q=0, *", "en"),
    ("en;q=0, *", "de"),  # anything but English: our first other language
    ("de;q=0, de-CH", "en"),  # German refused as a whole
    ("de;q=2, fr", "fr"),  # an impossible q-value drops the range
    ("*, en;q=0.5", "de"),  # English only at 0.5, any other language at 1
    ("*;q=0.9, en;q=0.1, de;q=0.5", "fr"),  # the star's q is for the languages it alone names
    ("en, de, fr, it, *;q=0.1", "en"), ("de, en, fr, it, *", "de"),
    ("gsw-CH, en;q=0.5", "de"), ("gsw", "de"),  # Swiss German reads German, as in the app
    ("ü-ß, it", "it"), (";;;,,,", "en"), ("x" * 2000, "en"),  # malformed parts are skipped
])
def test_accept_language_picks_the_best_language_we_have(header: str, language: str) -> None:
    assert from_header(header).language == language


def test_a_region_keeps_its_numbers_but_not_its_own_words() -> None:
    assert from_header("de-CH") == Choice("de", "de_CH")
    assert from_header("de-DE,de;q=0.9") == Choice("de", "de_DE")
    assert from_header("de") == Choice("de", "de")
    assert from_header("fr-XX") == Choice("fr", "fr")  # no such region: French numbers
    assert from_header("gsw") == Choice("de", "de_CH")  # Swiss German: Swiss numbers


def test_lang_in_the_query_overrides_the_header_when_it_names_a_language() -> None:
    assert negotiate("de", "it") == Choice("it", "it")
    assert negotiate("de", "fr-CH").locale == "fr_CH"
    assert negotiate("de", "xx").language == "de"  # unknown: the header decides
    assert negotiate(None, "*").language == "en"


@pytest.mark.parametrize("tag", ["de", "de-CH", "de-AT", "fr", "fr-CH", "it", "it-CH", "en",
                                 "en-GB", "en-US"])
def test_numbers_are_written_as_the_locale_writes_them(tag: str) -> None:
    words = words_for(negotiate(tag))
    # (Below a million: Babel 2.19 stops grouping millions in the Swiss locales, 1234567 where
    # the Swiss write 1'234'567, as this function does.)
    for value in (0, 3, -4, 12, 999, 1000, 12345, -123456, 0.5, 0.333333, 2 / 3, -0.25,
                  1234.5, 10000.0, 0.0004, 99999.9999):
        assert words.number(value) == format_decimal(value, format="#,##0.###",
                                                     locale=words.locale), value


# --- catalogues ----------------------------------------------------------------------------

def test_every_catalogue_says_every_message_with_the_english_placeholders() -> None:
    assert maintenance.check() == []


# Words that are rightly the same as in English, by (context, English); anything else equal to
# the English is a copy that a German, French or Italian player would read in English.
SAME_EVERYWHERE = {
    ("a rank of the Swiss German Jass deck", rank) for rank in ("Banner", "Under", "Ober")} | {
    ("a column heading of a club's export", "mu"), ("a column heading of a club's export", "sigma")
} | {(GAME_NAME, name) for name in ("Sea Change", "Tschau Sepp")}
SAME_AS_ENGLISH = {
    "de": {("option teams", "Teams")},
    "fr": {("a column heading of the tournament standings", "club"),
           ("a column heading of the tournament standings", "points"),
           ("a column heading of a season's table", "points"),
           ("a column heading of the tournament standings", "tables"),
           ("a column of the Sea Change score sheet", "points"),
           ("a column of a score pad (any card game's score sheet)", "points"),
           ("a column of the Die sieben Siegel score sheet", "saboteur"),
           ("a seal's colour, as its name (red)", "violet"),
           ("a seal's colour, as its name (red) (describing one seal: 1 red seal)", "violet"),
           ("where a request carries a parameter", "cookie"), ("", "Total"),
           ("a column heading of the who-sits-where list", "table")},
    "it": {("a column heading of the tournament standings", "club"),
           ("an answer in a table cell", "no"), ("where a request carries a parameter", "cookie"),
           ("where a request carries a parameter", "query")},
}


@pytest.mark.parametrize("language", ["de", "fr", "it"])
def test_a_translation_equals_the_english_only_where_the_word_is_the_same(language: str) -> None:
    """``check`` finds what is untranslated, not what was copied from the English."""
    with maintenance.po_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    copied = {(message.context or "", message.id) for message in catalog
              if isinstance(message.id, str) and message.id and message.string == message.id
              and re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", message.id))}
    assert sorted(copied - SAME_EVERYWHERE - SAME_AS_ENGLISH[language]) == [], "copied?"
    assert sorted(SAME_AS_ENGLISH[language] - copied) == [], "no longer the same: drop it"


def test_an_update_leaves_no_echo_of_a_checked_fuzzy_match(tmp_path: Path) -> None:
    """Babel writes a fuzzy message's previous id as ``#| msgid``, but reads it back as a
    translator's comment, which every later update would have kept."""
    written = tmp_path / "messages.po"
    written.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                       '# a note for translators\n#, fuzzy\n#| msgid "Old words"\n'
                       'msgctxt "option x"\nmsgid "New words"\nmsgstr "Neue Worte"\n',
                       encoding="utf-8")
    (message,) = [m for m in maintenance._read(written, "de") if m.id]
    assert message.user_comments == ["a note for translators"]
    assert all("#| " not in path.read_text(encoding="utf-8") and
               "# | " not in path.read_text(encoding="utf-8")
               for path in catalogues.LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))


def _one_language_tree(tmp_path: Path, language: str = "de") -> Path:
    source = catalogues.LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"
    target = tmp_path / language / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(source, target / "messages.po")
    return target / "messages.po"


def test_a_missing_compiled_catalogue_is_compiled_from_the_po_and_kept(tmp_path: Path) -> None:
    po = _one_language_tree(tmp_path)
    loaded = catalogues.load("de", tmp_path)
    assert loaded.gettext("Not Found") == "Nicht gefunden"
    assert po.with_suffix(".mo").is_file()


def test_a_stale_compiled_catalogue_never_serves_its_old_words(tmp_path: Path) -> None:
    po = _one_language_tree(tmp_path)
    catalogues.load("de", tmp_path)
    po.write_text(po.read_text(encoding="utf-8").replace('"Nicht gefunden"', '"Nicht da"'),
                  encoding="utf-8")
    assert catalogues.load("de", tmp_path).gettext("Not Found") == "Nicht da"
    po.with_suffix(".mo").write_bytes(b"not a catalogue")
    assert catalogues.load("de", tmp_path).gettext("Not Found") == "Nicht da"


def test_a_compiled_catalogue_serves_alone_where_no_po_is_installed(tmp_path: Path) -> None:
    po = _one_language_tree(tmp_path)
    catalogues.load("de", tmp_path)
    po.unlink()
    assert catalogues.load("de", tmp_path).gettext("Not Found") == "Nicht gefunden"
    po.with_suffix(".mo").unlink()
    with pytest.raises(FileNotFoundError):
        catalogues.load("de", tmp_path)


def test_the_build_step_compiles_every_catalogue(tmp_path: Path) -> None:
    written = compiling.compile_tree(catalogues.LOCALE_DIR, tmp_path)
    assert sorted(path.parent.parent.name for path in written) == sorted(LANGUAGES)
    for path in written:
        mo_digest = catalogues.load(path.parent.parent.name, tmp_path)
        source = catalogues.LOCALE_DIR / path.relative_to(tmp_path).with_suffix(".po")
        assert catalogues.source_digest(mo_digest) == compiling.digest(source.read_bytes())


# --- over HTTP -----------------------------------------------------------------------------

async def test_every_api_answer_names_its_language_and_varies_by_it(client: Client) -> None:
    games = await client.get("/api/v1/games", headers={"Accept-Language": "fr-CH, de;q=0.5"})
    assert games.headers["content-language"] == "fr"
    assert "accept-language" in games.headers["vary"].lower()
    missing = await client.get("/api/v1/matches/nothing-here?lang=it")
    assert missing.status_code == 404
    assert missing.headers["content-language"] == "it"
    assert (await client.get("/api/v1/ping")).headers["content-language"] == "en"


async def _problem_in(client: Client, language: str) -> dict[str, Any]:
    response = await client.post(
        "/api/v1/matches", headers={"Accept-Language": language},
        json={"game": "seven-seals", "players": ["Ann", "Bea", " "],
              "options": {"saboteur_base": 5, "rounds": 0}})
    return problem(response, 422)


async def test_a_problem_is_said_in_each_language_with_the_same_codes(client: Client) -> None:
    said = {language: await _problem_in(client, language) for language in LANGUAGES}
    english = said["en"]
    assert english["title"] == "Unprocessable Content"
    assert [e["message"] for e in english["errors"]] == ["Every player needs a name."]
    assert said["de"]["title"] == "Eingabe nicht möglich"
    assert said["de"]["detail"] == "Die Personen oder Optionen passen nicht zu diesem Spiel."
    assert said["de"]["errors"][0]["message"] == "Jede Person braucht einen Namen."
    assert said["fr"]["errors"][0]["message"] == "Chaque joueur a besoin d’un nom."
    assert said["it"]["errors"][0]["message"] == "Ogni giocatore ha bisogno di un nome."
    for language, body in said.items():
        assert [(e["path"], e["code"], e["params"]) for e in body["errors"]] == [
            (e["path"], e["code"], e["params"]) for e in english["errors"]], language


GAME_NAMES = {
    "de": {"sea-change": "Sea Change", "seven-seals": "Die sieben Siegel",
           "tschau-sepp": "Tschau Sepp", "score-pad": "Punkteblock"},
    "fr": {"sea-change": "Sea Change", "seven-seals": "Les sept sceaux",
           "tschau-sepp": "Tschau Sepp", "score-pad": "Feuille de marque"},
    "it": {"sea-change": "Sea Change", "seven-seals": "I sette sigilli",
           "tschau-sepp": "Tschau Sepp", "score-pad": "Segnapunti"},
    "en": {"sea-change": "Sea Change", "seven-seals": "The Seven Seals",
           "tschau-sepp": "Tschau Sepp", "score-pad": "Score pad"},
}


async def test_a_game_is_named_in_the_readers_language(client: Client) -> None:
    """No German title on a French or Italian screen: /games and the messages that name a
    game say it as the request's language does; its id stays the same."""
    for language, names in GAME_NAMES.items():
        games = (await client.get("/api/v1/games",
                                  headers={"Accept-Language": f"{language}-CH"})).json()
        assert {game["id"]: game["name"] for game in games} == names
        one = (await client.get(f"/api/v1/games/seven-seals?lang={language}")).json()
        assert one["name"] == names["seven-seals"]
        refused = problem(await client.post(
            f"/api/v1/matches?lang={language}",
            json={"game": "seven-seals", "players": ["Ann", "Bea"]}), 422)
        message = next(e["message"] for e in refused["errors"] if e["path"] == "players")
        assert message.startswith(names["seven-seals"]), message


async def test_the_printed_pages_name_a_tournaments_game_in_the_readers_language(
        client: Client) -> None:
    """The standings and both paper sheets of a round name the game as the reader's language
    does; a score pad's own title stays as typed."""
    from tests.api.test_tournaments import BASE, new_tournament, register, start

    seals = await new_tournament(client, game="seven-seals", options={}, table_size=3)
    pad = await new_tournament(client, game="score-pad", options={"title": "Jass"},
                               table_size=3)
    for tournament in (seals, pad):
        await register(client, tournament, ["Jürg", "Bea", "Cem"])
        await start(client, tournament)
    for language, names in GAME_NAMES.items():
        url = f"{BASE}/{seals['id']}"
        pages = [(await client.get(f"{url}/export", params={"format": "html", "lang": language})
                  ).text] + [(await client.get(f"{url}/rounds/1/paper",
                                               params={"sheet": sheet, "lang": language})).text
                             for sheet in ("scores", "seats")]
        for page in pages:
            assert names["seven-seals"] in page, language
            assert language == "de" or "Siegel" not in page, language
        jass = (await client.get(f"{BASE}/{pad['id']}/rounds/1/paper",
                                 params={"lang": language, "sheet": "seats"})).text
        assert "Jass" in jass
        assert names["score-pad"] not in jass


async def test_option_errors_name_the_players_in_the_readers_language(client: Client) -> None:
    response = await client.post(
        "/api/v1/matches?lang=de",
        json={"game": "sea-change", "players": ["Ann", "Bea", "Cem", "Dan"],
              "options": {"teams": [[0, 1], [2, 3]]}})
    errors = problem(response, 422)["errors"]
    assert [e["message"] for e in errors] == [
        "Teammitglieder sitzen abwechselnd am Tisch, dieses Team wäre also Ann und Cem.",
        "Teammitglieder sitzen abwechselnd am Tisch, dieses Team wäre also Ann und Cem."]
    assert errors[0]["params"] == {"seats": [0, 1], "expected": [0, 2]}


async def test_litestars_own_errors_speak_too(client: Client) -> None:
    body = problem(await client.get("/api/v1/nowhere", headers={"Accept-Language": "it"}), 404)
    assert (body["title"], body["detail"]) == ("Non trovato", "A questo indirizzo non c’è niente.")
    shape = problem(await client.post("/api/v1/matches?lang=fr",
                                      json={"game": "tschau-sepp", "players": "Ann"}), 400)
    (error,) = shape["errors"]
    assert error["path"] == "players"
    assert error["message"] == "Ici, il faut une liste, pas un texte."
    assert error["params"]["detail"] == "Expected `array`, got `str`"


async def test_several_accept_language_lines_are_one_list(client: Client) -> None:
    answer = await client.get("/api/v1/ping", headers=[("Accept-Language", "es"),
                                                       ("Accept-Language", "it;q=0.8")])
    assert answer.headers["content-language"] == "it"


async def test_a_problem_outside_the_api_names_its_language_too(client: Client) -> None:
    for path in ("/no-such-file.js", "/schema/swagger"):
        answer = await client.get(path, headers={"Accept-Language": "fr-CH"})
        assert problem(answer, 404)["title"] == "Introuvable"
        assert answer.headers["content-language"] == "fr"
        assert "accept-language" in answer.headers["vary"].lower()


async def test_a_bad_parameter_is_named_as_the_client_sent_it(client: Client) -> None:
    """``?format=xml`` is wrong at ``format`` (not the handler's ``format_``), and the value is
    quoted the language's way."""
    match = (await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Anna", "Ben"]})).json()
    (error,) = problem(await client.get(
        f"/api/v1/matches/{match['id']}/export?format=xml&lang=de"), 400)["errors"]
    assert (error["path"], error["message"]) == (
        "format", "«xml» gehört nicht zu den hier erlaubten Werten.")
    (error,) = problem(await client.post(
        f"/api/v1/matches/{match['id']}/guide?round=two&lang=it", json={}), 400)["errors"]
    assert (error["path"], error["message"]) == (
        "round", "Qui serve un numero intero, non un testo.")


async def test_no_json_word_reaches_a_player(client: Client) -> None:
    """An optional field of the wrong type, or no body at all, is said without ``null``."""
    tournament = (await client.post("/api/v1/tournaments", json={
        "name": "Cup", "game": "tschau-sepp", "rounds": 1, "table_size": 4})).json()
    (wrong,) = problem(await client.post(
        f"/api/v1/tournaments/{tournament['id']}/players?lang=de", json={"name": "Eva", "club": 5},
        headers={"Authorization": f"Bearer {tournament['token']}"}), 400)["errors"]
    assert wrong["message"] == "Hier wird ein Text erwartet, nicht eine ganze Zahl."
    assert wrong["params"]["expected"] == ["str"]
    (nothing,) = problem(await client.post(
        "/api/v1/matches?lang=fr", content=b"", headers={"Content-Type": "application/json"}),
        400)["errors"]
    assert (nothing["path"], nothing["message"]) == ("", "Cette requête a besoin d’un contenu.")


@pytest.mark.parametrize(("game", "options", "language", "said"), [
    ("sea-change", {"suits": ["pink", "blue", "red"]}, "de",
     "«pink» geht hier nicht; wähle Blau, Grün, Violett, Rot oder Gelb."),
    ("tschau-sepp", {"card_faces": "german"}, "fr", "«german» n’est pas possible ici ; "
     "choisissez cartes françaises ou cartes suisses alémaniques."),
    ("tschau-sepp", {"scoring": "points"}, "it",
     "«points» qui non è possibile; scegli punti di penalità o mani vinte."),
])
async def test_the_choices_are_named_in_the_readers_words_not_by_their_ids(
        client: Client, game: str, options: dict[str, Any], language: str, said: str) -> None:
    response = await client.post(f"/api/v1/matches?lang={language}", json={
        "game": game, "players": ["Anna", "Ben"], "options": options})
    (error,) = problem(response, 422)["errors"]
    assert error["code"] == "unknown_choice"
    assert error["message"] == said


async def test_a_finished_matchs_reason_is_said_in_the_readers_language(client: Client) -> None:
    created = await client.post("/api/v1/matches", json={
        "game": "sea-change", "players": ["Anna", "Ben", "Cleo"], "options": {"target_vp": 1}})
    match = created.json()
    headers = {"Authorization": f"Bearer {match['token']}", "Accept-Language": "de-CH"}
    entry = {"final_trump": "red", "scores": [5, 2, 1], "trump_zero": 0}
    written = await client.post(f"/api/v1/matches/{match['id']}/rounds", json=entry,
                                headers=headers)
    assert written.status_code == 201, written.text
    assert written.json()["reason"]["message"] == "Anna hat 1 SP erreicht."
    reasons = {}
    for language in LANGUAGES:
        read = await client.get(f"/api/v1/matches/{match['id']}?lang={language}")
        reasons[language] = read.json()["reason"]
    assert reasons["en"]["message"] == "Anna reached 1 VP."
    assert reasons["fr"]["message"] == "Anna a atteint 1 PV."
    assert reasons["it"]["message"] == "Anna ha raggiunto 1 PV."
    assert all(r["params"] == reasons["en"]["params"] for r in reasons.values())


async def test_the_solo_ais_name_is_said_too(client: Client) -> None:
    created = (await client.post("/api/v1/matches?lang=de", json={
        "game": "sea-change", "players": ["Anna"], "options": {"suits": ["blue", "red", "green"]},
    })).json()
    assert [line["name"] for line in created["standings"]] == ["Anna", "KI"]
    headers = {"Authorization": f"Bearer {created['token']}"}
    entry = {"final_trump": "red", "scores": [2, 6], "trump_zero": 1, "has_eight": False}
    for _ in range(3):
        await client.post(f"/api/v1/matches/{created['id']}/rounds", json=entry, headers=headers)
    read = (await client.get(f"/api/v1/matches/{created['id']}?lang=it")).json()
    assert read["reason"]["message"] == "IA ha raggiunto 3 PV."
    assert read["standings"][0]["name"] == "IA"


async def test_the_guide_says_whats_wrong_in_the_readers_language(client: Client) -> None:
    created = (await client.post("/api/v1/matches", json={
        "game": "seven-seals", "players": ["Anna", "Ben", "Cleo"]})).json()
    guided = await client.post(f"/api/v1/matches/{created['id']}/guide?lang=de",
                               json={"bids": [{"seals": ["red"]}, None, {"seals": ["red"]}]})
    (error,) = guided.json()["guide"]["errors"]
    assert error["code"] == "out_of_turn"
    assert error["message"] == "Ben ist vor Cleo mit der Vorhersage dran: trag diese zuerst ein."


async def test_games_explain_their_options_in_human_words(client: Client) -> None:
    for language in LANGUAGES:
        games = (await client.get(f"/api/v1/games?lang={language}")).json()
        for game in games:
            for option in game["options"]:
                for text in (option["label"], option["description"],
                             option.get("default_rule") or ""):
                    assert "null" not in text, (language, text)
                    assert "_" not in text, (language, text)
    tschau = (await client.get("/api/v1/games/tschau-sepp?lang=de")).json()
    assert tschau["suits"][0] == {"id": "rosen", "name": "Rosen",
                                  "french": {"id": "herz", "name": "Herz"}}
    options = {option["name"]: option for option in tschau["options"]}
    assert options["wins_needed"]["label"] == "Nötige Siege"
    assert options["table"]["choice_labels"]["face"] == "Augenwert"


async def test_the_score_sheet_speaks_the_readers_language(client: Client) -> None:
    created = (await client.post("/api/v1/matches", json={
        "game": "seven-seals", "players": ["Anna", "Ben", "Cleo"]})).json()
    entry = {"bids": [{"seals": []}, {"saboteur": True}, {"seals": []}],
             "remaining": [[], None, []], "black": [0, 0, 0]}
    recorded = await client.post(f"/api/v1/matches/{created['id']}/rounds", json=entry,
                                 headers={"Authorization": f"Bearer {created['token']}"})
    assert recorded.status_code == 201, recorded.text
    sheets = {}
    for language in LANGUAGES:
        sheet = await client.get(f"/api/v1/matches/{created['id']}/export?lang={language}")
        assert sheet.headers["content-language"] == language
        sheets[language] = sheet.content.decode("utf-8").removeprefix("\ufeff").splitlines()
    assert sheets["de"][0].split(",")[:5] == [
        "Runde", "Saboteur", "Sieger der Partie", "Anna: Strafpunkte", "Anna: genaue Vorhersagen"]
    assert "Anna: Strafpunkte gesamt" in sheets["de"][0]
    # The saboteur by name; no winner yet after the first of six rounds.
    assert sheets["de"][1].split(",")[:5] == ["1", "Ben", "", "0", "ja"]
    assert sheets["fr"][1].split(",")[4] == "oui"
    assert sheets["it"][0].startswith("Mano,Sabotatore,")
    assert "Anna: punti di penalità" in sheets["it"][0]
    assert sheets["en"][1].split(",")[:5] == ["1", "Ben", "", "0", "yes"]


# What a Tschau Sepp round is called: a game (rules.md §3), in each language's word for it;
# French and Italian call any game's round a manche and a mano, so for them the two are one.
TSCHAU_SEPP_GAME = {"de": ("Spiel", "Spielen", "Runde"), "en": ("Game", "games", "Round"),
                    "fr": ("Manche", "manches", None), "it": ("Mano", "mani", None)}


async def test_tschau_sepp_says_games_not_rounds(client: Client, new_table: NewTable) -> None:
    """Its options, its reasons and its score sheet's columns name one thing: a game."""
    table = await new_table({"games": 2})
    for penalty in ([0, 7, 12], [6, 0, 9]):
        recorded = await table.record({"winner": penalty.index(0), "penalty": penalty})
        assert recorded.status_code == 201, recorded.text
    for language, (game, games, round_word) in TSCHAU_SEPP_GAME.items():
        sheet = await client.get(f"{table.url}/export?lang={language}")
        header = sheet.content.decode("utf-8").removeprefix("\ufeff").splitlines()[0]
        assert re.split("[,;]", header)[0] == game, (language, header)
        reason = (await client.get(table.url, params={"lang": language})).json()["reason"]
        assert f" 2 {games}" in reason["message"], (language, reason)
        described = (await client.get(f"/api/v1/games/tschau-sepp?lang={language}")).text
        if round_word is not None:
            assert round_word.lower() not in f"{header} {described} {reason}".lower(), language


async def test_the_printable_standings_speak_the_readers_language(client: Client) -> None:
    from tests.api.test_tournaments import BASE, new_tournament, play_round, register

    tournament = await new_tournament(client, name="Zürich Open")
    await register(client, tournament, ["Jürg", "Bea", "Cem"])
    await play_round(client, tournament)
    url = f"{BASE}/{tournament['id']}/export"
    german = (await client.get(url, params={"format": "html", "lang": "de"})).text
    assert '<html lang="de">' in german
    assert "<title>Zürich Open: Rangliste</title>" in german
    assert "Rangliste nach Runde 1 von" in german
    assert "<th>Verein</th>" in german
    assert "0,5" in german  # German numbers
    swiss = (await client.get(url, params={"format": "html"},
                              headers={"Accept-Language": "de-CH"})).text
    assert "0.5" in swiss
    assert "0,5" not in swiss
    french = (await client.get(url, params={"lang": "fr", "sep": ";"})).content.decode()
    assert french.startswith("\ufeffRang;No;Nom;Club;Points;Tables")
