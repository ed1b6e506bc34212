"""The pages phones open: scoreboard, hand in progress, results, history, setup, manual scoring."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import segno
from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_file, session, stream_with_context, url_for)
from markupsafe import Markup

from webui import cards_view, engine_adapter, events, live, rulebook
from webui.db import get_store, notifier, open_store
from webui.security import (check_csrf, check_pin, is_local_request, require_pin_for_form, unlock_session,
                            unlocked)
from webui.state import MatchState, UnknownMatch, replay

bp = Blueprint("views", __name__)
LIVE_PARTS = ("scoreboard", "hand")


@bp.before_request
def protect_forms() -> None:
    if request.method == "POST":
        check_csrf()


def _actor() -> str:
    who = session.get("who") or "someone"
    return f"{who} @ {request.remote_addr}"


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
        context.update(state=state, standing=events.standing(state), rules=engine_adapter.rules_summary(state.preset, state.options))
    return render_template(template, **context), status


def join_url() -> str:
    base = current_app.config["PUBLIC_URL"] or request.host_url
    return base.rstrip("/") + url_for("views.join", pin=current_app.config["PIN"])


# -- joining ---------------------------------------------------------------------------
@bp.get("/")
def index():
    store = get_store()
    matches = [replay(store.events(mid)) for mid in store.match_ids()]
    return _page("index.html", matches=matches)


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
@bp.route("/setup", methods=["GET", "POST"])
def setup():
    presets = engine_adapter.rule_presets()
    if request.method == "GET":
        return _page("setup.html", presets=presets, form={})
    require_pin_for_form()
    form = request.form
    payload: dict[str, Any] = {
        "players": [form.get("player1", ""), form.get("player2", "")],
        "preset": form.get("preset", "rulebook"),
        "options": {},
        "first_dealer": None,
    }
    try:
        if form.get("match_target"):
            target = form["match_target"]
            if not target.isdigit():
                raise events.InvalidInput("match_target", f"must be a whole number, got {target!r}")
            payload["options"]["match_target"] = int(target)
        if form.get("first_dealer") in ("1", "2"):
            payload["first_dealer"] = events.check_name(payload["players"][int(form["first_dealer"]) - 1])
        event = events.create_match(get_store(), payload, _actor())
    except events.InvalidInput as exc:
        return _page("setup.html", presets=presets, form=form, error=str(exc), status=400)
    _announce()
    return redirect(url_for("views.scoreboard", match_id=event.match_id))


# -- watching --------------------------------------------------------------------------
@bp.get("/m/<match_id>")
def scoreboard(match_id: str):
    return _page("scoreboard.html", load_match(match_id), part="scoreboard")


@bp.get("/m/<match_id>/hand")
def hand_in_progress(match_id: str):
    return _page("hand.html", load_match(match_id), part="hand")


@bp.get("/m/<match_id>/part/<name>")
def live_part(match_id: str, name: str):
    """The live region of a page, re-fetched by the browser on each update."""
    if name not in LIVE_PARTS:
        abort(404, description=f"no live part {name!r}")
    return _page(f"part_{name}.html", load_match(match_id))


@bp.get("/m/<match_id>/live")
def live_stream(match_id: str):
    load_match(match_id)
    since = request.headers.get("Last-Event-ID") or request.args.get("since") or "0"
    since_id = int(since) if since.isdigit() else 0
    lifetime = current_app.config["SSE_LIFETIME"]
    store = open_store()  # the stream outlives the request's own connection

    def generate():
        try:
            yield from live.stream(lambda: store.last_event_id(match_id), notifier(), since_id, lifetime)
        finally:
            store.close()

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/m/<match_id>/hands/<int:hand_id>")
def hand_result(match_id: str, hand_id: int):
    state = load_match(match_id)
    try:
        hand = state.hand(hand_id)
    except LookupError:
        abort(404, description=f"match {match_id} has no hand {hand_id}")
    laid = {code for shown in hand.result["players"].values() for code in shown["laid_off"]}
    quote = rulebook.paragraph(hand.result.get("rule", ""), current_app.config["RULES_DIR"])
    return _page("result.html", state, hand=hand, laid=laid, quote=quote)


@bp.get("/m/<match_id>/history")
def history(match_id: str):
    return _page("history.html", load_match(match_id))


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
        events.record(get_store(), match_id, kind, payload, _actor())
        _announce()
    except events.InvalidInput as exc:
        return _page("error.html", state, status=400, title="Not recorded", message=str(exc))
    return redirect(back)


@bp.post("/m/<match_id>/readings/<reading_id>")
def confirm_reading(match_id: str, reading_id: str):
    return _change(match_id, "reading_confirmed", {"reading": reading_id, "choice": request.form.get("choice")},
                   url_for("views.hand_in_progress", match_id=match_id))


@bp.post("/m/<match_id>/hands/<int:hand_id>/undo")
def undo_hand(match_id: str, hand_id: int):
    return _change(match_id, "hand_voided", {"hand": hand_id, "reason": request.form.get("reason") or "undone"},
                   url_for("views.history", match_id=match_id))


@bp.post("/m/<match_id>/hands/<int:hand_id>/restore")
def restore_hand(match_id: str, hand_id: int):
    return _change(match_id, "hand_restored", {"hand": hand_id, "reason": request.form.get("reason") or "restored"},
                   url_for("views.history", match_id=match_id))


def _hands_from_form(state: MatchState) -> dict[str, str]:
    return {player: request.form.get(f"hand{i}", "") for i, player in enumerate(state.players)}


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


def _scoring_form(state: MatchState, correcting: int | None):
    editing = state.hand(correcting) if correcting is not None else None
    if request.method == "GET":
        prefill = editing.input if editing else {}
        hands = prefill.get("hands", {})
        form = {f"hand{i}": " ".join(hands.get(p, [])) for i, p in enumerate(state.players)}
        form["knocker"] = prefill.get("knocker", "")
        return _page("score.html", state, form=form, editing=editing, picker=cards_view.picker_rows())
    require_pin_for_form()
    form = {"knocker": request.form.get("knocker"), "dealer": request.form.get("dealer") or None,
            "upcard": request.form.get("upcard", "").strip() or None,
            "hands": _hands_from_form(state), "reason": request.form.get("reason", "")}
    try:
        event = events.score_hand(get_store(), state.match_id, form, _actor(), correcting=correcting)
    except events.InvalidInput as exc:
        return _page("score.html", state, status=400, form=request.form, editing=editing,
                     picker=cards_view.picker_rows(), error=str(exc))
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


@bp.get("/m/<match_id>/export.csv")
def export_csv(match_id: str):
    """One row per recorded hand, with the running totals of the counted hands."""
    state = load_match(match_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", "status", "dealer", "knocker", "result", "winner", "points", "explanation",
                     *(f"total {p}" for p in state.players), "edited"])
    counted = []
    for hand in state.hands:
        result = hand.result
        if hand.counted:
            counted.append(hand)
        totals = events.standing(state, counted).totals
        writer.writerow([hand.number, hand.status, hand.dealer or "", result.get("knocker") or "", result["kind"],
                         result.get("winner") or "", result["points"], result.get("explanation", ""),
                         *(totals[p] for p in state.players), "yes" if hand.edited else "no"])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=match-{match_id}.csv"})
