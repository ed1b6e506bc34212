"""The local web dashboard (Flask): scoreboard, hand view, results, history, manual scoring.

>>> import tempfile
>>> app = create_app({"DATABASE": tempfile.mkdtemp() + "/record.sqlite3", "PIN": "123456"})
>>> app.test_client().get("/").status_code
200
"""

from __future__ import annotations

import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from webui import db, rulebook
from webui.deck_learning import DeckJobs
from webui.live import Notifier
from webui.security import PinLimiter, PinRequired, TooManyAttempts, csrf_token, new_pin, unlocked
from webui.store import EventStore

log = logging.getLogger(__name__)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. Config keys (all optional):

    ``DATABASE`` (path of the SQLite record, default ``./data/record.sqlite3``),
    ``SNAPSHOT_DIR``, ``PIN`` and ``API_TOKEN`` (default: generated once per table
    and kept in the record), ``PUBLIC_URL`` (the address phones use, for the QR code),
    ``PIN_FREE_FAILURES``, ``PIN_BASE_DELAY``, ``PIN_CLOCK`` (rate limit), ``SSE_LIFETIME``,
    ``RULES_DIR`` (the rulebook texts quoted on result pages), ``CAMERA`` (a
    :class:`webui.camera.TableCamera` for the camera page; None: no camera), ``DECK_DIR`` (where
    learned decks are kept, default ``$RUMMYREF_DATA``), ``MODEL_DIR`` (the recognizer's models).
    """
    app = Flask(__name__)
    app.config.update(
        DATABASE=os.path.join("data", "record.sqlite3"),
        SNAPSHOT_DIR=None,
        PUBLIC_URL=None,
        PIN_FREE_FAILURES=3,
        PIN_BASE_DELAY=1.0,
        PIN_CLOCK=None,
        SSE_LIFETIME=300.0,
        RULES_DIR=rulebook.default_rules_dir(),
        CAMERA=None,
        DECK_DIR=None,
        MODEL_DIR=None,
        MAX_CONTENT_LENGTH=64 * 1024 * 1024,  # a few phone photos of a deck layout
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
    )
    app.config.update(config or {})
    database = Path(app.config["DATABASE"])
    app.config["SNAPSHOT_DIR"] = app.config["SNAPSHOT_DIR"] or str(database.parent / "snapshots")

    # the table's secrets live in the record, so a restart keeps PIN, QR link and sessions
    store = EventStore(database, app.config["SNAPSHOT_DIR"])
    try:
        app.config.setdefault("PIN", store.setting("pin", new_pin))
        app.config.setdefault("API_TOKEN", store.setting("api_token", lambda: secrets.token_urlsafe(24)))
        app.secret_key = app.config.get("SECRET_KEY") or store.setting("session_key", lambda: secrets.token_hex(32))
    finally:
        store.close()

    limiter_args = {"free_failures": app.config["PIN_FREE_FAILURES"], "base_delay": app.config["PIN_BASE_DELAY"]}
    if app.config["PIN_CLOCK"]:
        limiter_args["clock"] = app.config["PIN_CLOCK"]
    app.extensions["rummyref.limiter"] = PinLimiter(**limiter_args)
    app.extensions["rummyref.notifier"] = Notifier()
    app.extensions["rummyref.deck_jobs"] = DeckJobs()

    db.init_app(app)
    from webui import api, camera_views, deck_views, tournament_views, views

    app.register_blueprint(views.bp)
    app.register_blueprint(tournament_views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(camera_views.bp)
    app.register_blueprint(deck_views.bp)
    app.jinja_env.globals.update(csrf_token=csrf_token, unlocked=unlocked, evidence_drawing=views.evidence_drawing)
    from webui import cards_view

    app.jinja_env.filters["card"] = cards_view.card_face
    app.jinja_env.tests["card"] = cards_view.is_card
    app.jinja_env.tests["tile"] = cards_view.is_tile
    app.jinja_env.filters["answer_words"] = cards_view.answer_words
    app.jinja_env.globals["tile_rows"] = cards_view.tile_rows
    app.jinja_env.globals["card_rows"] = cards_view.picker_rows
    _register_error_handlers(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith(".json")


def _register_error_handlers(app: Flask) -> None:
    """Every error becomes a friendly page (or JSON for the API); never a stack trace."""

    def respond(status: int, title: str, message: str, headers: dict | None = None):
        if _wants_json():
            response = jsonify({"error": title, "message": message})
            response.status_code = status
        else:
            response = app.make_response((render_template("error.html", status=status, title=title, message=message), status))
        response.headers.update(headers or {})
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return respond(exc.code or 500, exc.name, exc.description or exc.name)

    @app.errorhandler(PinRequired)
    def pin_required(exc: PinRequired):
        return respond(403, "Wrong PIN" if exc.wrong else "PIN needed", str(exc))

    @app.errorhandler(TooManyAttempts)
    def too_many(exc: TooManyAttempts):
        return respond(429, "Too many wrong PINs", str(exc), {"Retry-After": str(int(exc.retry_after + 0.999))})

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, "Something went wrong", "The referee hit an internal error; the record is safe. Try again.")


from webui.serving import make_server, serve  # noqa: E402  (re-exported for the main job)
