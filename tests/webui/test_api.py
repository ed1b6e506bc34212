"""The JSON API the camera pipeline posts to."""

from __future__ import annotations

import pytest

from tests.webui.support import PIN, api_post, knock_result, new_match, post_event, undercut_result
from tests.webui.test_store import jpeg_bytes

@pytest.fixture
def match_id(client) -> str:
    return new_match(client)


def test_create_match(client):
    created = api_post(client, "/api/matches", {"players": ["Ann", "Ben"], "preset": "house", "first_dealer": "Ann"})
    assert created.status_code == 201 and created.json["kind"] == "match_created"
    assert created.json["payload"]["first_dealer"] == "Ann" and created.json["actor"] == "api @ 127.0.0.1"


def test_create_match_with_the_api_token(client):
    ok = client.post("/api/matches", json={"players": ["Ann", "Ben"]}, headers={"Authorization": "Bearer token-for-tests"})
    assert ok.status_code == 201
    wrong = client.post("/api/matches", json={"players": ["Ann", "Ben"]}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and wrong.json["message"] == "wrong API token"


def test_writes_need_a_pin(client, match_id):
    missing = api_post(client, "/api/matches", {"players": ["Ann", "Ben"]}, pin=None)
    assert missing.status_code == 403 and "X-Table-Pin" in missing.json["message"]
    wrong = post_event(client, match_id, "discard", {"player": "Ann", "card": "KS"}, pin="111111")
    assert wrong.status_code == 403 and wrong.json["error"] == "Wrong PIN"
    assert client.post("/api/snapshots", data=jpeg_bytes()).status_code == 403
    assert client.get(f"/api/matches/{match_id}").json["discards"] == []


def test_body_must_be_a_json_object(client):
    form = client.post("/api/matches", data="players=Ann", headers={"X-Table-Pin": PIN})
    assert form.status_code == 415 and "application/json" in form.json["message"]
    array = client.post("/api/matches", json=["Ann", "Ben"], headers={"X-Table-Pin": PIN})
    assert array.status_code == 400 and array.json["message"] == "the body must be a JSON object"


@pytest.mark.parametrize("body, field, message", [
    ({"players": "Ann,Ben"}, "players", "must be a list of two names"),
    ({"players": ["Ann", "Ben", "Cy"]}, "players", "played by two players, got 3"),
    ({"players": ["Ann", 7]}, "players", "must be text"),
    ({"players": ["Ann", "Ben"], "game": "poker"}, "game", "unknown game 'poker'"),
    ({"players": ["Ann", "Ben"], "options": {"knock": 7}}, "options", "unknown rules option 'knock'"),
    ({"players": ["Ann", "Ben"], "options": {"oklahoma": "yes"}}, "options", "must be true or false"),
    ({"players": ["Ann", "Ben"], "first_dealer": "Cy"}, "first_dealer", "'Cy' is not one of the players"),
])
def test_create_match_rejects_bad_input(client, body, field, message):
    response = api_post(client, "/api/matches", body)
    assert response.status_code == 400 and response.json["field"] == field and message in response.json["message"]


def test_events_build_the_state(client, match_id):
    assert post_event(client, match_id, "table", {"stock_count": 31, "turn": "Ben"}).status_code == 201
    assert post_event(client, match_id, "discard", {"player": "Ann", "card": "♠k"}).status_code == 201
    assert post_event(client, match_id, "reading_proposed", {"reading": "r1", "prompt": "6H or 8H?", "choices": ["6H", "8H"]}).status_code == 201
    assert post_event(client, match_id, "reading_confirmed", {"reading": "r1", "choice": "6H"}).status_code == 201
    state = client.get(f"/api/matches/{match_id}").json
    assert state["discards"] == [{"player": "Ann", "card": "KS"}]
    assert (state["stock_count"], state["turn"], state["pending_readings"]) == (31, "Ben", [])
    hand = post_event(client, match_id, "hand_recorded", {"dealer": "Ben", "result": undercut_result()}).json
    state = client.get(f"/api/matches/{match_id}").json
    assert state["totals"] == {"Ann": 0, "Ben": 11} and state["discards"] == [] and state["last_event"] == hand["id"]


def test_a_correction_keeps_the_original(client, match_id):
    hand = post_event(client, match_id, "hand_recorded", {"result": knock_result(12)}).json["id"]
    fixed = post_event(client, match_id, "hand_corrected", {"hand": hand, "result": knock_result(20), "reason": "KD was a QD"})
    assert fixed.status_code == 201
    assert client.get(f"/api/matches/{match_id}").json["totals"]["Ann"] == 20
    document = client.get(f"/m/{match_id}/export.json").json
    original = next(e for e in document["events"] if e["id"] == hand)
    assert original["payload"]["result"]["points"] == 12
    assert document["hands"][0]["result"]["points"] == 20


@pytest.mark.parametrize("kind, payload, field", [
    ("discard", {"player": "Ann", "card": "1X"}, "card"),
    ("discard", {"player": "Cy", "card": "KS"}, "player"),
    ("table", {"stock_count": 60}, "stock_count"),
    ("table", {"stock_count": True}, "stock_count"),
    ("table", {}, "payload"),
    ("table", {"turn": "Cy"}, "turn"),
    ("reading_proposed", {"reading": "r 1", "prompt": "?", "choices": ["a", "b"]}, "reading"),
    ("reading_proposed", {"reading": "r1", "prompt": "?", "choices": ["a"]}, "choices"),
    ("reading_proposed", {"reading": "r1", "prompt": "?", "choices": ["a", "a"]}, "choices"),
    ("reading_proposed", {"reading": "r1", "prompt": "", "choices": ["a", "b"]}, "prompt"),
    ("reading_proposed", {"reading": "r1", "prompt": "?", "choices": ["a", "b"], "evidence": "f" * 64}, "evidence"),
    ("reading_confirmed", {"reading": "nope", "choice": "a"}, "reading"),
    ("hand_recorded", {"result": {**knock_result(), "kind": "schneider"}}, "result.kind"),
    ("hand_recorded", {"result": {**knock_result(), "winner": "Cy"}}, "result.winner"),
    ("hand_recorded", {"result": {**knock_result(), "points": -3}}, "result.points"),
    ("hand_recorded", {"result": {**knock_result(), "players": {"Ann": {"melds": [["7H", "7H"]]}}}}, "result.players.Ann.melds"),
    ("hand_recorded", {"result": knock_result(), "dealer": "Cy"}, "dealer"),
    ("hand_recorded", {"result": "Ann won"}, "result"),
    ("hand_voided", {"hand": 12345, "reason": "x"}, "hand"),
    ("hand_corrected", {"hand": 12345, "reason": "x", "result": knock_result()}, "hand"),
    ("match_created", {"players": ["A", "B"]}, "kind"),
    ("shuffle", {}, "kind"),
])
def test_bad_events_are_refused_naming_the_field(client, match_id, kind, payload, field):
    response = post_event(client, match_id, kind, payload)
    assert response.status_code == 400, response.json
    assert response.json["field"] == field, response.json
    assert len(client.get(f"/m/{match_id}/export.json").json["events"]) == 1, "nothing was written"


def test_events_for_an_unknown_match_are_404(client):
    response = post_event(client, "nosuch", "discard", {"player": "Ann", "card": "KS"})
    assert response.status_code == 404 and "no match 'nosuch'" in response.json["message"]
    assert client.get("/api/matches/nosuch").status_code == 404


def test_snapshots_and_evidence(client, match_id):
    digest = client.post("/api/snapshots", data=jpeg_bytes(), headers={"X-Table-Pin": PIN}).json["sha256"]
    assert len(digest) == 64
    hand = post_event(client, match_id, "hand_recorded", {"result": knock_result(), "evidence": digest})
    assert hand.status_code == 201
    assert f"/snapshots/{digest}.jpg" in client.get(f"/m/{match_id}/hands/{hand.json['id']}").text
    not_jpeg = client.post("/api/snapshots", data=b"GIF89a", headers={"X-Table-Pin": PIN})
    assert not_jpeg.status_code == 400 and "JPEG" in not_jpeg.json["message"]


def test_post_hand_as_cards_goes_through_the_engine(client, match_id):
    body = {"knocker": "Ann", "hands": {"Ann": "7H 8H 9H KS KD KC 2C 3C 4C 5D", "Ben": "AS 2S 3S 4D 5S 6S QH QD JC 9D"}}
    response = api_post(client, f"/api/matches/{match_id}/hands", body)
    assert response.status_code == 201 and response.json["kind"] == "hand_recorded"
    result = response.json["payload"]["result"]
    assert (result["kind"], result["winner"], result["points"]) == ("knock", "Ann", 49)
    assert result["explanation"] == "Ann knocks with 5 (5D). Ben 54 > Ann 5: Ann wins 54 - 5 = 49."
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 49, "Ben": 0}
    illegal = api_post(client, f"/api/matches/{match_id}/hands", {**body, "knocker": "Ben"})
    assert illegal.status_code == 400 and "illegal knock: Ben deadwood 54 is above the knock limit 10" in illegal.json["message"]
    bad = api_post(client, f"/api/matches/{match_id}/hands", {"knocker": "Ann", "hands": {"Ann": "7H 7H"}})
    assert bad.status_code == 400 and bad.json["field"] == "hands.Ann"
    assert api_post(client, "/api/matches/nosuch/hands", body).status_code == 404
