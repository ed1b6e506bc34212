"""The tournament pages (000 §17): set-up, standings and pairings (live), and entering match results."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from webui import events
from webui.db import get_store, notifier
from webui.engine_adapter.tournament import SYSTEMS
from webui.security import actor, check_csrf, require_pin_for_form
from webui.state import TournamentState, UnknownTournament, replay_tournament
from webui.views import event_stream

bp = Blueprint("tournaments", __name__)
MAX_PLAYERS_TYPED = 64


@bp.before_request
def protect_forms() -> None:
    if request.method == "POST":
        check_csrf()


def load_tournament(tournament_id: str) -> TournamentState:
    try:
        return replay_tournament(get_store().events(tournament_id))
    except UnknownTournament:
        abort(404, description=f"there is no tournament {tournament_id!r} on this table")


def _page(template: str, state: TournamentState | None = None, status: int = 200, **context: Any):
    if state is not None:
        context.update(tournament=state, view=events.tournament_view(state))
    return render_template(template, systems=SYSTEMS, **context), status


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new():
    if request.method == "GET":
        return _page("tournament_new.html", form={})
    require_pin_for_form()
    names = [line.strip() for line in request.form.get("players", "").splitlines() if line.strip()]
    payload = {"players": names[:MAX_PLAYERS_TYPED + 1], "system": request.form.get("system", "round_robin"),
               "seed": request.form.get("seed", "").strip() or None}
    try:
        event = events.create_tournament(get_store(), payload, actor())
    except events.InvalidInput as exc:
        return _page("tournament_new.html", form=request.form, error=str(exc), status=400)
    notifier().notify()
    return redirect(url_for("tournaments.page", tournament_id=event.match_id))


@bp.get("/t/<tournament_id>")
def page(tournament_id: str):
    return _page("tournament.html", load_tournament(tournament_id))


@bp.get("/t/<tournament_id>/part")
def live_part(tournament_id: str):
    """Standings and pairings, re-fetched by the page on each update."""
    return _page("part_tournament.html", load_tournament(tournament_id))


@bp.get("/t/<tournament_id>/live")
def live_stream(tournament_id: str):
    load_tournament(tournament_id)
    return event_stream(tournament_id)


@bp.post("/t/<tournament_id>/results")
def enter_result(tournament_id: str):
    """One pairing's result: who won the match and the amount it settled for."""
    require_pin_for_form()
    state = load_tournament(tournament_id)
    form = request.form
    amount = form.get("amount", "").strip()
    number = form.get("round", "")
    payload = {"round": int(number) if number.isdigit() else number, "first": form.get("first"),
               "second": form.get("second"), "winner": form.get("winner"),
               "amount": int(amount) if amount.isdigit() else amount}
    try:
        events.record_tournament_result(get_store(), tournament_id, payload, actor())
    except events.InvalidInput as exc:
        return _page("tournament.html", state, status=400, error=str(exc))
    notifier().notify()
    return redirect(url_for("tournaments.page", tournament_id=tournament_id) + f"#round-{payload['round']}")
