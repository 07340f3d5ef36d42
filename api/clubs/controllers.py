"""HTTP handlers for clubs: thin wrappers around :mod:`api.clubs.service`."""

from datetime import datetime
from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, delete, get, patch, post
from litestar.datastructures import ResponseHeader, State
from litestar.enums import MediaType
from litestar.exceptions import HTTPException, ValidationException
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent

from api.clubs import backup as club_backup
from api.clubs import kasse, privacy, seasons, service
from api.clubs import schemas as s
from api.clubs.backup import MAX_BACKUP_BYTES
from api.clubs.export import ClubExport
from api.clubs.ledger import events_channel
from api.clubs.reads import ClubAnswers
from api.db.models import CLUB_ID_LENGTH
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
from api.i18n.words import words_for
from api.matches.owners import DeviceId
from api.shared.requests import (
    EVENTS_DESCRIPTION,
    Session,
    attachment,
    authorization,
    broker,
    change_events,
    event_socket,
)
from api.shared.spreadsheet import DecimalMark, Layout, Separator

MAX_HISTORY_PAGE = 200

ClubId = Annotated[str, PathParameter(
    title="Club id", min_length=1, max_length=CLUB_ID_LENGTH, pattern=r"^[A-Za-z0-9_-]+$",
)]
MemberId = Annotated[int, PathParameter(title="Member id", ge=1, le=s.MAX_MEMBER_ID)]
SeasonId = Annotated[int, PathParameter(title="Season id", ge=1, le=1_000_000)]
GameQuery = Annotated[str, QueryParameter(
    name="game", min_length=1, max_length=64, description="A game id, e.g. tschau-sepp")]
OptionalGame = Annotated[str | None, QueryParameter(
    name="game", min_length=1, max_length=64, description="Only this game")]
OptionalMember = Annotated[int | None, QueryParameter(
    name="player", ge=1, le=s.MAX_MEMBER_ID, description="Only matches this member played")]
Since = Annotated[datetime | None, QueryParameter(
    description="From this moment on (inclusive, RFC 3339: 2026-01-01T00:00:00Z)")]
Until = Annotated[datetime | None, QueryParameter(
    description="Before this moment (exclusive, RFC 3339)")]



def moments_as_written(request: Request[Any, Any, Any]) -> None:
    """``since`` and ``until`` as RFC 3339 text only: the query's reader takes a bare number for
    a Unix timestamp (``until=0`` was 1970), which the contract does not offer; such a number is
    refused (400 at the parameter) as any other text that names no moment."""
    for name in ("since", "until"):
        value = request.query_params.get(name)
        if value is not None and value.strip().lstrip("+-").replace(".", "", 1).isdigit():
            raise ValidationException(extra=[{
                "key": name, "message": "Invalid RFC3339 encoded datetime", "source": "query"}])


Format = Annotated[Literal["json", "csv"], QueryParameter(
    name="format", description="json, or csv for a spreadsheet")]
Evening = Annotated[str | None, QueryParameter(
    max_length=32, description="An evening, YYYY-MM-DD in the club's time zone")]

READ = [BadRequest, Unauthorized, Forbidden, NotFound]
QUERY = [*READ, Unprocessable]
WRITE = [*READ, ContentTooLarge, Unprocessable]
TOKEN: list[dict[str, list[str]]] = [{"bearer": []}]


def answers(request: Request[Any, Any, Any]) -> ClubAnswers:
    """Where the app reads clubs (:mod:`api.clubs.reads`)."""
    kept: ClubAnswers = request.app.state.club_answers
    return kept


