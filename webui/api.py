"""JSON API for the camera pipeline (and scripts): post events, snapshots, read state.

Reads are open; writes need ``X-Table-Pin: <pin>`` or ``Authorization: Bearer <api token>``.

    POST /api/matches                     {"players": ["Ann", "Ben"], "preset": "rulebook"}
    POST /api/matches/<id>/events         {"kind": "discard", "payload": {"player": "Ann", "card": "KS"}}
    POST /api/matches/<id>/hands          {"knocker": "Ann", "hands": {"Ann": "...", "Ben": "..."}}
    POST /api/snapshots                   (body: JPEG bytes)  -> {"sha256": ...}
    POST /api/snapshots/<sha256>/overlay  {"size": [w, h], "cards": [...], "zones": [...]} (what was read on it)
    GET  /api/matches/<id>                the derived state
    POST /api/tournaments                 {"players": [...], "system": "round_robin" | "swiss", "seed": "..."}
    POST /api/tournaments/<id>/results    {"round": 1, "first": "Ann", "second": "Ben", "winner": "Ann", "amount": 202}
    GET  /api/tournaments/<id>            standings and pairings

Games (``"game"`` of a new match): gin (``"options": {"hollywood": true}`` for Hollywood), three,
chouette, partnership, wiener, tiles. A hand of any game can be posted as cards to
``/hands``: ``knocker`` (one table), ``knockers`` (one per partnership table, in the order of
``tables``), ``winner`` (tile Rummy: the player out, or "" when the pool ran out). A Wiener
Rummy re-buy is the event ``{"kind": "rebuy", "payload": {"player": "Ann"}}``; its undo is
``{"kind": "rebuy_voided", "payload": {"rebuy": <the re-buy's event id>, "reason": "..."}}``.
"""

from __future__ import annotations

from typing import Callable

from flask import Blueprint, abort, jsonify, request

from webui import events
from webui.db import get_store, notifier
from webui.security import require_pin_for_api
from webui.evidence import OverlayError, make_overlay
from webui.state import EVENT_KINDS, UnknownMatch, UnknownTournament, replay, replay_tournament
from webui.store import Event, StoreError

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.before_request
def protect_writes() -> None:
    if request.method == "POST":
        require_pin_for_api()


def _json_body() -> dict:
    if not request.is_json:
        abort(415, description="send JSON with Content-Type: application/json")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, description="the body must be a JSON object")
    return body


def _invalid(exc: Exception):
    field = getattr(exc, "field", None)
    return jsonify({"error": "invalid input", "field": field, "message": str(exc)}), 400


def _actor() -> str:
    return f"api @ {request.remote_addr}"


def _created(event):
    notifier().notify()
    return jsonify(event.to_dict()), 201


def _write(make_event: Callable[[], Event]):
    """Append what ``make_event`` validates: 201 with the event, or 400 naming the bad field."""
    try:
        return _created(make_event())
    except events.InvalidInput as exc:
        return _invalid(exc)


def _loaded(replayer, unknown: type[LookupError], record_id: str, what: str):
    try:
        return replayer(get_store().events(record_id))
    except unknown:
        abort(404, description=f"there is no {what} {record_id!r} on this table")


@bp.post("/matches")
def create_match():
    return _write(lambda: events.create_match(get_store(), _json_body(), _actor()))


def _existing(match_id: str):
    return _loaded(replay, UnknownMatch, match_id, "match")


@bp.post("/matches/<match_id>/events")
def post_event(match_id: str):
    _existing(match_id)
    body = _json_body()
    kind = body.get("kind")
    if kind == "match_created" or kind not in EVENT_KINDS:
        return _invalid(events.InvalidInput("kind", f"unknown event kind {kind!r}: one of {', '.join(EVENT_KINDS[1:])}"))
    return _write(lambda: events.record(get_store(), match_id, kind, body.get("payload"), _actor()))


@bp.post("/matches/<match_id>/hands")
def post_hand(match_id: str):
    """A finished hand as cards: the engine settles it (same path as manual scoring)."""
    _existing(match_id)
    return _write(lambda: events.score_hand(get_store(), match_id, _json_body(), _actor()))


