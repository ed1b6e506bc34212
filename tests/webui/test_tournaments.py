"""Tournaments (000 §17) through Flask's test client: API and pages, good and bad input, the PIN."""

from __future__ import annotations

import pytest

from tests.webui.support import PIN, api_post, csrf_of
from tests.webui.test_pages import text, unlocked


def create(client, players: list[str], system: str = "round_robin", seed: str = "club") -> str:
    response = api_post(client, "/api/tournaments", {"players": players, "system": system, "seed": seed})
    assert response.status_code == 201, response.json
    return response.json["match_id"]


def view(client, tournament_id: str) -> dict:
    return client.get(f"/api/tournaments/{tournament_id}").json


def result(client, tournament_id: str, number: int, first: str, second: str, winner: str, amount, pin=PIN):
    return api_post(client, f"/api/tournaments/{tournament_id}/results",
                    {"round": number, "first": first, "second": second, "winner": winner, "amount": amount}, pin)


def play_round(client, tournament_id: str) -> None:
    """The first player of every pairing of the current round wins by 10 times his round number."""
    state = view(client, tournament_id)
    current = state["rounds"][state["current_round"] - 1]
    for p in current["pairings"]:
        if p["second"]:
            assert result(client, tournament_id, current["round"], p["first"], p["second"], p["first"], 10).status_code == 201


def test_round_robin_pairs_everybody_and_ranks_by_points(client):
    tournament_id = create(client, ["Ann", "Ben", "Cy", "Dee"])
    state = view(client, tournament_id)
    assert state["rounds_total"] == 3 and state["current_round"] == 1
    assert [(p["first"], p["second"]) for p in state["rounds"][0]["pairings"]] == [("Ann", "Dee"), ("Ben", "Cy")]
    assert result(client, tournament_id, 1, "Ann", "Dee", "Dee", 202).status_code == 201
    assert result(client, tournament_id, 3, "Ann", "Ben", "Ann", 50).status_code == 201, "round robin: any round"
    state = view(client, tournament_id)
    assert [(s["player"], s["points"], s["rank"]) for s in state["standings"]] == [
        ("Dee", 202, 1), ("Cy", 0, 2), ("Ben", -50, 3), ("Ann", -152, 4)]
    corrected = result(client, tournament_id, 1, "Dee", "Ann", "Ann", 20)
    assert corrected.status_code == 201
    assert view(client, tournament_id)["standings"][0] == {"rank": 1, "player": "Ann", "points": 70, "matches": 2}
    for number in (1, 2, 3):
        for p in view(client, tournament_id)["rounds"][number - 1]["pairings"]:
            result(client, tournament_id, number, p["first"], p["second"], p["second"], 5)
    assert view(client, tournament_id)["finished"] is True


def test_swiss_shows_the_next_round_once_a_round_is_complete(client):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
    tournament_id = create(client, players, "swiss")
    state = view(client, tournament_id)
    assert state["rounds_total"] == 3 and len(state["rounds"]) == 1
    play_round(client, tournament_id)
    state = view(client, tournament_id)
    assert state["current_round"] == 2 and len(state["rounds"]) == 2
    first_round = {frozenset((p["first"], p["second"])) for p in state["rounds"][0]["pairings"]}
    second_round = {frozenset((p["first"], p["second"])) for p in state["rounds"][1]["pairings"]}
    assert not first_round & second_round, "nobody meets the same opponent twice"
    old = state["rounds"][0]["pairings"][0]
    closed = result(client, tournament_id, 1, old["first"], old["second"], old["second"], 10)
    assert closed.status_code == 400 and closed.json["field"] == "round" and "Swiss round 1 is closed" in closed.json["message"]
    play_round(client, tournament_id)
    play_round(client, tournament_id)
    assert view(client, tournament_id)["finished"] is True
    page = client.get(f"/t/{tournament_id}")
    assert page.status_code == 200 and "finished" in page.text and 'class="result-form"' not in page.text


@pytest.mark.parametrize("body, field, message", [
    ({"players": ["Ann"]}, "players", "a tournament needs 2 to 64 players, got 1"),
    ({"players": ["Ann", "Ben", "Cy", "Dee"], "system": "swiss"}, "players", "§17 gives Swiss rounds from 5 players on"),
    ({"players": ["Ann", "Ben"], "system": "knockout"}, "system", "unknown tournament system 'knockout'"),
    ({"players": ["Ann", "ann"]}, "players", "every player needs a different name"),
    ({"players": "Ann Ben"}, "players", "must be a list of player names"),
    ({"players": ["Ann", "Ben"], "seed": 7}, "seed", "must be text"),
])
def test_new_tournament_rejects_bad_input(client, body, field, message):
    response = api_post(client, "/api/tournaments", body)
    assert response.status_code == 400 and response.json["field"] == field and message in response.json["message"]


