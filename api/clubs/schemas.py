"""The request and response bodies of the club endpoints.

Request bodies forbid unknown fields (400), like every body. Struct names are unique across the
API (they become OpenAPI component names): a club's player is a ``ClubMember``.
Members are numbered 1, 2, 3 ... within their club (``player`` in answers, as in the HTTP
contract's ratings).
"""

from datetime import date, datetime
from typing import Annotated, Any, Literal

import msgspec

from api.clubs.models import (
    CLUB_NAME_LENGTH,
    MEMBER_NAME_LENGTH,
    PAYMENT_NOTE_LENGTH,
    RECORDER_LENGTH,
    SEASON_NAME_LENGTH,
    TIME_ZONE_LENGTH,
)
from api.games.schemas import RoundEntry
from api.matches.schemas import Amount, MatchStakes, StakesBody
from api.tournaments.schemas import Backup

MAX_MEMBER_ID = 1_000_000
ClubName = Annotated[str, msgspec.Meta(max_length=CLUB_NAME_LENGTH)]
MemberName = Annotated[str, msgspec.Meta(max_length=MEMBER_NAME_LENGTH)]
MemberId = Annotated[int, msgspec.Meta(ge=1, le=MAX_MEMBER_ID)]
MatchStatus = Literal["in_progress", "finished"]


class NewClub(msgspec.Struct, forbid_unknown_fields=True):
    name: ClubName


TimeZone = Annotated[str, msgspec.Meta(max_length=TIME_ZONE_LENGTH, examples=["Europe/Zurich"])]


class ClubChange(msgspec.Struct, forbid_unknown_fields=True):
    """A new name for the club, a new time zone (IANA name), new default stakes per game; what
    is left out stays."""

    name: ClubName | None = None
    time_zone: TimeZone | None = None
    stakes: dict[str, StakesBody | None] | None = None
    """Per game key the stakes a club match of that game is played for unless it says;
    ``null`` for a game takes its default away, games left out keep theirs."""


class MemberChange(msgspec.Struct, forbid_unknown_fields=True):
    """A new spelling of a member's name."""

    name: MemberName


MAX_NEW_MEMBERS = 500


class NewClubMembers(msgspec.Struct, forbid_unknown_fields=True):
    """Members to add by name before they play (a list pasted in, one name a line)."""

    names: Annotated[list[Annotated[str, msgspec.Meta(max_length=200)]],
                     msgspec.Meta(min_length=1, max_length=MAX_NEW_MEMBERS)]


class AddedClubMember(msgspec.Struct):
    """A member a name of the list is: ``added`` when the list made them, else already one."""

    id: int
    name: str
    added: bool


class AddedClubMembers(msgspec.Struct):
    """Each member the names are, once, in the order first named."""

    players: list[AddedClubMember]


class MemberMerge(msgspec.Struct, forbid_unknown_fields=True):
    """Merge the member of the path into ``into``: two spellings of one person."""

    into: MemberId


class ClubRating(msgspec.Struct):
    """openskill's Plackett-Luce rating; ``ordinal`` = mu − 3·sigma."""

    mu: float
    sigma: float
    ordinal: float


class MeasureStatistics(msgspec.Struct):
    """One of the game's measures (``vp_per_round``, ``penalty_per_round``, ...): the average
    over all the member's finished matches and the best single match."""

    id: str
    per: Literal["round", "match"]
    better: Literal["higher", "lower"]
    average: float | None
    best: float | None


class LastResult(msgspec.Struct):
    match: str
    finish: int
    rank: int
    won: bool


class MemberGameStatistics(msgspec.Struct):
    """A member's statistics in one game, over finished club matches.

    ``streak``: +n for the last n matches won, −n for the last n not won.
    ``rating`` is none only in statistics over a date range (ratings are the whole history's).
    """

    played: int
    won: int
    win_rate: float
    rounds: int
    streak: int
    longest_streak: int
    measures: list[MeasureStatistics]
    last: list[LastResult]
    rating: ClubRating | None
    rated: int


class ClubMember(msgspec.Struct):
    """A member with their statistics and rating per game played (``GET .../players``)."""

    id: int
    name: str
    aliases: list[str]
    games: dict[str, MemberGameStatistics]


class ClubMemberSummary(msgspec.Struct):
    id: int
    name: str
    aliases: list[str]
    played: int


class Club(msgspec.Struct):
    id: str
    name: str
    time_zone: str
    """The IANA name of the zone whose local date is a match's evening."""
    stakes: dict[str, MatchStakes]
    """The default stakes per game key of the club's matches."""
    players: list[ClubMemberSummary]
    games: list[str]
    finished_matches: int
    version: int
    created_at: datetime
    updated_at: datetime


class CreatedClub(Club):
    token: str
    view_token: str