class ClubController(Controller):
    path = "/api/v1/clubs"
    tags = ("clubs",)

    @post("/", operation_id="createClub", status_code=201, raises=[BadRequest, Unprocessable],
          responses=documented(BadRequest, ContentTooLarge, Unprocessable))
    async def create(self, session: Session,
                     data: JSONBody[s.NewClub]) -> Response[s.CreatedClub]:
        """Create a club; the answer holds its token and view token, shown only once."""
        created = await service.create_club(session, data)
        return Response(created, status_code=201,
                        headers={"Location": f"{self.path}/{created.id}"})

    @post("/import", operation_id="importClub", status_code=201,
          raises=[BadRequest, Unprocessable, Unavailable], request_max_body_size=MAX_BACKUP_BYTES,
          responses=documented(BadRequest, ContentTooLarge, Unprocessable, Unavailable))
    async def import_(self, request: Request[Any, Any, Any],
                      state: State) -> Response[s.CreatedClub]:
        """Rebuild a club from its backup, with new ids and tokens: the same members, matches,
        tournaments, statistics and ratings.

        The body is a ``ClubBackup`` (as ``backupClub`` answers it), at most 16 MiB; see
        :func:`api.clubs.backup.import_club` for how it is stored."""
        try:
            body = await json_body(request)
        except HTTPException as refused:
            if refused.status_code == ContentTooLarge.status_code:
                raise ContentTooLarge(club_backup.TOO_LARGE.with_params(
                    limit=MAX_BACKUP_BYTES >> 20)) from None
            raise
        if len(body) > club_backup.BIG_BACKUP_BYTES:
            club_id, created = await state.imports.run(
                club_backup.import_club, body, state.settings.import_lease)
        else:
            club_id, created = await club_backup.import_club(
                state.database, body, state.settings.import_lease)
        return Response(created, status_code=201, media_type=MediaType.JSON,
                        headers={"Location": f"{self.path}/{club_id}"})

    @get("/{club_id:str}/backup", operation_id="backupClub", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def backup(self, request: Request[Any, Any, Any], session: Session,
                     club_id: ClubId) -> Response[s.ClubBackup]:
        """Everything about the club as JSON, to import elsewhere (club token)."""
        return await answers(request).read(session, "backup", club_id, authorization(request))

    @get("/{club_id:str}", operation_id="getClub", raises=READ, responses=documented(*READ),
         security=TOKEN,
         response_headers=[ResponseHeader(name="ETag", documentation_only=True,
                                          description="The club version as an entity tag")])
    async def read(self, request: Request[Any, Any, Any], session: Session,
                   club_id: ClubId) -> Response[s.Club]:
        """The club and its members (club token or view token)."""
        return await answers(request).read(session, "club", club_id, authorization(request))

    @patch("/{club_id:str}", operation_id="renameClub", raises=WRITE,
           responses=documented(*WRITE), security=TOKEN)
    async def rename(self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
                     data: JSONBody[s.ClubChange]) -> s.Club:
        """Give the club a new name or time zone (club token)."""
        return await service.change_club(session, broker(request), club_id,
                                         authorization(request), data)

    @get("/{club_id:str}/players", operation_id="clubPlayers", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def players(self, request: Request[Any, Any, Any], session: Session,
                      club_id: ClubId) -> Response[list[s.ClubMember]]:
        """Every member with their statistics and rating per game played."""
        return await answers(request).read(session, "players", club_id, authorization(request))

    @post("/{club_id:str}/players", operation_id="addClubPlayers", status_code=201,
          raises=WRITE, responses=documented(*WRITE), security=TOKEN)
    async def add_players(self, request: Request[Any, Any, Any], session: Session,
                          club_id: ClubId,
                          data: JSONBody[s.NewClubMembers]) -> s.AddedClubMembers:
        """Add members by name before they ever play (club token): each name's member once,
        ``added`` for those the list made; a name that is a member already (ignoring case and
        surrounding spaces, or another spelling merged into one) answers that member."""
        return await service.add_members(session, broker(request), club_id,
                                         authorization(request), data)

    @get("/{club_id:str}/players/{member_id:int}", operation_id="clubPlayer", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def player(self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
                     member_id: MemberId) -> Response[s.ClubMember]:
        """One member with their statistics and rating per game played."""
        return await answers(request).read(session, "player", club_id, authorization(request),
                                           member_id)

    @patch("/{club_id:str}/players/{member_id:int}", operation_id="renameClubPlayer",
           raises=WRITE, responses=documented(*WRITE), security=TOKEN)
    async def rename_player(self, request: Request[Any, Any, Any], session: Session,
                            club_id: ClubId, member_id: MemberId,
                            data: JSONBody[s.MemberChange]) -> s.ClubMember:
        """A new spelling of a member's name (club token); one of their aliases swaps."""
        return await service.rename_member(session, broker(request), club_id, member_id,
                                           authorization(request), data)

    @post("/{club_id:str}/players/{member_id:int}/merge", operation_id="mergeClubPlayer",
          status_code=200, raises=[*WRITE, Conflict], responses=documented(*WRITE, Conflict),
          security=TOKEN)
    async def merge_player(self, request: Request[Any, Any, Any], session: Session,
                           club_id: ClubId, member_id: MemberId,
                           data: JSONBody[s.MemberMerge]) -> s.ClubMember:
        """Merge this member into ``into`` (two spellings of one person, club token); answers
        the merged member, statistics and ratings replayed as if always one."""
        return await service.merge_member(session, broker(request), club_id, member_id,
                                          authorization(request), data)

    @delete("/{club_id:str}/players/{member_id:int}", operation_id="removeClubPlayer",
            raises=[*READ, Conflict], responses=documented(*READ, Conflict), security=TOKEN)
    async def remove_player(self, request: Request[Any, Any, Any], state: State,
                            session: Session, club_id: ClubId, member_id: MemberId) -> None:
        """Remove a member (club token): their name is replaced, their results stay."""
        await service.remove_member(session, broker(request), state.folds, club_id, member_id,
                                    authorization(request))

    @get("/{club_id:str}/ratings", operation_id="clubLadder", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def ladder(self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
                     game: GameQuery) -> Response[list[s.LadderRow]]:
        """The game's ladder: the members who played it, best ``ordinal`` first."""
        return await answers(request).read(session, "ladder", club_id, authorization(request),
                                           game)

    @get("/{club_id:str}/ratings/history", operation_id="clubRatingHistory", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def rating_history(self, request: Request[Any, Any, Any], session: Session,
                             club_id: ClubId, game: GameQuery,
                             player: OptionalMember = None) -> Response[list[s.RatingHistory]]:
        """Each member's rating after every rated match of the game, by evening."""
        return await answers(request).read(session, "rating_history", club_id,
                                           authorization(request), game, player)

    @get("/{club_id:str}/statistics", operation_id="clubStatistics", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def statistics(self, request: Request[Any, Any, Any], session: Session,
                         club_id: ClubId, game: OptionalGame = None, since: Since = None,
                         until: Until = None) -> Response[list[s.StatisticsRow]]:
        """Statistics per member and game, all time or over the matches played in a range."""
        moments_as_written(request)
        return await answers(request).read(session, "statistics", club_id,
                                           authorization(request), game, since, until)

    @get("/{club_id:str}/history", operation_id="clubHistory", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def history(
        self, request: Request[Any, Any, Any], session: Session,
        club_id: ClubId, game: OptionalGame = None, player: OptionalMember = None,
        since: Since = None,
        until: Until = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_HISTORY_PAGE)] = 50,
        offset: Annotated[int, QueryParameter(ge=0, le=1_000_000)] = 0,
    ) -> Response[s.ClubHistory]:
        """The club's matches and tournaments, newest first, one page at a time."""
        moments_as_written(request)
        return await answers(request).read(session, "history", club_id, authorization(request),
                                           game, player, since, until, limit, offset,
                                           choice_of(request.scope))

    @get("/{club_id:str}/head-to-head", operation_id="clubHeadToHead", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def head_to_head(
        self, request: Request[Any, Any, Any], session: Session,
        club_id: ClubId, player: Annotated[int, QueryParameter(ge=1, le=s.MAX_MEMBER_ID)],
        opponent: Annotated[int, QueryParameter(ge=1, le=s.MAX_MEMBER_ID)],
        game: OptionalGame = None,
    ) -> Response[s.HeadToHead]:
        """Two members' finished matches together, per game, and the latest of them."""
        return await answers(request).read(session, "head_to_head", club_id,
                                           authorization(request), player, opponent, game,
                                           choice_of(request.scope))

    @get("/{club_id:str}/export", operation_id="exportClub", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def export(
        self, request: Request[Any, Any, Any], session: Session,
        club_id: ClubId,
        format_: Annotated[Literal["csv", "json"], QueryParameter(name="format")] = "csv",
        table: Annotated[Literal["results", "statistics"], QueryParameter(
            description="CSV: which table (the JSON holds both)")] = "results",
        sep: Separator = ",", decimal: DecimalMark = ".",
    ) -> Response[ClubExport]:
        """The club's results or statistics as CSV, or both with the club as JSON."""
        return await answers(request).read(session, "export", club_id, authorization(request),
                                           format_, table, Layout(sep, decimal),
                                           choice_of(request.scope))

    @post("/{club_id:str}/seasons", operation_id="createClubSeason", status_code=201,
          raises=WRITE, responses=documented(*WRITE), security=TOKEN)
    async def create_season(self, request: Request[Any, Any, Any], session: Session,
                            club_id: ClubId, data: JSONBody[s.NewSeason]) -> Response[s.Season]:
        """A season of the club (club token): its evenings ``from`` to ``to`` (both counted),
        one ``game`` or all, each member's ``best`` evenings or all."""
        created = await seasons.create_season(session, broker(request), club_id,
                                              authorization(request), data)
        return Response(created, status_code=201, headers={
            "Location": f"{self.path}/{club_id}/seasons/{created.id}/standings"})

    @get("/{club_id:str}/seasons", operation_id="clubSeasons", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def seasons(self, request: Request[Any, Any, Any], session: Session,
                      club_id: ClubId) -> Response[list[s.Season]]:
        """The club's seasons, in the order they were made."""
        return await answers(request).read(session, "seasons", club_id, authorization(request))

    @get("/{club_id:str}/pads", operation_id="clubPads", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def pads(self, request: Request[Any, Any, Any], session: Session,
                   club_id: ClubId) -> Response[list[s.ClubPad]]:
        """The score-pad games the club has played (one per title), last played first, each
        with the options of its last match: what "new match" offers first."""
        return await answers(request).read(session, "pads", club_id, authorization(request))

    @get("/{club_id:str}/seasons/{season_id:int}/standings", operation_id="clubSeasonStandings",
         raises=READ, responses=documented(*READ), security=TOKEN)
    async def season_standings(
        self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
        season_id: SeasonId,
        format_: Annotated[Literal["json", "csv"], QueryParameter(name="format")] = "json",
        sep: Separator = ",", decimal: DecimalMark = ".",
    ) -> Response[list[s.SeasonStanding]]:
        """The season's table as the club's results say now: place points per finished match,
        a club tournament's points, each member's best evenings; shared ranks. As CSV
        (``format=csv``): a row per member, headings in the request's language."""
        return await answers(request).read(session, "season_standings", club_id,
                                           authorization(request), season_id,
                                           choice_of(request.scope), format_,
                                           Layout(sep, decimal))

    @get("/{club_id:str}/players/{member_id:int}/data", operation_id="clubMemberData",
         raises=READ, responses=documented(*READ), security=TOKEN)
    async def member_data(self, request: Request[Any, Any, Any], session: Session,
                          club_id: ClubId, member_id: MemberId) -> Response[s.MemberData]:
        """Everything the club holds about one member, as JSON (GDPR art. 15; club token):
        see :mod:`api.clubs.privacy`."""
        data = await privacy.member_data(session, club_id, member_id, authorization(request),
                                         words_for(choice_of(request.scope)))
        return Response(data, headers=attachment(f"club-{club_id}-member-{member_id}.json"))

    @post("/{club_id:str}/players/{member_id:int}/forget", operation_id="forgetClubPlayer",
          status_code=200, raises=[*READ, Conflict], responses=documented(*READ, Conflict),
          security=TOKEN)
    async def forget_player(self, request: Request[Any, Any, Any], state: State,
                            session: Session, club_id: ClubId,
                            member_id: MemberId) -> s.ForgottenMember:
        """Forget a member (GDPR art. 17; club token): their name is replaced everywhere by a
        neutral one, everybody's results stay; the club's audit records it."""
        return await privacy.forget_member(session, broker(request), state.folds, club_id,
                                           member_id, authorization(request),
                                           words_for(choice_of(request.scope)))

    @get("/{club_id:str}/audit", operation_id="clubAudit", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def audit(self, request: Request[Any, Any, Any], session: Session,
                    club_id: ClubId) -> list[s.ClubAuditRecord]:
        """The club's own audit, oldest first (club token): members forgotten."""
        return await privacy.read_audit(session, club_id, authorization(request))

    @get("/{club_id:str}/settlement", operation_id="clubSettlement", raises=QUERY,
         responses=documented(*QUERY), security=TOKEN)
    async def settlement(
        self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
        from_: Annotated[str | None, QueryParameter(
            name="from", max_length=32,
            description="The first evening, YYYY-MM-DD in the club's time zone")] = None,
        to: Evening = None, format_: Format = "json", sep: Separator = ",",
        decimal: DecimalMark = ".",
    ) -> Response[s.ClubSettlement]:
        """Who pays and receives what over the evenings ``from`` ... ``to`` (by ``played_at``
        in the club's time zone; tonight when neither is given; a missing one leaves the
        period open on that side), per currency: each member, the pot, and the fewest
        transfers between members (club or view token)."""
        return await answers(request).read(session, "settlement", club_id,
                                           authorization(request), from_, to, format_,
                                           Layout(sep, decimal), choice_of(request.scope))

    @post("/{club_id:str}/payments", operation_id="recordClubPayment", status_code=201,
          raises=WRITE, responses=documented(*WRITE), security=TOKEN)
    async def record_payment(self, request: Request[Any, Any, Any], session: Session,
                             club_id: ClubId, data: JSONBody[s.NewClubPayment],
                             device: DeviceId = None) -> Response[s.ClubPayment]:
        """Money a member paid into the club's pot, or (a negative amount) was paid out of it
        (club token). Payments are never changed or deleted: a wrong one is reversed by
        another."""
        recorded = await kasse.record_payment(session, broker(request), club_id,
                                              authorization(request), data, device,
                                              words_for(choice_of(request.scope)))
        return Response(recorded, status_code=201,
                        headers={"Location": f"{self.path}/{club_id}/payments"})

    @get("/{club_id:str}/payments", operation_id="clubPayments", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def payments(self, request: Request[Any, Any, Any], session: Session,
                       club_id: ClubId) -> Response[list[s.ClubPayment]]:
        """Every payment into and out of the club's pot, newest first."""
        return await answers(request).read(session, "payments", club_id,
                                           authorization(request), choice_of(request.scope))

    @get("/{club_id:str}/kasse", operation_id="clubKasse", raises=READ,
         responses=documented(*READ), security=TOKEN)
    async def read_kasse(self, request: Request[Any, Any, Any], session: Session, club_id: ClubId,
                    format_: Format = "json", sep: Separator = ",",
                    decimal: DecimalMark = ".") -> Response[s.ClubKasse]:
        """The club's pot per currency: what each member owes it from all the club's matches
        played for money, has paid, and still owes; and the money in it."""
        return await answers(request).read(session, "kasse", club_id, authorization(request),
                                           format_, Layout(sep, decimal),
                                           choice_of(request.scope))

    @get("/{club_id:str}/events", operation_id="clubEvents", raises=READ,
         responses=documented(*READ), security=TOKEN,
         description="Server-Sent Events of the club: every change to its members, matches, "
                     "statistics or ratings." + EVENTS_DESCRIPTION)
    async def events(self, request: Request[Any, Any, Any], state: State,
                     club_id: ClubId) -> ServerSentEvent:
        """Server-Sent Events: the club's version now, then a ``change`` with its new version
        after every change to its members, matches, statistics or ratings."""
        async with state.database.sessions() as session:
            await service.readable(session, club_id, authorization(request))

        async def version() -> int:
            async with state.database.sessions() as session:
                return (await service.load_club(session, club_id)).version

        return ServerSentEvent(change_events(broker(request), events_channel(club_id), version,
                                             event_socket(request), ping=state.settings.event_ping))
