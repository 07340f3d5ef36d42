"""HTTP handlers for matches: thin wrappers around :mod:`api.matches.service`."""

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, delete, get, post, put
from litestar.datastructures import ResponseHeader, State
from litestar.enums import MediaType
from litestar.params import HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent

from api.db.models import IDEMPOTENCY_KEY_LENGTH, MATCH_ID_LENGTH
from api.edge.problems import (
    BadRequest,
    Conflict,
    ContentTooLarge,
    Forbidden,
    NotFound,
    PreconditionFailed,
    Unauthorized,
    Unprocessable,
    documented,
)
from api.games.schemas import GuideBody, RoundBody
from api.i18n.http import RequestWords
from api.matches import export, service
from api.matches import schemas as s
from api.matches.owners import DeviceId, Sender, TablePhone
from api.matches.wording import said_match, said_snapshot, said_written, sheet_words
from api.shared.requests import (
    EVENTS_DESCRIPTION,
    SECURITY,
    Session,
    attachment,
    authorization,
    broker,
    change_events,
    event_socket,
)
from api.shared.spreadsheet import DecimalMark, Layout, Separator, csv_response

MAX_ROUND = 10_000

MatchId = Annotated[str, PathParameter(
    title="Match id", min_length=1, max_length=MATCH_ID_LENGTH, pattern=r"^[A-Za-z0-9_-]+$",
)]
RoundNumber = Annotated[int, PathParameter(title="Round number", ge=1, le=MAX_ROUND)]
Entry = JSONBody[RoundBody]
PartialEntry = JSONBody[GuideBody]
GuideRound = Annotated[int | None, QueryParameter(name="round", ge=1, le=MAX_ROUND)]
IfMatch = Annotated[str | None, HeaderParameter(
    name="If-Match", max_length=40, description='The match version, e.g. "7"; stale → 412',
)]
IdempotencyKey = Annotated[str | None, HeaderParameter(
    name="Idempotency-Key", min_length=1, max_length=IDEMPOTENCY_KEY_LENGTH,
    description="Same key and body → the first response again; another body → 422",
)]