class LadderRow(msgspec.Struct):
    """One line of a game's ladder (``GET .../ratings``), best ``ordinal`` first; equal
    ordinals share a rank."""

    player: int
    name: str
    rank: int
    mu: float
    sigma: float
    ordinal: float
    played: int
    won: int
    rated: int


class RatingPoint(msgspec.Struct):
    """A member's rating after one finished match."""

    finish: int
    match: str
    finished_at: datetime
    played_at: datetime
    """When the match was played: ratings are reckoned in the club's order, by ``played_at``."""
    mu: float
    sigma: float
    ordinal: float


class RatingHistory(msgspec.Struct):
    player: int
    name: str
    points: list[RatingPoint]


class StatisticsRow(MemberGameStatistics):
    player: int
    name: str
    game: str


class HistorySeat(msgspec.Struct):
    """A member at a match (or a tournament's player): rank and win once it is finished."""

    player: int
    name: str
    rank: int | None
    won: bool | None


class HistoryEntry(msgspec.Struct):
    """A club match or tournament; ``kind`` says which view ``id`` opens."""

    kind: Literal["match", "tournament"]
    id: str
    game: str
    name: str | None
    status: Literal["in_progress", "finished", "registering", "running"]
    played_at: datetime
    evening: date
    """The date of ``played_at`` in the club's time zone: the evening the entry belongs to."""
    location: str | None
    finished_at: datetime | None
    finish: int | None
    """A finished match's number in the order the club's matches finished (ratings go by
    ``played_at``, then this number)."""
    players: list[HistorySeat]


class ClubHistory(msgspec.Struct):
    """One page of the club's history, latest evening (``played_at``) first; ``next_offset``
    asks for the next."""

    entries: list[HistoryEntry]
    next_offset: int | None


class HeadToHeadGame(msgspec.Struct):
    """Two members' finished matches together in one game: who finished ahead, who won."""

    game: str
    played: int
    player_ahead: int
    opponent_ahead: int
    tied: int
    partners: int
    player_won: int
    opponent_won: int


class MemberRef(msgspec.Struct):
    id: int
    name: str


class HeadToHead(msgspec.Struct):
    player: MemberRef
    opponent: MemberRef
    games: list[HeadToHeadGame]
    matches: list[HistoryEntry]


MAX_BACKUP_MEMBERS = 100_000
MAX_BACKUP_MATCHES = 100_000
MAX_BACKUP_TOURNAMENTS = 10_000
MAX_FINISH = 10_000_000


class BackupMember(msgspec.Struct, forbid_unknown_fields=True):
    """A member as the club knows them: no name once removed; ``merged_into`` another
    member for a second spelling."""

    id: MemberId
    name: MemberName | None
    merged_into: MemberId | None = None


class BackupFinish(msgspec.Struct, forbid_unknown_fields=True):
    """When a club match finished, and its place in the order the club's matches finished."""

    finish: Annotated[int, msgspec.Meta(ge=1, le=MAX_FINISH)]
    finished_at: datetime


class BackupClubMatch(msgspec.Struct, forbid_unknown_fields=True):
    """A club match: its names as typed, the member at each seat, its options and entries."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    players: Annotated[list[Annotated[str, msgspec.Meta(max_length=200)]],
                       msgspec.Meta(max_length=64)]
    members: Annotated[list[int], msgspec.Meta(max_length=64)]
    """Member ids (checked against ``members``: an unknown one is 422 at its seat)."""
    options: dict[str, Any]
    entries: Annotated[list[RoundEntry], msgspec.Meta(max_length=10_000)]
    created_at: datetime
    finished: BackupFinish | None
    private: bool = False
    played_at: datetime | None = None
    """When it was played; left out (a backup made before it was kept): ``created_at``."""
    location: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    """Where (checked as a new match's ``location``)."""
    stakes: StakesBody | None = None
    """What it was played for (checked as a new match's ``stakes``)."""


class BackupTablePlayer(msgspec.Struct, forbid_unknown_fields=True):
    player: Annotated[int, msgspec.Meta(ge=1, le=MAX_BACKUP_MEMBERS)]
    member: MemberId


class BackupTableFinish(BackupFinish, forbid_unknown_fields=True):
    round: Annotated[int, msgspec.Meta(ge=1, le=1_000)]
    table: Annotated[int, msgspec.Meta(ge=1, le=MAX_BACKUP_MEMBERS)]
    played_at: datetime | None = None
    """When the table's match was played (its round began): the club counts its matches in
    that order. A backup without it: when the table finished."""


class BackupClubTournament(msgspec.Struct, forbid_unknown_fields=True):
    """A club tournament: its own backup, the member each player is, and when its tables'
    matches finished."""

    backup: Backup
    players: Annotated[list[BackupTablePlayer], msgspec.Meta(max_length=MAX_BACKUP_MEMBERS)]
    finished: Annotated[list[BackupTableFinish], msgspec.Meta(max_length=MAX_BACKUP_MATCHES)]
    created_at: datetime


SeasonName = Annotated[str, msgspec.Meta(max_length=SEASON_NAME_LENGTH)]
MAX_SEASON_BEST = 1_000
MAX_BACKUP_SEASONS = 1_000


class NewSeason(msgspec.Struct, forbid_unknown_fields=True):
    """A season: the evenings ``from`` ... ``to`` (both counted, dates in the club's time zone),
    one game (``game``) or all, and each member's best ``best`` evenings or all of them."""

    name: SeasonName
    from_: date = msgspec.field(name="from")
    to: date
    game: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    best: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEASON_BEST)] | None = None


