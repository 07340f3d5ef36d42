"""The request and response bodies of the tournament endpoints.

Request bodies forbid unknown fields (400), like the match bodies. Player ids are small integers
numbered from 1 in order of registration within a tournament.
"""

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from api.db.models import CLUB_ID_LENGTH
from api.games.schemas import RoundEntry
from api.matches.owners import DEVICE_ID_LENGTH, DEVICE_ID_PATTERN
from api.tournaments.limits import MAX_BACKUP_ITEMS, MAX_ROUNDS, MAX_TABLE_SIZE
from api.tournaments.models import (
    CLUB_LENGTH,
    NAME_LENGTH,
    PLAYER_NAME_LENGTH,
)

MAX_SEED = 2**31 - 1
MIN_SEED = -(2**31)
MAX_PLACE_POINTS = 1_000_000

Seating = Literal["random", "swiss", "mix"]
Tiebreak = Literal["points", "average_points", "score_share", "opponents", "table_wins"]
DEFAULT_TIEBREAKS: list[Tiebreak] = ["points", "score_share", "opponents", "table_wins"]
PlayerName = Annotated[str, msgspec.Meta(max_length=PLAYER_NAME_LENGTH)]
Club = Annotated[str, msgspec.Meta(max_length=CLUB_LENGTH)]
DeviceId = Annotated[str, msgspec.Meta(min_length=1, max_length=DEVICE_ID_LENGTH,
                                       pattern=DEVICE_ID_PATTERN)]
TableState = Literal["open", "playing", "entered", "confirmed"]
WarnMinutes = Annotated[int, msgspec.Meta(ge=0, le=600)]
CHECK_IN_CODE_MAX = 16


class PerPlace(msgspec.Struct, forbid_unknown_fields=True):
    """Tournament points per place for each table size (``{"4": [4, 2, 1, 0]}``)."""

    per_place: dict[str, list[float]]


Points = Literal["share"] | PerPlace


class NewTournament(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=NAME_LENGTH)]
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
    table_size: Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE_SIZE)]
    options: dict[str, Any] = {}
    seating: Seating = "mix"
    seed: Annotated[int, msgspec.Meta(ge=MIN_SEED, le=MAX_SEED)] | None = None
    points: Points = "share"
    tiebreaks: Annotated[list[Tiebreak], msgspec.Meta(max_length=8)] = msgspec.field(
        default_factory=lambda: list(DEFAULT_TIEBREAKS))
    hide_standings: bool = False
    private: bool = False
    club: Annotated[str, msgspec.Meta(min_length=1, max_length=CLUB_ID_LENGTH)] | None = None
    """A club's id: a tournament for the club, its players the club's members and its tables'
    matches the club's (the request needs the club token)."""
    check_in: bool = False
    """Players register themselves with the tournament's ``check_in_code`` (its QR code)."""
    late_check_in: bool = False
    """Check-in stays open once round 1 has started (a late entry plays from the next round)."""
    warn_minutes: WarnMinutes = 5
    """The round clock shows its warning with this many minutes left."""


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: PlayerName
    club: Club | None = None


class PlayerChange(msgspec.Struct, forbid_unknown_fields=True):
    """Only the fields given change; ``club: null`` removes the club."""

    active: bool | msgspec.UnsetType = msgspec.UNSET
    name: PlayerName | msgspec.UnsetType = msgspec.UNSET
    club: Club | msgspec.UnsetType | None = msgspec.UNSET
    paid: bool | msgspec.UnsetType = msgspec.UNSET


class CheckIn(msgspec.Struct, forbid_unknown_fields=True):
    """A player registering themselves with the tournament's check-in code."""

    code: Annotated[str, msgspec.Meta(max_length=CHECK_IN_CODE_MAX)]
    name: PlayerName
    club: Club | None = None


class TournamentPlayer(msgspec.Struct):
    id: int
    name: str
    club: str | None
    active: bool
    paid: bool


