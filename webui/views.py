"""The pages phones open: scoreboard, hand in progress, results, history, setup, manual scoring."""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import datetime
from typing import Any

import segno
from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_file, session, stream_with_context, url_for)
from markupsafe import Markup

from webui import engine_adapter, events, evidence, live, rulebook
from webui.db import get_store, notifier, open_store
from webui.security import (actor, check_csrf, check_pin, is_local_request, require_pin_for_form, unlock_session,
                            unlocked)
from webui.state import MatchState, UnknownMatch, replay, replay_tournament

bp = Blueprint("views", __name__)
LIVE_PARTS = ("scoreboard", "hand")


@bp.before_request
def protect_forms() -> None:
    if request.method == "POST":
        check_csrf()


def load_match(match_id: str) -> MatchState:
    try:
        return replay(get_store().events(match_id))
    except UnknownMatch:
        abort(404, description=f"there is no match {match_id!r} on this table")


def _announce() -> None:
    """Wake the live streams: the record has a new event."""
    notifier().notify()


def _page(template: str, state: MatchState | None = None, status: int = 200, **context: Any):
    if state is not None:
        game = engine_adapter.form(state.game)
        context.update(state=state, standing=events.standing(state), game=game,
                       summary=game.summary(events.setup_of(state)))
    return render_template(template, **context), status


def join_url() -> str:
    base = current_app.config["PUBLIC_URL"] or request.host_url
    return base.rstrip("/") + url_for("views.join", pin=current_app.config["PIN"])


# -- joining ---------------------------------------------------------------------------
@bp.get("/")
def index():
    store = get_store()
    matches = [replay(store.events(mid)) for mid in store.match_ids()]
    tournaments = [replay_tournament(store.events(tid)) for tid in store.match_ids("tournament_created")]
    return _page("index.html", matches=matches, tournaments=tournaments, forms=engine_adapter.FORMS)


@bp.get("/join")
def join():
    """The QR code's link: the PIN in the URL unlocks this phone."""
    if check_pin(request.args.get("pin"), current_app.config["PIN"]):
        unlock_session()
        return redirect(url_for("views.index"))
    return _page("unlock.html", status=403, error="That link's PIN is not this table's. Ask the host for the PIN.")


@bp.route("/unlock", methods=["GET", "POST"])
def unlock():
    if request.method == "GET":
        return _page("unlock.html", next=request.args.get("next", ""))
    who = request.form.get("who", "").strip()[:24]
    if who:
        session["who"] = who
    require_pin_for_form()
    target = request.form.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//") else url_for("views.index"))


@bp.get("/host")
def host():
    """The host's page: PIN and QR code, for the host's own screen or an unlocked phone."""
    if not (is_local_request() or unlocked()):
        return redirect(url_for("views.unlock", next=url_for("views.host")))
    svg = segno.make(join_url(), error="m").svg_inline(omitsize=True, dark="#102a1f", light="#ffffff")
    return _page("host.html", pin=current_app.config["PIN"], url=join_url(), qr=Markup(svg))


# -- setup -----------------------------------------------------------------------------
GAME_CHOICES = {"gin": "Gin Rummy · two players", "hollywood": "Gin Rummy · Hollywood (three games at once)",
                "three": "Gin Rummy · three players", "chouette": "Chouette · one against two",
                "partnership": "Gin Rummy · partnerships of 4 or 6", "wiener": "Wiener Rummy · 2 to 6 players",
                "tiles": "Tile Rummy · 2 to 4 players"}
MAX_SEATS = 6


def _form_int(name: str, low: int, high: int) -> int | None:
    """A whole number typed into the form, or None when left blank."""
    text = request.form.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise events.InvalidInput(name, f"must be a whole number {low}..{high}, got {text!r}")
    return int(text)