READ = [BadRequest, Unauthorized, Forbidden, NotFound]
WRITE = [*READ, ContentTooLarge, Conflict, PreconditionFailed, Unprocessable]
class MatchController(Controller):
    path = "/api/v1/matches"
    tags = ("matches",)

    @post("/", operation_id="createMatch", status_code=201,
          raises=[BadRequest, Unauthorized, Forbidden, Unprocessable],
          responses=documented(BadRequest, Unauthorized, Forbidden, ContentTooLarge,
                               Unprocessable),
          security=SECURITY)
    async def create(self, request: Request[Any, Any, Any], state: State, words: RequestWords,
                     data: JSONBody[s.NewMatch]) -> Response[s.CreatedMatch]:
        """Create a match; the answer holds its write token and view token, shown only once.

        With ``club`` the match is the club's (``Authorization: Bearer <club token>``)."""
        created = said_match(words, await service.create_match(
            state.database, state.folds, state.owners, data, authorization(request)))
        return Response(created, status_code=201,
                        headers={"Location": f"{self.path}/{created.id}"})

    @get("/{match_id:str}", operation_id="getMatch", raises=READ, responses=documented(*READ),
         security=SECURITY,
         response_headers=[ResponseHeader(name="ETag", documentation_only=True,
                                          description="The match version as an entity tag")])
    async def read(self, request: Request[Any, Any, Any], state: State, words: RequestWords,
                   match_id: MatchId) -> Response[s.Match]:
        """The match with every round and the standings."""
        match = await service.read_snapshot(state.database, state.owners, match_id,
                                            authorization(request))
        # The stored snapshot is an encoded s.Match already: sent as it is, its words said.
        return Response(said_snapshot(words, match.json),  # type: ignore[arg-type]
                        headers={"ETag": f'"{match.version}"'}, media_type=MediaType.JSON)

    @post("/{match_id:str}/rounds", operation_id="recordRound", status_code=201, raises=WRITE,
          responses=documented(*WRITE), security=[{"bearer": []}])
    async def record(
        self, request: Request[Any, Any, Any], state: State, words: RequestWords,
        match_id: MatchId, data: Entry, idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None, x_device_id: DeviceId = None, x_table_phone: TablePhone = None,
    ) -> Response[s.RoundWritten]:
        """Record the next round: the game's round entry (or ``{"entry": ...}``).

        With ``If-Match`` (the version the phone saw) a stale version is 412 and stores
        nothing; a repeated ``Idempotency-Key`` still answers its first response."""
        idempotency = None if idempotency_key is None else service.Idempotency(
            idempotency_key, service.fingerprint("POST", request.url.path, data))
        written = await service.record_round(
            state.database, state.folds, state.owners, broker(request), match_id,
            authorization(request), data, idempotency, Sender(x_device_id, x_table_phone),
            if_match)
        if isinstance(written, service.Replay):
            replayed = said_written(words, msgspec.convert(written.body, s.RoundWritten))
            return Response(replayed, status_code=written.status)
        return Response(said_written(words, written), status_code=201)

    @put("/{match_id:str}/rounds/{number:int}", operation_id="correctRound", raises=WRITE,
         responses=documented(*WRITE), security=[{"bearer": []}])
    async def correct(
        self, request: Request[Any, Any, Any], state: State, words: RequestWords,
        match_id: MatchId, number: RoundNumber, data: Entry, if_match: IfMatch = None,
        x_device_id: DeviceId = None, x_table_phone: TablePhone = None,
    ) -> s.RoundWritten:
        """Correct a round; every later round and the standings are folded again."""
        return said_written(words, await service.correct_round(
            state.database, state.folds, state.owners, broker(request), match_id, number,
            authorization(request), if_match, data, Sender(x_device_id, x_table_phone)))

    @delete("/{match_id:str}/rounds/{number:int}", operation_id="undoRound", raises=WRITE,
            responses=documented(*WRITE), security=[{"bearer": []}])
    async def undo(
        self, request: Request[Any, Any, Any], state: State,
        match_id: MatchId, number: RoundNumber, if_match: IfMatch = None,
        x_device_id: DeviceId = None, x_table_phone: TablePhone = None,
    ) -> None:
        """Undo the last round (only the last one)."""
        await service.undo_round(
            state.database, state.folds, state.owners, broker(request), match_id, number,
            authorization(request), if_match, Sender(x_device_id, x_table_phone))

    @post("/{match_id:str}/finish", operation_id="finishMatch", status_code=200,
          raises=[*READ, Conflict, PreconditionFailed],
          responses=documented(*READ, Conflict, PreconditionFailed), security=[{"bearer": []}])
    async def finish(
        self, request: Request[Any, Any, Any], state: State, words: RequestWords,
        match_id: MatchId, if_match: IfMatch = None, x_device_id: DeviceId = None,
        x_table_phone: TablePhone = None,
    ) -> s.Match:
        """Finish a match of a game without an end of its own (the score pad) after the rounds
        recorded; 409 for a game that ends by its rules, a match without a round or one
        finished already. Undoing its last round opens it again."""
        return said_match(words, await service.finish_match(
            state.database, state.folds, state.owners, broker(request), match_id,
            authorization(request), if_match, Sender(x_device_id, x_table_phone)))

    @post("/{match_id:str}/guide", operation_id="guideRound", status_code=200, opt={"reads": True},
          raises=[*READ, Conflict, Unprocessable],
          responses=documented(*READ, ContentTooLarge, Conflict),
          security=SECURITY)
    async def guide(
        self, request: Request[Any, Any, Any], state: State, session: Session,
        words: RequestWords, match_id: MatchId, data: PartialEntry,
        round_number: GuideRound = None,
    ) -> s.Guide:
        """Help for a partly entered round from the game (running numbers, what is left)."""
        return await service.guide(session, state.owners, match_id, authorization(request), data,
                                   round_number, words)

    @get("/{match_id:str}/history", operation_id="matchHistory", raises=READ,
         responses=documented(*READ), security=SECURITY)
    async def history(self, request: Request[Any, Any, Any], state: State, session: Session,
                      match_id: MatchId) -> list[s.HistoryItem]:
        """Every write to the match, oldest first, with old and new entries."""
        return await service.history(session, state.owners, match_id, authorization(request))

    @get("/{match_id:str}/export", operation_id="exportMatch", raises=READ,
         responses=documented(*READ), security=SECURITY)
    async def export(
        self, request: Request[Any, Any, Any], state: State, words: RequestWords, match_id: MatchId,
        format_: Annotated[Literal["csv", "json"], QueryParameter(name="format")] = "csv",
        sep: Separator = ",", decimal: DecimalMark = ".",
    ) -> Response[s.ScoreSheet]:
        """The score sheet, round by round with running totals, as CSV or JSON."""
        match = said_match(words, await service.read_match(state.database, state.owners,
                                                           match_id, authorization(request)))
        filename = f"{match.game}-{match.id}.{format_}"
        if format_ == "json":
            sheet = s.ScoreSheet(match=match, exported_at=service.now())
            return Response(sheet, headers=attachment(filename))
        zone = await state.owners.time_zone(state.database.read_one, match.id)
        return csv_response(export.score_sheet_csv(match, Layout(sep, decimal),  # type: ignore[return-value]
                                                   sheet_words(words, match), zone), filename)

    @get("/{match_id:str}/events", operation_id="matchEvents", raises=READ,
         responses=documented(*READ), security=SECURITY,
         description="Server-Sent Events of the match." + EVENTS_DESCRIPTION)
    async def events(self, request: Request[Any, Any, Any], state: State,
                     match_id: MatchId) -> ServerSentEvent:
        """Server-Sent Events: the version now, then a ``change`` after each write."""
        reader = authorization(request)
        await service.read_snapshot(state.database, state.owners, match_id, reader)

        async def version() -> int:
            return (await service.read_snapshot(state.database, state.owners, match_id,
                                                reader)).version

        return ServerSentEvent(change_events(broker(request), match_id, version,
                                             event_socket(request), ping=state.settings.event_ping))
