"""The tournament engine: seating planners and tournament standings, pure and stdlib only.

- :mod:`.tables`: how many tables of which size (:func:`table_sizes`, :class:`TableSizes`).
- :mod:`.random_seating`, :mod:`.swiss`, :mod:`.mix`: the three seating modes.
- :mod:`.report`: :class:`RoundPlan` and its report (repeats, club-mates, table revisits, and
  the plan's repeats against a lower bound).
- :mod:`.designs` (with :mod:`.fields`): zero-repeat schedules from finite geometry;
  :mod:`.tabu`: the local search over whole plans; :mod:`.bounds`: lower bounds on repeats.
- :mod:`.seating`: one entry point per mode name, and :func:`plan_for_cli`.
- :mod:`.standings`: tournament points by place and the tiebreak chain.
"""

from scoring.tournament.history import Meetings, Player, PlayerId, Round
from scoring.tournament.mix import MixWeights, plan_mix, seat_mix
from scoring.tournament.random_seating import seat_random
from scoring.tournament.report import (
    ClubSeating,
    PlanQuality,
    RepeatedPair,
    RoundPlan,
    RoundReport,
    TableRevisit,
)
from scoring.tournament.seating import MODES, plan_for_cli, seat_round
from scoring.tournament.standings import (
    CRITERIA,
    DEFAULT_TIEBREAKS,
    StandingRow,
    TableResult,
    TournamentScoring,
    table_points,
    tournament_standings,
)
from scoring.tournament.swiss import seat_swiss
from scoring.tournament.tables import SeatingImpossible, TableSizes, table_sizes

__all__ = [
    "CRITERIA",
    "DEFAULT_TIEBREAKS",
    "MODES",
    "ClubSeating",
    "Meetings",
    "MixWeights",
    "PlanQuality",
    "Player",
    "PlayerId",
    "RepeatedPair",
    "Round",
    "RoundPlan",
    "RoundReport",
    "SeatingImpossible",
    "StandingRow",
    "TableResult",
    "TableRevisit",
    "TableSizes",
    "TournamentScoring",
    "plan_for_cli",
    "plan_mix",
    "seat_mix",
    "seat_random",
    "seat_round",
    "seat_swiss",
    "table_points",
    "table_sizes",
    "tournament_standings",
]
