"""Flask glue for the record: one :class:`~webui.store.EventStore` connection per request.

Every write goes through :func:`record_event` so that live pages hear of it at once.
"""

from __future__ import annotations

from flask import current_app, g

from webui.live import Notifier
from webui.store import EventStore


def open_store() -> EventStore:
    return EventStore(current_app.config["DATABASE"], current_app.config["SNAPSHOT_DIR"])


def get_store() -> EventStore:
    """The request's connection, opened on first use and closed at teardown."""
    if "store" not in g:
        g.store = open_store()
    return g.store


def close_store(exc: BaseException | None = None) -> None:
    store = g.pop("store", None)
    if store is not None:
        store.close()


def notifier() -> Notifier:
    return current_app.extensions["rummyref.notifier"]


def init_app(app) -> None:
    app.teardown_appcontext(close_store)
