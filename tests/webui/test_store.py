"""The record: append-only events, migrations, snapshots, durability across kill -9."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from PIL import Image

from webui.store import LATEST_VERSION, MIGRATIONS, EventStore, StoreError, _statements


def jpeg_bytes(colour=(30, 120, 60)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), colour).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
def store(tmp_path):
    store = EventStore(tmp_path / "record.sqlite3")
    yield store
    store.close()


def test_events_come_back_in_order_with_their_payload(store):
    first = store.append("m1", "match_created", {"players": ["Ann", "Ben"]}, actor="host")
    store.append("m2", "match_created", {"players": ["Cy", "Di"]}, actor="host")
    second = store.append("m1", "discard", {"player": "Ann", "card": "KS"}, actor="camera")
    assert [(e.id, e.kind, e.actor) for e in store.events("m1")] == [(first.id, "match_created", "host"), (second.id, "discard", "camera")]
    assert store.events("m1")[1].payload == {"player": "Ann", "card": "KS"}
    assert [e.id for e in store.events("m1", after=first.id)] == [second.id]
    assert store.last_event_id("m1") == second.id and store.last_event_id() == second.id
    assert store.match_ids() == ["m2", "m1"]


def test_the_log_refuses_updates_and_deletes(store):
    store.append("m1", "match_created", {"players": ["Ann", "Ben"]}, actor="host")
    for statement in ("UPDATE events SET kind = 'x'", "DELETE FROM events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            store._conn.execute(statement)
    assert len(store.events("m1")) == 1


def test_durability_settings_are_wal_and_synchronous_full(store):
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_old_schema_is_migrated_and_keeps_its_events(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for statement in _statements(MIGRATIONS[0]):
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO events (match_id, kind, payload, actor, created_at) VALUES ('m', 'match_created', '{\"players\": []}', 'v1', 't')")
    old.commit()
    old.close()
    store = EventStore(path)
    assert store.schema_version() == LATEST_VERSION
    assert [e.actor for e in store.events("m")] == ["v1"]
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._conn.execute("DELETE FROM events")
    assert store.setting("pin", lambda: "111111") == "111111"
    store.close()


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    conn.close()
    with pytest.raises(StoreError, match=f"schema version {LATEST_VERSION + 5}, newer than this rummyref"):
        EventStore(path)


def test_settings_are_created_once_and_kept(tmp_path):
    store = EventStore(tmp_path / "r.sqlite3")
    assert store.setting("pin", lambda: "123456") == "123456"
    assert store.setting("pin", lambda: "999999") == "123456"
    store.close()
    again = EventStore(tmp_path / "r.sqlite3")
    assert again.setting("pin", lambda: "000000") == "123456"
    again.close()


def test_snapshots_are_stored_by_sha256_once(store):
    data = jpeg_bytes()
    digest = store.put_snapshot(data)
    assert store.put_snapshot(data) == digest
    assert store.has_snapshot(digest)
    assert store.snapshot_path(digest).read_bytes() == data
    assert store.snapshot_path(digest).parent.name == digest[:2]
    assert not store.has_snapshot(store.put_snapshot(jpeg_bytes((200, 0, 0)))[::-1])


def test_a_snapshot_must_be_a_jpeg_and_a_digest_must_be_hex(store):
    with pytest.raises(StoreError, match="must be a JPEG"):
        store.put_snapshot(b"\x89PNG....")
    with pytest.raises(StoreError, match="not a sha256"):
        store.snapshot_path("../../etc/passwd")


WRITER = textwrap.dedent("""
    import sys
    from webui.store import EventStore
    store = EventStore(sys.argv[1])
    n = 0
    while True:
        n += 1
        event = store.append("m", "discard", {"player": "Ann", "card": "KS", "n": n}, actor="writer")
        print(event.id, n, flush=True)  # shown only after append returned
""")


def test_every_event_written_before_a_kill_9_is_there_after_reopening(tmp_path):
    path = tmp_path / "record.sqlite3"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True,
                              cwd=os.getcwd(), env={**os.environ, "PYTHONPATH": os.getcwd()})
    shown: dict[int, int] = {}
    try:
        for line in writer.stdout:
            event_id, n = map(int, line.split())
            shown[event_id] = n
            if len(shown) >= 150:
                break
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=10)
    assert writer.returncode == -signal.SIGKILL
    assert len(shown) >= 150
    store = EventStore(path)
    kept = {e.id: e.payload["n"] for e in store.events("m")}
    store.close()
    assert all(kept.get(event_id) == n for event_id, n in shown.items()), "an event that was shown was lost"
    assert sorted(kept) == list(range(1, len(kept) + 1)), "the log has holes or duplicates"
