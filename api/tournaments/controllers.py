"""HTTP handlers for tournaments: thin wrappers around :mod:`api.tournaments.service`."""

from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, get, patch, post
from litestar.datastructures import ResponseHeader, State
from litestar.enums import MediaType
from litestar.params import HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent

from api.edge.bodies import json_body
from api.edge.problems import (
    BadRequest,
    Conflict,
    ContentTooLarge,
    Forbidden,
    NotFound,
    Unauthorized,
    Unavailable,
    Unprocessable,
    documented,
)
from api.i18n.http import choice_of
from api.matches.owners import DEVICE_ID_LENGTH, DEVICE_ID_PATTERN, Sender, TablePhone
from api.shared.requests import (
    EVENTS_DESCRIPTION,
    SECURITY,
    Session,
    authorization,
    broker,
    change_events,
    event_socket,
)
from api.shared.spreadsheet import DecimalMark, Layout, Separator
from api.tournaments import backup, day, export, service
from api.tournaments import schemas as s
from api.tournaments.access import events_channel
from api.tournaments.models import TOURNAMENT_ID_LENGTH
from api.tournaments.reads import Answers

MAX_BACKUP_BYTES = 16 * 1024 * 1024

TournamentId = Annotated[str, PathParameter(
    title="Tournament id", min_length=1, max_length=TOURNAMENT_ID_LENGTH,
    pattern=r"^[A-Za-z0-9_-]+$",
)]
PlayerId = Annotated[int, PathParameter(title="Player id", ge=1, le=s.MAX_BACKUP_ITEMS)]
RoundNumber = Annotated[int, PathParameter(title="Round number", ge=1, le=s.MAX_ROUNDS)]
TableNumber = Annotated[int, PathParameter(title="Table number", ge=1, le=s.MAX_BACKUP_ITEMS)]
DeviceId = Annotated[str | None, HeaderParameter(
    name="X-Device-Id", min_length=1, max_length=DEVICE_ID_LENGTH, pattern=DEVICE_ID_PATTERN,
    description="A random id the app keeps per phone: where the result was entered without "
                "an X-Table-Phone key, the phone that confirms it must send another one",
)]

READ = [BadRequest, Unauthorized, Forbidden, NotFound]
WRITE = [*READ, ContentTooLarge, Conflict, Unprocessable]
ORGANISER: list[dict[str, list[str]]] = [{"bearer": []}]


def answers(request: Request[Any, Any, Any]) -> Answers:
    """Where the app reads whole tournaments (:mod:`api.tournaments.reads`)."""
    kept: Answers = request.app.state.answers
    return kept