class Season(msgspec.Struct):
    id: int
    name: str
    from_: date = msgspec.field(name="from")
    to: date
    game: str | None
    best: int | None


class SeasonEvening(msgspec.Struct):
    """One evening of a member's season: its points and whether it counts."""

    date: date
    points: str
    counted: bool


class SeasonStanding(msgspec.Struct):
    """A member's line in the season: ``points`` (two decimals) of the ``counted`` evenings,
    the ``evenings`` played, the best one, and every evening by date (``line``)."""

    player: int
    name: str
    rank: int
    points: str
    evenings: int
    counted: list[date]
    best_evening: str
    line: list[SeasonEvening]


# --- the club's money: settlement and Kasse ------------------------------------------------

PaymentAmount = Annotated[str, msgspec.Meta(
    max_length=32, examples=["5.00"],
    description='A decimal string with at most two decimals, such as "5.00"; negative: paid out '
                'of the pot (never 0, never a number).')]
CurrencyCode = Annotated[str, msgspec.Meta(max_length=8, examples=["CHF"],
                                           description="CHF or EUR")]
PaymentNote = Annotated[str, msgspec.Meta(max_length=PAYMENT_NOTE_LENGTH)]
Recorder = Annotated[str, msgspec.Meta(max_length=RECORDER_LENGTH)]
MAX_BACKUP_PAYMENTS = 1_000_000


class NewClubPayment(msgspec.Struct, forbid_unknown_fields=True):
    """Money ``player`` paid into the club's pot (a negative ``amount``: paid out of it to
    them); ``recorded_by`` names who took it (the treasurer), if the phone says."""

    player: MemberId
    amount: PaymentAmount
    currency: CurrencyCode
    note: PaymentNote = ""
    recorded_by: Recorder | None = None


class ClubPayment(msgspec.Struct):
    """A payment as recorded: numbered 1, 2, 3 ... per club, never changed or deleted."""

    id: int
    player: int
    name: str
    amount: Amount
    currency: Literal["CHF", "EUR"]
    note: str
    recorded_at: datetime
    recorded_by: str | None


class ClubTransfer(msgspec.Struct):
    """One member pays another (member ids)."""

    from_: int = msgspec.field(name="from")
    to: int
    amount: Amount


class ClubSettlementMember(msgspec.Struct):
    """What a member pays (into the pot too), receives, and nets (``receives`` − ``pays``)."""

    player: int
    name: str
    pays: Amount
    receives: Amount
    net: Amount


class ClubSettlementCurrency(msgspec.Struct):
    currency: Literal["CHF", "EUR"]
    members: list[ClubSettlementMember]
    pot: Amount
    """What goes into the club's Kasse (paid there, not between members)."""
    transfers: list[ClubTransfer]


class ClubSettlement(msgspec.Struct):
    """The club's money over the evenings ``from`` ... ``to`` (dates in its time zone; ``null``:
    open on that side), per currency played for."""

    from_: date | None = msgspec.field(name="from")
    to: date | None
    time_zone: str
    matches: int
    """The finished matches with stakes counted."""
    currencies: list[ClubSettlementCurrency]


class ClubKasseMember(msgspec.Struct):
    """What a member owes the pot in all, has paid into it (less what was paid out to them),
    and still owes (``due``; negative: the pot owes them)."""

    player: int
    name: str
    owes: Amount
    paid: Amount
    due: Amount


class ClubKasseCurrency(msgspec.Struct):
    currency: Literal["CHF", "EUR"]
    members: list[ClubKasseMember]
    balance: Amount
    """The money in the pot: every payment in, less every payment out."""


class ClubKasse(msgspec.Struct):
    """The club's pot per currency."""

    currencies: list[ClubKasseCurrency]


class BackupPayment(msgspec.Struct, forbid_unknown_fields=True):
    """A payment of the Kasse as recorded (checked as a new one: 422 at its path)."""

    player: MemberId
    amount: PaymentAmount
    currency: CurrencyCode
    recorded_at: datetime
    note: PaymentNote = ""
    recorded_by: Recorder | None = None


