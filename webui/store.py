"""The game record: an append-only event log in SQLite, plus evidence snapshots on disk.

Every state the dashboard shows is derived from the events (see :mod:`webui.state`).
Events are never updated or deleted (the schema refuses it with triggers); a
correction is a new event that points at the one it corrects.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = EventStore(folder / "record.sqlite3")
>>> event = store.append("m1", "match_created", {"players": ["Ann", "Ben"]}, actor="test")
>>> [e.kind for e in store.events("m1")]
['match_created']
>>> store.schema_version() == LATEST_VERSION
True
>>> store.close()

Durability: the database runs in WAL mode with ``synchronous=FULL``, so an event
whose :meth:`EventStore.append` returned survives a killed process and a power cut.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator


class StoreError(RuntimeError):
    """The record cannot be opened or written as asked."""


# Each migration moves the schema from version N-1 to N; never edit a published one,
# append a new one instead.
MIGRATIONS: tuple[str, ...] = (
    # 1: the event log
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        actor TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX events_by_match ON events (match_id, id);
    """,
    # 2: the log is append-only, enforced by the database itself
    """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be changed'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be deleted'); END;
    """,
    # 3: per-table settings (PIN, API token, session key) and the snapshot index
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE snapshots (
        sha256 TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    # 4: what was read on a snapshot (card outlines, zones), drawn over the photo by the browser
    """
    ALTER TABLE snapshots ADD COLUMN overlay TEXT;
    """,
)
LATEST_VERSION = len(MIGRATIONS)

JPEG_MAGIC = b"\xff\xd8\xff"


@dataclass(frozen=True)
class Event:
    """One entry of the log."""

    id: int
    match_id: str
    kind: str
    payload: dict[str, Any]
    actor: str
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "match_id": self.match_id,
            "kind": self.kind,
            "payload": self.payload,
            "actor": self.actor,
            "created_at": self.created_at,
        }


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class EventStore:
    """One connection to the record; use one per thread (Flask: one per request).

    ``snapshot_dir`` defaults to a ``snapshots`` folder beside the database.
    """

    def __init__(self, path: str | os.PathLike, snapshot_dir: str | os.PathLike | None = None) -> None:
        self.path = Path(path)
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir else self.path.parent / "snapshots"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the record {self.path}: {exc}") from exc
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self.migrate()

    # -- schema -------------------------------------------------------------------------
    def schema_version(self) -> int:
        return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def migrate(self) -> None:
        """Bring the schema to :data:`LATEST_VERSION`, one migration per transaction."""
        version = self.schema_version()
        if version > LATEST_VERSION:
            raise StoreError(
                f"the record {self.path} has schema version {version}, newer than this "
                f"rummyref understands ({LATEST_VERSION}); upgrade rummyref"
            )
        for number in range(version + 1, LATEST_VERSION + 1):
            with self._transaction():
                for statement in _statements(MIGRATIONS[number - 1]):
                    self._conn.execute(statement)
                self._conn.execute(f"PRAGMA user_version = {number}")

    def _transaction(self):
        return _Transaction(self._conn)

    # -- events -------------------------------------------------------------------------
    def append(self, match_id: str, kind: str, payload: dict[str, Any], actor: str) -> Event:
        """Write one event durably and return it (with its id)."""
        created_at = _now()
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        with self._transaction():
            cursor = self._conn.execute(
                "INSERT INTO events (match_id, kind, payload, actor, created_at) VALUES (?, ?, ?, ?, ?)",
                (match_id, kind, text, actor, created_at),
            )
        return Event(cursor.lastrowid, match_id, kind, json.loads(text), actor, created_at)

    def events(self, match_id: str, after: int = 0) -> list[Event]:
        """The events of one match in order, optionally only those after id ``after``."""
        rows = self._conn.execute(
            "SELECT id, match_id, kind, payload, actor, created_at FROM events"
            " WHERE match_id = ? AND id > ? ORDER BY id",
            (match_id, after),
        )
        return [_event(row) for row in rows]

    def all_events(self) -> Iterator[Event]:
        for row in self._conn.execute("SELECT id, match_id, kind, payload, actor, created_at FROM events ORDER BY id"):
            yield _event(row)

    def last_event_id(self, match_id: str | None = None) -> int:
        if match_id is None:
            row = self._conn.execute("SELECT max(id) FROM events").fetchone()
        else:
            row = self._conn.execute("SELECT max(id) FROM events WHERE match_id = ?", (match_id,)).fetchone()
        return row[0] or 0

    def match_ids(self, created: str = "match_created") -> list[str]:
        """Every match (or tournament: ``created="tournament_created"``) of the record, newest first."""
        rows = self._conn.execute("SELECT match_id FROM events WHERE kind = ? ORDER BY id DESC", (created,))
        return [row[0] for row in rows]

    # -- settings -----------------------------------------------------------------------
    def setting(self, key: str, default_factory) -> str:
        """The stored value of ``key``; on first use, store ``default_factory()`` and return it."""
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row:
            return row[0]
        with self._transaction():
            self._conn.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, default_factory()))
        return self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()[0]

    # -- snapshots ----------------------------------------------------------------------
    def put_snapshot(self, jpeg: bytes, overlay: dict[str, Any] | None = None) -> str:
        """Store an evidence JPEG under its sha256 (idempotent) and return the hash.

        ``overlay`` is what was read on the photo (see :mod:`webui.evidence`); the photo itself
        stays as the camera took it. The first overlay given for a photo is the one kept.
        """
        if not jpeg.startswith(JPEG_MAGIC):
            raise StoreError("a snapshot must be a JPEG image (it does not start with the JPEG marker FF D8 FF)")
        digest = hashlib.sha256(jpeg).hexdigest()
        target = self.snapshot_path(digest)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_durably(target, jpeg)
        with self._transaction():
            self._conn.execute(
                "INSERT OR IGNORE INTO snapshots (sha256, size, created_at) VALUES (?, ?, ?)",
                (digest, len(jpeg), _now()),
            )
        if overlay is not None:
            self.add_snapshot_overlay(digest, overlay)
        return digest

    def add_snapshot_overlay(self, digest: str, overlay: dict[str, Any]) -> bool:
        """Keep ``overlay`` for the stored snapshot ``digest`` unless it has one; True if kept."""
        with self._transaction():
            cursor = self._conn.execute("UPDATE snapshots SET overlay = ? WHERE sha256 = ? AND overlay IS NULL",
                                        (json.dumps(overlay, separators=(",", ":")), digest))
        return cursor.rowcount == 1

    def snapshot_overlay(self, digest: str) -> dict[str, Any] | None:
        """What was read on the snapshot ``digest``, or None (no overlay, or no such snapshot)."""
        row = self._conn.execute("SELECT overlay FROM snapshots WHERE sha256 = ?", (digest,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def snapshot_path(self, digest: str) -> Path:
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise StoreError(f"not a sha256 hex digest: {digest!r}")
        return self.snapshot_dir / digest[:2] / f"{digest}.jpg"

    def has_snapshot(self, digest: str) -> bool:
        row = self._conn.execute("SELECT 1 FROM snapshots WHERE sha256 = ?", (digest,)).fetchone()
        return row is not None and self.snapshot_path(digest).exists()

    def close(self) -> None:
        self._conn.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT`` (or ``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (``BEGIN .. END;``) whole."""
    statements, current = [], ""
    for line in script.strip().splitlines():
        current += line + "\n"
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    return statements


def _event(row: tuple) -> Event:
    return Event(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5])


def _write_durably(target: Path, data: bytes) -> None:
    """Write to a temporary file, fsync, rename into place and fsync the folder."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
