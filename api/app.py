"""The Litestar application: routes, problem details, OpenAPI, the PWA, headers and lifespan."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from litestar import Litestar, get
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, License, SecurityScheme
from litestar.types import Message, Scope
from sqlalchemy import text

from api import openapi
from api.clubs import backup as club_backup
from api.clubs.controllers import ClubController
from api.clubs.owner import ClubMatches, ClubTournaments
from api.clubs.reads import ClubAnswers
from api.db.database import Database
from api.db.engine import create_engine
from api.db.session import provide_session
from api.edge.bodies import StrictRequest
from api.edge.boundary import Boundary, allowed_methods
from api.edge.compression import compression_config
from api.edge.problems import (
    BadRequest,
    Problem,
    documented,
    http_exception_handler,
    too_deep_handler,
    unexpected_exception_handler,
)
from api.edge.ratelimit import FailedTokenLimit, trusted_proxy_headers
from api.games.controllers import GameController
from api.games.schemas import GamePartSchemas
from api.i18n import _
from api.i18n.http import WORDS_DEPENDENCY, name_the_language
from api.matches.controllers import MatchController
from api.matches.folds import RecentFolds
from api.matches.owners import Owners
from api.server.app_files import pwa_routes
from api.server.offload import Offload
from api.server.settings import Settings
from api.shared.imports import keep_sweeping
from api.shared.live import create_broker
from api.shared.qr import qr_code
from api.tournaments import backup as tournament_backup
from api.tournaments.access import TableOwner
from api.tournaments.controllers import TournamentController
from api.tournaments.hosts import TournamentHost
from api.tournaments.reads import Answers

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
"""Every response's, but a page of the app's: that one also names its inline styles' hashes
(:class:`api.server.app_files.Revalidation`)."""
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class DatabaseUnavailable(Problem):
    status_code = 503


@get("/api/v1/health", operation_id="health", tags=["service"],
     raises=[BadRequest, DatabaseUnavailable], responses=documented(DatabaseUnavailable))
async def health(state: State) -> dict[str, str]:
    """200 once the database answers."""
    try:
        async with state.database.sessions() as session:
            await session.execute(text("SELECT 1"))
    except Exception as error:
        raise DatabaseUnavailable(_("The database does not answer.")) from error
    return {"status": "ok"}


@get("/api/v1/ping", operation_id="ping", tags=["service"], raises=[BadRequest])
async def ping() -> dict[str, str]:
    """200 while the process runs, without touching the database (a liveness probe)."""
    return {"status": "ok"}


async def add_headers(message: Message, scope: Scope) -> None:
    """Security headers on every response, where a route has not set its own (the app's page
    sets a policy that names its inline styles)."""
    if message["type"] != "http.response.start":
        return
    headers = list(message.get("headers", []))
    present = {bytes(name).lower() for name, _ in headers}
    message["headers"] = [*headers, *(header for header in SECURITY_HEADERS
                                       if header[0] not in present)]


def middleware(settings: Settings) -> list[Any]:
    """The client address first (from a trusted proxy's header), then the token limit by it."""
    layers: list[Any] = []
    if settings.trusted_proxies:
        layers.append(trusted_proxy_headers(settings.trusted_proxies))
    if settings.auth_failures_per_minute > 0:
        layers.append(FailedTokenLimit(settings.auth_failures_per_minute))
    return layers


def match_owners() -> Owners:
    """Who a match can belong to (:mod:`api.matches.owners`): a tournament's table decides who
    writes it and is asked first; a club's token may write and read its own matches too."""
    clubs = ClubMatches()
    return Owners((TableOwner(), clubs), host=clubs)


def tournament_host() -> TournamentHost:
    """What a tournament can be played for (:mod:`api.tournaments.hosts`): a club."""
    return ClubTournaments()


async def abandoned_imports_swept(database: Database, lease_seconds: int) -> None:
    """Sweep, every half lease while serving, the imports whose lease went stale: a process
    that died mid-import (on this machine or another on the same PostgreSQL) leaves nothing
    hidden for longer than a lease and a half, whether or not a server starts again
    (:mod:`api.shared.imports`)."""
    await keep_sweeping((
        partial(tournament_backup.sweep_unfinished, database, lease_seconds, everything=False),
        partial(club_backup.sweep_unfinished, database, lease_seconds, everything=False),
    ), lease_seconds / 2)


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    database = Database(create_engine(settings.database_url, synchronous=settings.synchronous),
                        synchronous=settings.synchronous)
    broker = create_broker(settings)
    # Two helpers: big imports, which anyone may send, queue in their own, never before a big
    # tournament's or club's reads and round starts (api.server.offload).
    offload = Offload(settings.database_url, settings.synchronous)
    imports = Offload(settings.database_url, settings.synchronous)

    @asynccontextmanager
    async def lifespan(_app: Litestar) -> AsyncIterator[None]:
        await broker.start()
        sweeping = asyncio.get_running_loop().create_task(abandoned_imports_swept(
            database, settings.import_lease))
        try:
            yield
        finally:
            sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeping
            await broker.stop()
            await offload.close()
            await imports.close()
            await database.close()

    route_handlers: list[Any] = [
        health, ping, qr_code, GameController, MatchController, TournamentController,
        ClubController]
    if settings.pwa_dir.is_dir():
        route_handlers += pwa_routes(settings.pwa_dir, CONTENT_SECURITY_POLICY)
    app = openapi.DocumentedApp(
        route_handlers=route_handlers,
        dependencies={"session": Provide(provide_session), "words": WORDS_DEPENDENCY},
        state=State({"database": database, "folds": RecentFolds(), "broker": broker,
                     "owners": match_owners(), "tournament_host": tournament_host(),
                     "settings": settings, "offload": offload, "imports": imports,
                     "answers": Answers(offload),
                     "club_answers": ClubAnswers(offload)}),
        lifespan=[lifespan],
        exception_handlers={HTTPException: http_exception_handler,
                            RecursionError: too_deep_handler,
                            Exception: unexpected_exception_handler},
        before_send=[add_headers, name_the_language],
        plugins=[GamePartSchemas()],
        request_class=StrictRequest,
        middleware=middleware(settings),
        request_max_body_size=settings.max_body_bytes,
        compression_config=compression_config(),
        cors_config=CORSConfig(allow_origins=list(settings.cors_origins))
        if settings.cors_origins else None,
        openapi_config=OpenAPIConfig(
            title="Tafelrunde", version="1.0.0", path="/schema",
            render_plugins=list(openapi.RENDER_PLUGINS),
            description="Score-keeping for card games at a real table.",
            license=License(name="MIT", identifier="MIT"),
            components=Components(security_schemes={"bearer": SecurityScheme(
                type="http", scheme="bearer",
                description="The match's write token (or view token to read a private match)",
            )}),
        ),
    )
    app.asgi_handler = Boundary(app.asgi_handler, allowed_methods(app))
    return app