class ClubBackup(msgspec.Struct, forbid_unknown_fields=True):
    """Everything needed to rebuild a club elsewhere with identical statistics and ratings."""

    format: Literal["tafelrunde-club"]
    version: Literal[1]
    name: ClubName
    members: Annotated[list[BackupMember], msgspec.Meta(max_length=MAX_BACKUP_MEMBERS)]
    matches: Annotated[list[BackupClubMatch], msgspec.Meta(max_length=MAX_BACKUP_MATCHES)]
    tournaments: Annotated[list[BackupClubTournament],
                           msgspec.Meta(max_length=MAX_BACKUP_TOURNAMENTS)]
    exported_at: datetime | None = None
    time_zone: TimeZone = "Europe/Zurich"
    stakes: dict[str, StakesBody] = {}
    """The club's default stakes per game key."""
    seasons: Annotated[list[NewSeason], msgspec.Meta(max_length=MAX_BACKUP_SEASONS)] = []
    payments: Annotated[list[BackupPayment], msgspec.Meta(max_length=MAX_BACKUP_PAYMENTS)] = []
    """The Kasse's payments, oldest first (numbered 1, 2, 3 ... again in this order)."""


class MemberDataRound(msgspec.Struct):
    """One round of a match as far as the member is in it: the values of their own seat (or
    team) in the entry, the round's result and the running totals."""

    number: int
    entry: dict[str, Any]
    result: dict[str, Any]
    totals: dict[str, Any]


class MemberDataMatch(msgspec.Struct):
    """A club match the member sat at: where, when, their seats, their line of the standings
    (without names) and every round as far as they are in it. Other players are not named."""

    id: str
    game: str
    status: MatchStatus
    played_at: datetime
    evening: date
    location: str | None
    tournament: str | None
    seats: list[int]
    players: int
    rank: int | None
    won: bool | None
    standing: dict[str, Any] | None
    rounds: list[MemberDataRound]


class MemberDataTournament(msgspec.Struct):
    """A club tournament the member played: their player id there and the name registered."""

    id: str
    name: str
    game: str
    status: str
    player: int
    registered_as: str


class MemberDataSeason(msgspec.Struct):
    season: Season
    standing: SeasonStanding | None
    """The member's line, none when they played no evening of the season."""


class MemberDataRating(msgspec.Struct):
    game: str
    points: list[RatingPoint]


class ClubAuditRecord(msgspec.Struct):
    """Something the organiser did to the club's members that no match's audit shows; the
    member by id only."""

    at: datetime
    action: str
    member: int | None
    token_kind: str


class ClubRef(msgspec.Struct):
    id: str
    name: str


class ForgottenMember(msgspec.Struct):
    """A member forgotten: their number and the neutral name they have now."""

    member: int
    name: str
    forgotten_at: datetime


class MemberRecord(msgspec.Struct):
    id: int
    name: str
    aliases: list[str]
    created_at: datetime
    removed_at: datetime | None


class MemberData(msgspec.Struct):
    """Everything the club holds about one member (GDPR art. 15), as ``clubMemberData``
    answers it; see :mod:`api.clubs.privacy` for what each part is."""

    format: Literal["tafelrunde-member-data"]
    club: ClubRef
    member: MemberRecord
    statistics: dict[str, MemberGameStatistics]
    ratings: list[MemberDataRating]
    matches: list[MemberDataMatch]
    tournaments: list[MemberDataTournament]
    seasons: list[MemberDataSeason]
    audit: list[ClubAuditRecord]
    payments: list[ClubPayment]
    exported_at: datetime


CLOSED_REQUEST_BODIES = (NewClub, ClubChange, MemberChange, NewClubMembers, MemberMerge, ClubBackup,
                         BackupMember, BackupFinish, BackupClubMatch, BackupTablePlayer,
                         BackupTableFinish, BackupClubTournament, NewSeason, NewClubPayment,
                         BackupPayment)


class ClubPadPlayer(msgspec.Struct):
    """A member who sat at a pad's last match, by the name they have now."""

    player: int
    """The member's id."""
    name: str


class ClubPad(msgspec.Struct):
    """A game the club keeps on its score pad (``GET .../pads``): the options of its last
    match, to start the next one with a tap."""

    key: str
    """The game key its matches count for, ``score-pad:<title>``."""
    game: str
    title: str
    options: dict[str, Any]
    players: int
    """How many players (sides) its last match had."""
    matches: int
    last_played_at: datetime
    last_players: list[ClubPadPlayer | None]
    """Who sat where at its last match, in seat order (``players`` seats); null for a seat
    whose member has since been removed or forgotten, left for the table to fill."""