def _setup_payload() -> dict[str, Any]:
    """The new-match form as a ``match_created`` payload (checked by :func:`events.create_match`)."""
    form = request.form
    choice = form.get("game", "gin")
    if choice not in GAME_CHOICES:
        raise events.InvalidInput("game", f"unknown game {choice!r}")
    players = [form.get(f"player{i}", "").strip() for i in range(1, MAX_SEATS + 1)]
    players = [p for p in players if p]
    payload: dict[str, Any] = {"game": "gin" if choice == "hollywood" else choice, "players": players, "options": {}}
    options = payload["options"]
    seat = form.get("first_dealer", "")
    if seat.isdigit() and 1 <= int(seat) <= len(players):
        payload["first_dealer"] = events.check_name(players[int(seat) - 1])
    if choice in ("gin", "hollywood", "three", "chouette", "partnership"):
        payload["preset"] = form.get("preset", "rulebook")
        target = _form_int("match_target", 0, 10000)
        if target is not None:
            key = {4: "four_player_target", 6: "six_player_target"}.get(len(players)) if choice == "partnership" else "match_target"
            options[key or "match_target"] = target
        if choice == "hollywood":
            options["hollywood"] = True
    elif choice == "wiener":
        options.update(knock_limit=_form_int("knock_limit", 0, 30) or 5, undercut=bool(form.get("undercut")),
                       layoffs=form.get("layoffs", "none"), rummy_kitty=bool(form.get("rummy_kitty")))
    else:
        options.update({name: value for name in ("rounds", "jokers", "turn_seconds")
                        if (value := _form_int(name, 1, 600)) is not None})
        if form.get("set"):
            options["set"] = form["set"]
    return payload


@bp.route("/setup", methods=["GET", "POST"])
def setup():
    sizes = {choice: engine_adapter.form("gin" if choice == "hollywood" else choice).sizes for choice in GAME_CHOICES}
    seat_games = {seat: " ".join(c for c in GAME_CHOICES if seat <= max(sizes[c])) for seat in range(1, MAX_SEATS + 1)}
    context = {"presets": engine_adapter.rule_presets(), "games": GAME_CHOICES, "seats": MAX_SEATS, "seat_games": seat_games}
    if request.method == "GET":
        return _page("setup.html", form={"game": request.args.get("game", "gin")}, **context)
    require_pin_for_form()
    try:
        event = events.create_match(get_store(), _setup_payload(), actor())
    except events.InvalidInput as exc:
        return _page("setup.html", form=request.form, error=str(exc), status=400, **context)
    _announce()
    return redirect(url_for("views.scoreboard", match_id=event.match_id))


# -- watching --------------------------------------------------------------------------
@bp.get("/m/<match_id>")
def scoreboard(match_id: str):
    return _page("scoreboard.html", load_match(match_id), part="scoreboard")


@bp.get("/m/<match_id>/hand")
def hand_in_progress(match_id: str):
    state = load_match(match_id)
    return _page("hand.html", state, part="hand", **_timer(state))


def _epoch_ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp() * 1000)


def _timer(state: MatchState) -> dict[str, Any]:
    """Tile Rummy's turn timer, as server times: every phone counts down from the same event; and its
    tile set (the tile picker's colours)."""
    game = engine_adapter.form(state.game)
    if not game.timed:
        return {}
    timer = dict(game.timer(events.setup_of(state)))
    timer.update(now=int(time.time() * 1000), started=_epoch_ms(state.turn_since) if state.turn_since else None)
    return {"timer": timer, "tile_set": events.tile_set(state)}


@bp.get("/m/<match_id>/part/<name>")
def live_part(match_id: str, name: str):
    """The live region of a page, re-fetched by the browser on each update."""
    if name not in LIVE_PARTS:
        abort(404, description=f"no live part {name!r}")
    state = load_match(match_id)
    return _page(f"part_{name}.html", state, **(_timer(state) if name == "hand" else {}))


def event_stream(record_id: str) -> Response:
    """Server-sent events for a match or tournament: an ``update`` whenever its record grows."""
    since = request.headers.get("Last-Event-ID") or request.args.get("since") or "0"
    since_id = int(since) if since.isdigit() else 0
    lifetime = current_app.config["SSE_LIFETIME"]
    store = open_store()  # the stream outlives the request's own connection

    def generate():
        try:
            yield from live.stream(lambda: store.last_event_id(record_id), notifier(), since_id, lifetime)
        finally:
            store.close()

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/m/<match_id>/live")
def live_stream(match_id: str):
    load_match(match_id)
    return event_stream(match_id)