class TournamentController(Controller):
    path = "/api/v1/tournaments"
    tags = ("tournaments",)

    @post("/", operation_id="createTournament", status_code=201,
          raises=[BadRequest, Unprocessable],
          responses=documented(BadRequest, ContentTooLarge, Unprocessable))
    async def create(self, request: Request[Any, Any, Any], state: State, session: Session,
                     data: JSONBody[s.NewTournament]) -> Response[s.CreatedTournament]:
        """Create a tournament; the answer holds the organiser token and a view token, once.

        With ``club`` it is the club's (``Authorization: Bearer <club token>``)."""
        created = await service.create_tournament(session, state.tournament_host, data,
                                                  authorization(request))
        return Response(created, status_code=201, headers={"Location": f"{self.path}/{created.id}"})

    @post("/import", operation_id="importTournament", status_code=201,
          raises=[BadRequest, Unprocessable, Unavailable], request_max_body_size=MAX_BACKUP_BYTES,
          responses=documented(BadRequest, ContentTooLarge, Unprocessable, Unavailable))
    async def import_(self, request: Request[Any, Any, Any],
                      state: State) -> Response[s.CreatedTournament]:
        """Rebuild a tournament from its backup, with new ids and tokens.

        The body is a ``Backup`` (as ``backupTournament`` answers it); see
        :func:`api.tournaments.backup.import_tournament` for how it is stored."""
        body = await json_body(request)
        if len(body) > backup.BIG_BACKUP_BYTES:
            tournament_id, created = await state.imports.run(
                backup.import_tournament, body, state.settings.import_lease)
        else:
            tournament_id, created = await backup.import_tournament(
                state.database, body, state.settings.import_lease)
        return Response(created, status_code=201, media_type=MediaType.JSON,
                        headers={"Location": f"{self.path}/{tournament_id}"})

    @get("/print.css", operation_id="tournamentPrintStylesheet", raises=[BadRequest],
         responses=documented(), media_type="text/css")
    async def print_css(self) -> Response[str]:
        """The stylesheet of the printable standings page."""
        return Response(export.PRINT_CSS, media_type=MediaType.CSS)

    @get("/{tournament_id:str}", operation_id="getTournament", raises=READ,
         responses=documented(*READ), security=SECURITY,
         response_headers=[ResponseHeader(name="ETag", documentation_only=True,
                                          description="The tournament version as an entity tag")])
    async def read(self, request: Request[Any, Any, Any], session: Session,
                   tournament_id: TournamentId) -> Response[s.Tournament]:
        """Settings, players and every round's tables with their state (no tokens)."""
        return await answers(request).read(session, "tournament", tournament_id,
                                           authorization(request))

    @post("/{tournament_id:str}/players", operation_id="addPlayer", status_code=201,
          raises=WRITE, responses=documented(*WRITE), security=ORGANISER)
    async def add_player(self, request: Request[Any, Any, Any], state: State,
                         session: Session, tournament_id: TournamentId,
                         data: JSONBody[s.NewPlayer]) -> s.TournamentPlayer:
        """Register a player (organiser); a late entry plays from the next round."""
        return await service.add_player(session, broker(request), state.tournament_host,
                                        tournament_id, authorization(request), data)

    @patch("/{tournament_id:str}/players/{player_id:int}", operation_id="changePlayer",
           raises=WRITE, responses=documented(*WRITE), security=ORGANISER)
    async def change_player(self, request: Request[Any, Any, Any],
                            session: Session, tournament_id: TournamentId,
                            player_id: PlayerId,
                            data: JSONBody[s.PlayerChange]) -> s.TournamentPlayer:
        """Drop out (``active: false``), come back, fix a name or club, or mark paid
        (organiser)."""
        return await service.change_player(session, broker(request), tournament_id, player_id,
                                           authorization(request), data)

    @post("/{tournament_id:str}/check-in", operation_id="checkIn", status_code=201,
          raises=WRITE, responses=documented(*WRITE))
    async def check_in(self, request: Request[Any, Any, Any], state: State,
                       session: Session, tournament_id: TournamentId,
                       data: JSONBody[s.CheckIn]) -> s.CheckedIn:
        """A player registers themselves with the tournament's check-in code (no token): 403
        for a wrong code, 409 for a name already registered or once round 1 has started
        (unless the tournament takes late check-ins). The answer holds the player token, once:
        it reads the player's own view and the events, and writes nothing."""
        return await day.check_in(session, broker(request), state.tournament_host,
                                  tournament_id, data)

    @post("/{tournament_id:str}/clock", operation_id="setClock", status_code=200,
          raises=WRITE, responses=documented(*WRITE), security=ORGANISER)
    async def clock(self, request: Request[Any, Any, Any], session: Session,
                    tournament_id: TournamentId, data: JSONBody[s.ClockAction]) -> s.Clock:
        """The round clock (organiser): start, pause, resume, extend every table or one. 409
        for pausing a clock not running, resuming one not paused, extending one stopped; 422
        for minutes outside 1 to 600 or a table the current round does not have."""
        return await day.set_clock(session, broker(request), tournament_id,
                                   authorization(request), data)

    @get("/{tournament_id:str}/clock", operation_id="getClock", raises=READ,
         responses=documented(*READ), security=SECURITY)
    async def read_clock(self, request: Request[Any, Any, Any], session: Session,
                         tournament_id: TournamentId) -> s.ClockReading:
        """The round clock, for a table's phone: whoever reads the tournament, and in a private
        one also its tables' and players' tokens."""
        return await service.read_clock(session, tournament_id, authorization(request))

    @get("/{tournament_id:str}/players/{player_id:int}", operation_id="getTournamentPlayer",
         raises=READ, responses=documented(*READ), security=SECURITY)
    async def player(self, request: Request[Any, Any, Any],
                     session: Session, tournament_id: TournamentId,
                     player_id: PlayerId) -> Response[s.PlayerView]:
        """A player's view: every table played, the current table and seat with who sits where
        and who deals, the standing and the clock. The player's own token (check-in) reads it
        in a private tournament too."""
        return await answers(request).read(session, "player", tournament_id,
                                           authorization(request), player_id)

    @post("/{tournament_id:str}/rounds", operation_id="startRound", status_code=201,
          raises=WRITE, responses=documented(*WRITE), security=ORGANISER,
          opt={"reads": True})  # the write begins once the seating is worked out
    async def start_round(self, request: Request[Any, Any, Any], state: State,
                          session: Session,
                          tournament_id: TournamentId) -> Response[s.StartedRound]:
        """Seat every active player and create one match per table, with its table token."""
        started = await service.start_round(session, state.database, state.offload,
                                            broker(request), state.tournament_host,
                                            tournament_id, authorization(request))
        # The StartedRound already encoded (perhaps by the helper process): sent as it is.
        return Response(started.body, status_code=201,  # type: ignore[arg-type]
                        media_type=MediaType.JSON)

    @get("/{tournament_id:str}/rounds/{number:int}/tokens", operation_id="roundTokens",
         raises=READ, responses=documented(*READ), security=ORGANISER)
    async def tokens(self, request: Request[Any, Any, Any],
                     session: Session, tournament_id: TournamentId,
                     number: RoundNumber) -> s.RoundTokens:
        """The round's table tokens again, for printing table cards (organiser)."""
        return await service.round_tokens(session, tournament_id, number, authorization(request))

    @post("/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/phones",
          operation_id="openTablePhone", status_code=201, raises=WRITE,
          responses=documented(*WRITE), security=ORGANISER)
    async def open_phone(self, request: Request[Any, Any, Any],
                         state: State, tournament_id: TournamentId,
                         number: RoundNumber, table: TableNumber) -> s.TablePhone:
        """A phone opened the table's link (with the table's token): its own key, to send as
        ``X-Table-Phone`` with its writes and its confirmation. Nothing is stored."""
        # No request session: its write transaction would hold SQLite's write lock.
        return await service.open_table_phone(state.database, tournament_id, number, table,
                                              authorization(request))

    @post("/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/confirm",
          operation_id="confirmTable", status_code=200, raises=WRITE,
          responses=documented(*WRITE), security=ORGANISER)
    async def confirm(self, request: Request[Any, Any, Any],
                      state: State, tournament_id: TournamentId,
                      number: RoundNumber, table: TableNumber,
                      x_device_id: DeviceId = None, x_table_phone: TablePhone = None) -> s.Table:
        """Confirm a finished table's result: another phone at the table, or the organiser.

        With the table's token: when a phone with an ``X-Table-Phone`` key entered the result,
        only another phone's key confirms it; a result entered without one (a client that
        sends only ``X-Device-Id``) is confirmed by a different ``X-Device-Id``."""
        # No request session: its write transaction would hold SQLite's write lock for the
        # whole request; the confirmation writes in a transaction of its own.
        return await service.confirm_table(state.database, broker(request),
                                           state.tournament_host, tournament_id, number, table,
                                           authorization(request),
                                           Sender(x_device_id, x_table_phone))

    @get("/{tournament_id:str}/standings", operation_id="tournamentStandings", raises=READ,
         responses=documented(*READ), security=SECURITY)
    async def standings(self, request: Request[Any, Any, Any],
                        session: Session,
                        tournament_id: TournamentId) -> Response[s.Standings]:
        """Tournament points and the tiebreak chain, from confirmed tables."""
        return await answers(request).read(session, "standings", tournament_id,
                                           authorization(request))

    @get("/{tournament_id:str}/export", operation_id="exportTournament", raises=READ,
         responses=documented(*READ), security=SECURITY)
    async def export(
        self, request: Request[Any, Any, Any], session: Session, tournament_id: TournamentId,
        format_: Annotated[Literal["csv", "json", "html"], QueryParameter(name="format")] = "csv",
        sep: Separator = ",", decimal: DecimalMark = ".",
    ) -> Response[s.StandingsExport]:
        """The standings as CSV, JSON or a printable A4 page, each naming the game (a score
        pad by its title): the CSV in its last column, the JSON as ``game_key``."""
        return await answers(request).read(session, "export", tournament_id,
                                           authorization(request), format_,
                                           Layout(sep, decimal), choice_of(request.scope))

    @get("/{tournament_id:str}/rounds/{number:int}/paper", operation_id="roundPaper",
         raises=READ, responses=documented(*READ), security=SECURITY, media_type="text/html")
    async def paper(
        self, request: Request[Any, Any, Any], session: Session, tournament_id: TournamentId,
        number: RoundNumber,
        sheet: Annotated[Literal["scores", "seats"], QueryParameter(
            description="scores: a score sheet per table; seats: who sits where")] = "scores",
    ) -> Response[str]:
        """Printable A4 pages of a round for when the phones fail: a blank score sheet per
        table, or the alphabetical list of who sits where."""
        return await answers(request).read(session, "paper", tournament_id,
                                           authorization(request), number, sheet,
                                           choice_of(request.scope))

    @get("/{tournament_id:str}/backup", operation_id="backupTournament", raises=READ,
         responses=documented(*READ), security=ORGANISER)
    async def backup(self, request: Request[Any, Any, Any],
                     session: Session,
                     tournament_id: TournamentId) -> Response[s.Backup]:
        """Everything about the tournament as JSON, to import elsewhere (organiser)."""
        return await answers(request).read(session, "backup", tournament_id,
                                           authorization(request))

    @get("/{tournament_id:str}/events", operation_id="tournamentEvents", raises=READ,
         responses=documented(*READ), security=SECURITY,
         description="Server-Sent Events of the tournament: every change, including every "
                     "result entered or confirmed at its tables." + EVENTS_DESCRIPTION)
    async def events(self, request: Request[Any, Any, Any], state: State,
                     tournament_id: TournamentId) -> ServerSentEvent:
        """Server-Sent Events: the version now, then a ``change`` on every change."""
        async with state.database.sessions() as session:
            await service.events_readable(session, tournament_id, authorization(request))

        async def version() -> int:
            async with state.database.sessions() as session:
                return await service.version_of(session, tournament_id)

        return ServerSentEvent(change_events(broker(request), events_channel(tournament_id),
                                             version, event_socket(request),
                                             ping=state.settings.event_ping))