@bp.post("/snapshots")
def post_snapshot():
    try:
        digest = get_store().put_snapshot(request.get_data())
    except StoreError as exc:
        return jsonify({"error": "invalid snapshot", "message": str(exc)}), 400
    return jsonify({"sha256": digest}), 201


@bp.post("/snapshots/<digest>/overlay")
def post_snapshot_overlay(digest: str):
    """What was read on a stored snapshot (see :mod:`webui.evidence`); a snapshot keeps its first overlay."""
    store = get_store()
    if len(digest) != 64 or not store.has_snapshot(digest):
        abort(404, description=f"no snapshot {digest[:64]!r}: post the JPEG to /api/snapshots first")
    body = _json_body()
    size = body.get("size")
    try:
        if not (isinstance(size, list) and len(size) == 2):
            raise OverlayError(f"size: must be [width, height] of the photo, got {size!r}"[:200])
        cards, zones = body.get("cards", []), body.get("zones", [])
        if not isinstance(cards, list) or not isinstance(zones, list):
            raise OverlayError("cards and zones must be lists")
        overlay = make_overlay(size[0], size[1], cards, zones)
    except OverlayError as exc:
        return jsonify({"error": "invalid overlay", "message": str(exc)}), 400
    if not store.add_snapshot_overlay(digest, overlay):
        return jsonify({"error": "overlay exists", "message": "this snapshot already has its overlay"}), 409
    return jsonify(overlay), 201


@bp.get("/matches/<match_id>")
def match_state(match_id: str):
    state = _existing(match_id)
    standing = events.standing(state)
    return jsonify({
        "match": state.match_id, "game": state.game, "players": state.players, "preset": state.preset,
        "options": state.options, "last_event": state.last_event_id,
        "totals": standing.totals, "boxes": standing.boxes, "finished": standing.finished,
        "next_dealer": standing.next_dealer, "winner": standing.winner,
        "sheets": [{"title": s.title, "target": s.target, "closed": s.closed, "lower_wins": s.lower_wins,
                    "totals": {c.name: c.total for c in s.columns}, "tags": {c.name: list(c.tags) for c in s.columns},
                    "out": [c.name for c in s.columns if c.out]} for s in standing.sheets],
        "tables": [{"players": list(t.players), "dealer": t.dealer} for t in standing.tables],
        "facts": dict(standing.facts), "money": standing.money,
        "rebuy_allowed": [p for p, why in standing.rebuy.items() if why is None],
        "turn_since": state.turn_since, "rebuys": [r.player for r in state.counted_rebuys],
        "rebuys_undone": [{"rebuy": r.event_id, "player": r.player} for r in state.rebuys if not r.counted],
        "hands": [{"hand": h.hand_id, "number": h.number, "status": h.status, "result": h.result} for h in state.hands],
        "discards": state.discards, "stock_count": state.stock_count, "turn": state.turn,
        "pending_readings": [{"reading": r.reading_id, "prompt": r.prompt, "choices": r.choices, "picker": r.picker}
                             for r in state.pending_readings],
    })


@bp.post("/tournaments")
def create_tournament():
    return _write(lambda: events.create_tournament(get_store(), _json_body(), _actor()))


def _tournament(tournament_id: str):
    return _loaded(replay_tournament, UnknownTournament, tournament_id, "tournament")


@bp.post("/tournaments/<tournament_id>/results")
def post_tournament_result(tournament_id: str):
    _tournament(tournament_id)
    return _write(lambda: events.record_tournament_result(get_store(), tournament_id, _json_body(), _actor()))


@bp.get("/tournaments/<tournament_id>")
def tournament_state(tournament_id: str):
    state = _tournament(tournament_id)
    view = events.tournament_view(state)
    return jsonify({
        "tournament": state.tournament_id, "players": state.players, "system": state.system, "seed": state.seed,
        "rounds_total": view.rounds_total, "current_round": view.current, "finished": view.finished,
        "standings": [{"rank": s.rank, "player": s.player, "points": s.points, "matches": s.matches}
                      for s in view.standings],
        "rounds": [{"round": r.number, "complete": r.complete,
                    "pairings": [{"first": p.first, "second": p.second,
                                  "winner": p.result[0] if p.result else None,
                                  "amount": p.result[1] if p.result else None} for p in r.pairings]}
                   for r in view.rounds],
    })