@bp.get("/m/<match_id>/hands/<int:hand_id>")
def hand_result(match_id: str, hand_id: int):
    state = load_match(match_id)
    try:
        hand = state.hand(hand_id)
    except LookupError:
        abort(404, description=f"match {match_id} has no hand {hand_id}")
    results = hand.result.get("tables") or [hand.result]
    laid = {code for result in results for shown in result.get("players", {}).values()
            for code in shown.get("laid_off", [])}
    quote = rulebook.paragraph(hand.result.get("rule", ""), current_app.config["RULES_DIR"])
    return _page("result.html", state, hand=hand, laid=laid, quote=quote)


@bp.get("/m/<match_id>/history")
def history(match_id: str):
    return _page("history.html", load_match(match_id))


def evidence_drawing(digest: str) -> evidence.Drawing | None:
    """The marks to draw over snapshot ``digest`` (a template global), None when nothing was stored."""
    overlay = get_store().snapshot_overlay(digest)
    return evidence.draw(overlay) if overlay else None


@bp.get("/snapshots/<digest>.json")
def snapshot_overlay(digest: str):
    """What was read on a snapshot, as stored: image size, card readings, zones (image pixels)."""
    store = get_store()
    overlay = store.snapshot_overlay(digest) if len(digest) == 64 and store.has_snapshot(digest) else None
    if overlay is None:
        abort(404, description="no overlay for this snapshot")
    return overlay


@bp.get("/snapshots/<digest>.jpg")
def snapshot(digest: str):
    store = get_store()
    if len(digest) != 64 or not store.has_snapshot(digest):
        abort(404, description="no such snapshot")
    response = send_file(store.snapshot_path(digest), mimetype="image/jpeg", max_age=31536000)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


# -- changing --------------------------------------------------------------------------
def _change(match_id: str, kind: str, payload: dict, back: str):
    require_pin_for_form()
    state = load_match(match_id)
    try:
        events.record(get_store(), match_id, kind, payload, actor())
        _announce()
    except events.InvalidInput as exc:
        return _page("error.html", state, status=400, title="Not recorded", message=str(exc))
    return redirect(back)


@bp.post("/m/<match_id>/readings/<reading_id>")
def confirm_reading(match_id: str, reading_id: str):
    return _change(match_id, "reading_confirmed", {"reading": reading_id, "choice": request.form.get("choice")},
                   url_for("views.hand_in_progress", match_id=match_id))


@bp.post("/m/<match_id>/turn")
def start_turn(match_id: str):
    """A player's turn begins now (tile Rummy's timer starts for everyone)."""
    return _change(match_id, "table", {"turn": request.form.get("player")},
                   url_for("views.hand_in_progress", match_id=match_id))


@bp.post("/m/<match_id>/rebuy")
def rebuy(match_id: str):
    """Wiener Rummy: a player between 81 and 100 buys back in (001)."""
    return _change(match_id, "rebuy", {"player": request.form.get("player")},
                   url_for("views.scoreboard", match_id=match_id))


@bp.post("/m/<match_id>/rebuys/<int:rebuy_id>/undo")
def undo_rebuy(match_id: str, rebuy_id: int):
    """Wiener Rummy: a re-buy entered by mistake is undone (a new event; the re-buy stays on record)."""
    return _change(match_id, "rebuy_voided", {"rebuy": rebuy_id, "reason": request.form.get("reason") or "undone"},
                   url_for("views.history", match_id=match_id) + f"#rebuy-{rebuy_id}")


@bp.post("/m/<match_id>/hands/<int:hand_id>/undo")
def undo_hand(match_id: str, hand_id: int):
    return _change(match_id, "hand_voided", {"hand": hand_id, "reason": request.form.get("reason") or "undone"},
                   url_for("views.history", match_id=match_id))


@bp.post("/m/<match_id>/hands/<int:hand_id>/restore")
def restore_hand(match_id: str, hand_id: int):
    return _change(match_id, "hand_restored", {"hand": hand_id, "reason": request.form.get("reason") or "restored"},
                   url_for("views.history", match_id=match_id))


@bp.route("/m/<match_id>/score", methods=["GET", "POST"])
def manual_score(match_id: str):
    """Manual scoring: tap each player's cards; the engine settles the hand."""
    return _scoring_form(load_match(match_id), None)