@pytest.mark.parametrize("args, field, message", [
    ((9, "Ann", "Dee", "Ann", 10), "round", "round 9 is not paired yet"),
    ((1, "Ann", "Ben", "Ann", 10), "second", "Ann and Ben are not paired in round 1"),
    ((1, "Ann", "Dee", "Cy", 10), "winner", "the winner must be Ann or Dee"),
    ((1, "Ann", "Zed", "Ann", 10), "second", "'Zed' is not a player of this tournament"),
    ((1, "Ann", "Dee", "Ann", -5), "amount", "must be a whole number 0..100000"),
    ((1, "Ann", "Dee", "Ann", "lots"), "amount", "must be a whole number"),
    (("1", "Ann", "Dee", "Ann", 5), "round", "must be a round number"),
])
def test_bad_results_are_refused(client, args, field, message):
    tournament_id = create(client, ["Ann", "Ben", "Cy", "Dee"])
    response = result(client, tournament_id, *args)
    assert response.status_code == 400 and response.json["field"] == field and message in response.json["message"]
    assert all(s["points"] == 0 for s in view(client, tournament_id)["standings"])


def test_tournament_writes_need_the_pin(client):
    assert api_post(client, "/api/tournaments", {"players": ["Ann", "Ben"]}, pin=None).status_code == 403
    tournament_id = create(client, ["Ann", "Ben", "Cy", "Dee"])
    assert result(client, tournament_id, 1, "Ann", "Dee", "Ann", 10, pin="000000").status_code == 403
    assert client.get("/api/tournaments/tnope").status_code == 404 and client.get("/t/tnope").status_code == 404
    token = csrf_of(client)
    form = {"round": "1", "first": "Ann", "second": "Dee", "winner": "Ann", "amount": "10", "csrf_token": token}
    refused = client.post(f"/t/{tournament_id}/results", data=form)
    assert refused.status_code == 403 and view(client, tournament_id)["standings"][0]["points"] == 0
    refused = client.post("/tournaments/new", data={"players": "Ann\nBen", "csrf_token": token})
    assert refused.status_code == 403


def test_tournament_pages(client):
    token = unlocked(client)
    assert client.get("/tournaments/new").status_code == 200
    bad = client.post("/tournaments/new", data={"players": "Ann\nBen\nCy", "system": "swiss", "csrf_token": token})
    assert bad.status_code == 400 and "§17 gives Swiss rounds from 5 players on, got 3" in text(bad)
    made = client.post("/tournaments/new", data={"players": "Ann\n\nBen\nCy\nDee\n", "system": "round_robin",
                                                  "seed": "x", "csrf_token": token})
    assert made.status_code == 302
    tournament_id = made.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{tournament_id}")
    assert page.status_code == 200 and text(page).count('class="result-form"') == 6
    form = {"round": "1", "first": "Ann", "second": "Dee", "winner": "Dee", "amount": "120", "csrf_token": token}
    assert client.post(f"/t/{tournament_id}/results", data=form).status_code == 302
    page = text(client.get(f"/t/{tournament_id}"))
    assert "<strong>Dee</strong> beat Ann by 120" in page and '<td class="pts">+120</td>' in page
    bad = client.post(f"/t/{tournament_id}/results", data={**form, "amount": "-3"})
    assert bad.status_code == 400 and "amount: must be a whole number" in text(bad)
    assert "round robin" in text(client.get("/"))


def test_live_part_and_stream_of_a_tournament(client):
    tournament_id = create(client, ["Ann", "Ben", "Cy", "Dee"])
    part = client.get(f"/t/{tournament_id}/part")
    assert part.status_code == 200 and "<html" not in part.text and 'class="standings"' in part.text
    page = client.get(f"/t/{tournament_id}").text
    assert f'data-stream="/t/{tournament_id}/live"' in page and f'data-src="/t/{tournament_id}/part"' in page
    entered = result(client, tournament_id, 1, "Ann", "Dee", "Dee", 202).json["id"]
    response = client.get(f"/t/{tournament_id}/live?since=0", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks, seen = response.iter_encoded(), b""
    while b"event: update" not in seen:
        seen += next(chunks)
    response.close()
    assert f'id: {entered}\nevent: update\ndata: {{"last_event": {entered}}}'.encode() in seen
    assert "Dee</td><td>1</td><td class=\"pts\">+202" in client.get(f"/t/{tournament_id}/part").text


def test_live_urls_of_an_unknown_tournament_are_404(client):
    assert client.get("/t/tnosuch/part").status_code == 404
    assert client.get("/t/tnosuch/live").status_code == 404