class CheckedIn(msgspec.Struct):
    """The registered player and their token, once: it reads their own view
    (``getTournamentPlayer``) and the tournament's events, and writes nothing."""

    player: TournamentPlayer
    player_token: str


class ClockAction(msgspec.Struct, forbid_unknown_fields=True):
    """``start`` (with ``minutes``), ``pause``, ``resume``, or ``extend`` (with ``minutes``;
    with ``table``, that table of the current round alone)."""

    action: Literal["start", "pause", "resume", "extend"]
    minutes: int | None = None
    table: int | None = None


class TableClock(msgspec.Struct):
    ends_at: datetime | None
    remaining_s: int


class Clock(msgspec.Struct):
    """The round clock. ``remaining_s`` is counted at the server's time of the answer (whole
    seconds, rounded up), so ``ends_at - remaining_s`` is the server's time then; ``tables``
    holds the tables given extra time."""

    state: Literal["running", "paused", "stopped"]
    ends_at: datetime | None
    remaining_s: int
    tables: dict[str, TableClock]


class ClockReading(Clock):
    """The clock as a table's phone reads it, with when it warns and the tournament's version
    (its events say when to read again)."""

    warn_minutes: int
    version: int


class Table(msgspec.Struct):
    table: int
    match_id: str
    players: list[int]
    state: TableState
    entered_by_device: str | None
    confirmed_by: Literal["table", "organiser"] | None
    entered_by_phone: str | None
    """The id of the table phone that entered the result (the part of its key before the dot)."""


class TablePhone(msgspec.Struct):
    """A phone's own key at a table: sent as ``X-Table-Phone``; ``id`` is its public part."""

    id: str
    key: str


class RepeatedPair(msgspec.Struct):
    """Two players meeting for the ``times``-th time, at ``table``."""

    players: list[int]
    times: int
    table: int
    met_last_round: bool


class ClubTable(msgspec.Struct):
    club: str
    players: list[int]
    table: int


class TableRevisit(msgspec.Struct):
    player: int
    table: int
    visits_before: int


class SeatingPlanQuality(msgspec.Struct):
    """Rounds ``first_round`` to ``first_round + rounds - 1`` were seated as one plan: the
    repeated meetings in them, and the fewest any seating of those rounds could have."""

    first_round: int
    rounds: int
    repeats: int
    lower_bound: int


class Report(msgspec.Struct):
    """Repeated pairs, club-mates kept apart (one list per club) or together, table revisits,
    and the quality of the seating plan the round belongs to (absent for rounds seated before
    the plans were reported)."""

    repeats: list[RepeatedPair]
    kept_apart: list[list[int]]
    club_mates_together: list[ClubTable]
    table_revisits: list[TableRevisit]
    plan: SeatingPlanQuality | None = None


class TournamentRound(msgspec.Struct):
    number: int
    status: Literal["playing", "complete"]
    tables: list[Table]
    report: Report


class Tournament(msgspec.Struct):
    id: str
    name: str
    game: str
    options: dict[str, Any]
    rounds: int
    table_size: int
    seating: Seating
    seed: int
    points: Points
    tiebreaks: list[Tiebreak]
    hide_standings: bool
    private: bool
    status: Literal["registering", "running", "finished"]
    players: list[TournamentPlayer]
    round_list: list[TournamentRound]
    current_round: int
    version: int
    created_at: datetime
    updated_at: datetime
    check_in: bool
    late_check_in: bool
    warn_minutes: int
    check_in_code: str | None
    """The organiser's answers only (null for everyone else, and without check-in)."""
    clock: Clock | msgspec.UnsetType = msgspec.UNSET
    """Always in ``getTournament``'s answer (not in the JSON export's copy)."""


class CreatedTournament(Tournament, kw_only=True):
    token: str
    view_token: str


class TableToken(msgspec.Struct):
    table: int
    match_id: str
    players: list[int]
    table_token: str


class StartedRound(msgspec.Struct):
    number: int
    tables: list[TableToken]
    report: Report


class RoundTokens(msgspec.Struct):
    number: int
    tables: list[TableToken]