@bp.route("/m/<match_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
def edit_hand(match_id: str, hand_id: int):
    state = load_match(match_id)
    try:
        state.hand(hand_id)
    except LookupError:
        abort(404, description=f"match {match_id} has no hand {hand_id}")
    return _scoring_form(state, hand_id)


def _prefill(state: MatchState, editing) -> dict[str, str]:
    """The form fields of a hand being corrected (empty for a new hand)."""
    given = editing.input if editing else {}
    hands = given.get("hands", {})
    form = {f"hand{i}": " ".join(hands.get(p, [])) for i, p in enumerate(state.players)}
    form.update(knocker=given.get("knocker") or "", winner=given.get("winner") or "", upcard=given.get("upcard") or "")
    form.update({f"knocker{t}": k for t, k in enumerate(given.get("knockers") or [])})
    return form


def _score_input(state: MatchState, tables) -> dict[str, Any]:
    """The scoring form as :func:`events.score_hand` takes it."""
    form = request.form
    return {"hands": {p: form.get(f"hand{i}", "") for i, p in enumerate(state.players)},
            "knocker": form.get("knocker"), "winner": form.get("winner"),
            "knockers": [form.get(f"knocker{t}") for t in range(len(tables))] if len(tables) > 1 else None,
            "dealer": form.get("dealer") or None, "upcard": form.get("upcard", "").strip() or None,
            "reason": form.get("reason", "")}


def _scoring_form(state: MatchState, correcting: int | None):
    editing = state.hand(correcting) if correcting is not None else None
    game = engine_adapter.form(state.game)
    setup = events.setup_of(state)
    try:
        tables = game.scorers(setup, events.standing(state, correcting))
    except engine_adapter.HandRejected as exc:
        return _page("error.html", state, status=409, title="Nothing to enter", message=str(exc))
    context = {"editing": editing, "tables": tables, "picker": game.picker(setup),
               "upcard": getattr(game, "needs_upcard", lambda s: False)(setup)}
    if request.method == "GET":
        return _page("score.html", state, form=_prefill(state, editing), **context)
    require_pin_for_form()
    try:
        event = events.score_hand(get_store(), state.match_id, _score_input(state, tables), actor(), correcting=correcting)
    except events.InvalidInput as exc:
        return _page("score.html", state, status=400, form=request.form, error=str(exc), **context)
    _announce()
    return redirect(url_for("views.hand_result", match_id=state.match_id, hand_id=correcting or event.id))


# -- export ----------------------------------------------------------------------------
@bp.get("/m/<match_id>/export.json")
def export_json(match_id: str):
    state = load_match(match_id)
    standing = events.standing(state)
    document = {
        "match": {"id": state.match_id, "players": state.players, "game": state.game, "preset": state.preset,
                  "options": state.options, "created_at": state.created_at},
        "standing": {"totals": standing.totals, "boxes": standing.boxes, "finished": standing.finished,
                     "next_dealer": standing.next_dealer, "accounts": standing.accounts, "winner": standing.winner,
                     "transfers": [{"payer": a, "payee": b, "amount": n} for a, b, n in standing.transfers]},
        "hands": [{"hand": h.hand_id, "number": h.number, "status": h.status, "dealer": h.dealer, "input": h.input,
                   "result": h.result, "evidence": h.evidence} for h in state.hands],
        "events": [e.to_dict() for e in get_store().events(match_id)],
    }
    return Response(json.dumps(document, indent=2, ensure_ascii=False), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=match-{match_id}.json"})


def _points_won(result: dict) -> int | str:
    """What the hand's winner wrote: Gin points, tile Rummy plus points; Wiener Rummy writes penalties only."""
    points = result.get("points", "")
    return points.get(result.get("winner"), 0) if isinstance(points, dict) else points


@bp.get("/m/<match_id>/export.csv")
def export_csv(match_id: str):
    """One row per recorded hand, with the running totals of the counted hands."""
    state = load_match(match_id)
    out = io.StringIO()
    writer = csv.writer(out)
    columns = list(events.standing(state, 0).totals)
    writer.writerow(["hand", "status", "dealer", "knocker", "result", "winner", "points", "explanation",
                     *(f"total {c}" for c in columns), "edited"])
    for hand in state.hands:
        result = hand.result
        totals = events.standing(state, hand.hand_id + 1).totals
        writer.writerow([hand.number, hand.status, hand.dealer or "", result.get("knocker") or "", result["kind"],
                         result.get("winner") or "", _points_won(result), result.get("explanation", ""),
                         *(totals[c] for c in columns), "yes" if hand.edited else "no"])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=match-{match_id}.csv"})