class StandingRow(msgspec.Struct):
    rank: int
    player: int
    name: str
    club: str | None
    active: bool
    points: float
    tables: int
    tiebreaks: dict[str, float]
    # Dropped out (not active): said in the standings, on the board and in every export.
    dropped: bool = False


class Standings(msgspec.Struct):
    through_round: int
    rows: list[StandingRow]


class PlayerTable(msgspec.Struct):
    round: int
    table: int
    seat: int
    match_id: str
    place: int | None
    points: float | None


class SeatedPlayer(msgspec.Struct):
    seat: int
    player: int
    name: str


class CurrentTable(msgspec.Struct):
    round: int
    table: int
    seat: int
    match_id: str
    seats: list[SeatedPlayer]
    """Who sits where at the table, in seat order."""
    dealer: int
    """The seat that deals next."""


class PlayerView(msgspec.Struct):
    player: TournamentPlayer
    tables: list[PlayerTable]
    current: CurrentTable | None
    standing: StandingRow
    tournament_name: str
    version: int
    """The tournament's version: a phone that follows its events knows what it shows."""
    current_round: int
    rounds: int
    warn_minutes: int
    clock: Clock | msgspec.UnsetType = msgspec.UNSET
    """Always in ``getTournamentPlayer``'s answer."""


class StandingsExport(msgspec.Struct):
    """The JSON export: the tournament's settings and its standings."""

    tournament: Tournament
    standings: Standings
    exported_at: datetime
    game_key: str
    """The game as a club counts it: ``score-pad:<title>`` for a score pad (``score-pad:Jass``),
    else the game's id (``tournament.game``)."""


class BackupMatch(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[list[str], msgspec.Meta(max_length=MAX_TABLE_SIZE)]
    options: dict[str, Any]
    entries: Annotated[list[RoundEntry], msgspec.Meta(max_length=MAX_BACKUP_ITEMS)]


class BackupTable(msgspec.Struct, forbid_unknown_fields=True):
    table: Annotated[int, msgspec.Meta(ge=1, le=MAX_BACKUP_ITEMS)]
    players: Annotated[list[int], msgspec.Meta(max_length=MAX_TABLE_SIZE)]
    confirmed: bool
    confirmed_by: Literal["table", "organiser"] | None
    entered_by_device: DeviceId | None
    match: BackupMatch


class BackupRound(msgspec.Struct, forbid_unknown_fields=True):
    number: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
    report: Report
    tables: Annotated[list[BackupTable], msgspec.Meta(max_length=MAX_BACKUP_ITEMS)]


class BackupPlayer(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[int, msgspec.Meta(ge=1, le=MAX_BACKUP_ITEMS)]
    name: PlayerName
    club: Club | None
    active: bool
    paid: bool = False


class BackupSettings(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=NAME_LENGTH)]
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    options: dict[str, Any]
    rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
    table_size: Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE_SIZE)]
    seating: Seating
    seed: Annotated[int, msgspec.Meta(ge=MIN_SEED, le=MAX_SEED)]
    points: Points
    tiebreaks: Annotated[list[Tiebreak], msgspec.Meta(max_length=8)]
    hide_standings: bool
    private: bool
    check_in: bool = False
    late_check_in: bool = False
    warn_minutes: WarnMinutes = 5


class Backup(msgspec.Struct, forbid_unknown_fields=True):
    """Everything needed to rebuild a tournament elsewhere with identical standings."""

    format: Literal["tafelrunde-tournament"]
    version: Literal[1]
    tournament: BackupSettings
    players: Annotated[list[BackupPlayer], msgspec.Meta(max_length=MAX_BACKUP_ITEMS)]
    rounds: Annotated[list[BackupRound], msgspec.Meta(max_length=MAX_ROUNDS)]
    exported_at: datetime | None = None


CLOSED_REQUEST_BODIES = (
    NewTournament, PerPlace, NewPlayer, PlayerChange, CheckIn, ClockAction, Backup,
    BackupSettings, BackupPlayer, BackupRound, BackupTable, BackupMatch,
)
