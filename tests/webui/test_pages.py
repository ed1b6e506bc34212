"""Every page and form of the dashboard through Flask's test client, good and bad input."""

from __future__ import annotations

import html
import re

import pytest

from tests.webui.support import PIN, csrf_of, knock_result, new_match, post_event, undercut_result
from tests.webui.test_store import jpeg_bytes

def text(page) -> str:
    return html.unescape(page.text)


def unlocked(client) -> str:
    """Unlock the client's session with the PIN; returns the CSRF token."""
    token = csrf_of(client)
    assert client.post("/unlock", data={"pin": PIN, "csrf_token": token, "who": "Cy"}).status_code == 302
    return token


@pytest.fixture
def match_id(client) -> str:
    return new_match(client)


@pytest.fixture
def hand_id(client, match_id) -> int:
    return post_event(client, match_id, "hand_recorded", {"dealer": "Ben", "result": undercut_result()}).json["id"]


def test_index_lists_matches(client, match_id):
    page = client.get("/")
    assert page.status_code == 200 and "Ann vs Ben" in page.text and f"/m/{match_id}" in page.text


def test_scoreboard_shows_totals_boxes_target_and_hands(client, match_id, hand_id):
    post_event(client, match_id, "hand_recorded", {"dealer": "Ann", "result": knock_result(12)})
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 200
    totals = dict(re.findall(r'class="total" data-player="(\w+)">(\d+)<', page.text))
    assert totals == {"Ann": "12", "Ben": "11"}
    assert "1 box<" in page.text and "Game to <strong>100</strong>" in page.text
    assert "undercut" in page.text and f'data-stream="/m/{match_id}/live"' in page.text


def test_unknown_match_is_a_friendly_404(client):
    page = client.get("/m/nosuch")
    assert page.status_code == 404 and "no match 'nosuch'" in text(page) and "Traceback" not in page.text


def test_hand_page_shows_discards_stock_turn_and_readings(client, match_id):
    post_event(client, match_id, "table", {"stock_count": 19, "turn": "Ann"})
    post_event(client, match_id, "discard", {"player": "Ben", "card": "QD"})
    post_event(client, match_id, "reading_proposed", {"reading": "r7", "prompt": "6H or 8H?", "choices": ["6H", "8H"]})
    page = client.get(f"/m/{match_id}/hand")
    assert page.status_code == 200
    assert '<strong id="stock">19</strong>' in page.text and 'data-card="QD"' in page.text
    assert f'action="/m/{match_id}/readings/r7"' in page.text and 'value="8H"' in page.text
    assert 'name="pin"' in page.text  # a locked phone is asked for the PIN in the form


def test_a_discard_taken_from_the_pile_is_shown_taken_and_the_card_under_it_is_the_top(client, match_id):
    post_event(client, match_id, "discard", {"player": "Ben", "card": "QD"})
    post_event(client, match_id, "discard", {"player": "Ann", "card": "7S"})
    post_event(client, match_id, "play", {"kind": "pickup", "player": "Ben", "cards": ["7S"]})
    page = text(client.get(f"/m/{match_id}/hand"))
    taken = re.search(r'<div class="discard taken"[^>]*>(.*?)</div>\s', page, re.S)
    assert taken and 'data-card="7S"' in taken.group(1) and "Ann → Ben" in taken.group(1)
    top = re.search(r'<div class="discard top">(.*?)</div>\s', page, re.S)
    assert top and 'data-card="QD"' in top.group(1)


def test_live_parts_render_and_unknown_parts_404(client, match_id):
    assert client.get(f"/m/{match_id}/part/scoreboard").status_code == 200
    assert client.get(f"/m/{match_id}/part/hand").status_code == 200
    assert client.get(f"/m/{match_id}/part/secrets").status_code == 404


def test_live_stream_announces_the_latest_event(client, match_id, hand_id):
    response = client.get(f"/m/{match_id}/live?since=0", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = response.iter_encoded()
    text = b""
    while b"event: update" not in text:
        text += next(chunks)
    response.close()
    assert f'id: {hand_id}\nevent: update\ndata: {{"last_event": {hand_id}}}'.encode() in text


def test_live_stream_of_unknown_match_is_404(client):
    assert client.get("/m/nosuch/live").status_code == 404


def test_result_page_draws_melds_deadwood_and_layoffs(client, match_id, hand_id):
    page = client.get(f"/m/{match_id}/hands/{hand_id}")
    assert page.status_code == 200
    assert "Ben 4 &lt;= Ann 5: undercut, 1 + 10 bonus" in page.text and "000 §10" in page.text
    assert re.search(r'class="card red laid" data-card="10H"', page.text), "the laid-off 10H is highlighted"
    assert page.text.count("laid\" data-card") == 1
    assert "Ben laid off 10H" in page.text


def test_result_of_unknown_hand_is_404(client, match_id):
    assert client.get(f"/m/{match_id}/hands/999").status_code == 404
    assert client.get(f"/m/{match_id}/hands/999/edit").status_code == 404


def test_history_shows_the_audit_trail(client, match_id, hand_id):
    token = unlocked(client)
    client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token, "reason": "misdeal"})
    client.post(f"/m/{match_id}/hands/{hand_id}/restore", data={"csrf_token": token})
    page = client.get(f"/m/{match_id}/history")
    assert page.status_code == 200
    trail = re.findall(r'<span class="what">(\w+)</span>', page.text)
    assert trail == ["recorded", "undone", "restored"]
    assert "Cy @ 127.0.0.1" in page.text and "misdeal" in page.text


def test_undo_and_restore_change_the_totals_but_keep_the_record(client, match_id, hand_id):
    token = unlocked(client)
    assert client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token}).status_code == 302
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 0}
    again = client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token})
    assert again.status_code == 400 and "already undone" in again.text
    assert client.post(f"/m/{match_id}/hands/{hand_id}/restore", data={"csrf_token": token}).status_code == 302
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 0, "Ben": 11}
    twice = client.post(f"/m/{match_id}/hands/{hand_id}/restore", data={"csrf_token": token})
    assert twice.status_code == 400 and "only an undone hand can be restored" in twice.text
    kinds = [e["kind"] for e in client.get(f"/m/{match_id}/export.json").json["events"]]
    assert kinds == ["match_created", "hand_recorded", "hand_voided", "hand_restored"]


def test_undo_needs_the_pin(client, match_id, hand_id):
    token = csrf_of(client)
    assert client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token}).status_code == 403
    wrong = client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token, "pin": "111111"})
    assert wrong.status_code == 403 and "Wrong PIN" in wrong.text
    right = client.post(f"/m/{match_id}/hands/{hand_id}/undo", data={"csrf_token": token, "pin": PIN})
    assert right.status_code == 302


def test_undo_of_unknown_hand_is_a_clear_error(client, match_id):
    token = unlocked(client)
    page = client.post(f"/m/{match_id}/hands/4242/undo", data={"csrf_token": token})
    assert page.status_code == 400 and "no hand 4242" in page.text


def test_confirm_reading(client, match_id):
    post_event(client, match_id, "reading_proposed", {"reading": "r1", "prompt": "6H or 8H?", "choices": ["6H", "8H"]})
    token = csrf_of(client)
    assert client.post(f"/m/{match_id}/readings/r1", data={"csrf_token": token, "choice": "6H"}).status_code == 403
    bad = client.post(f"/m/{match_id}/readings/r1", data={"csrf_token": token, "choice": "9H", "pin": PIN})
    assert bad.status_code == 400 and "choice: must be one of 6H, 8H" in bad.text
    unknown = client.post(f"/m/{match_id}/readings/r2", data={"csrf_token": token, "choice": "6H"})
    assert unknown.status_code == 400 and "no reading 'r2'" in text(unknown)
    assert client.post(f"/m/{match_id}/readings/r1", data={"csrf_token": token, "choice": "8H"}).status_code == 302
    assert client.get(f"/api/matches/{match_id}").json["pending_readings"] == []
    twice = client.post(f"/m/{match_id}/readings/r1", data={"csrf_token": token, "choice": "6H"})
    assert twice.status_code == 400 and "already confirmed as '8H'" in text(twice)


def test_setup_page_offers_the_engine_presets(client):
    page = client.get("/setup")
    assert page.status_code == 200
    assert set(re.findall(r'name="preset" value="(\w+)"', page.text)) == {"rulebook", "house", "oklahoma", "gra"}


def test_setup_creates_a_match_with_the_pin(client):
    token = csrf_of(client, "/setup")
    form = {"player1": "Ann", "player2": "Ben", "preset": "gra", "match_target": "150", "first_dealer": "1", "csrf_token": token}
    assert client.post("/setup", data=form).status_code == 403
    created = client.post("/setup", data={**form, "pin": PIN})
    assert created.status_code == 302
    match_id = created.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/m/{match_id}")
    assert "Game to <strong>150</strong>" in page.text and "gra rules" in page.text
    event = client.get(f"/m/{match_id}/export.json").json["events"][0]
    assert event["payload"]["first_dealer"] == "Ann" and event["payload"]["options"] == {"match_target": 150}


@pytest.mark.parametrize("change, message", [
    ({"player2": ""}, "Gin Rummy is played by two players, got 1"),
    ({"player2": "ann"}, "every player needs a different name"),
    ({"player1": "x" * 30}, "longer than 24 characters"),
    ({"preset": "poker"}, "unknown rules preset 'poker'"),
    ({"match_target": "ten"}, "match_target: must be a whole number"),
    ({"match_target": "0"}, "match_target must be positive"),
])
def test_setup_rejects_bad_input_with_a_clear_message(client, change, message):
    token = unlocked(client)
    form = {"player1": "Ann", "player2": "Ben", "preset": "rulebook", "csrf_token": token, **change}
    page = client.post("/setup", data=form)
    assert page.status_code == 400 and message in text(page)
    assert 'class="alert"' in page.text


def test_manual_scoring_form_has_a_card_picker_and_prefills_corrections(client, match_id):
    hand = post_event(client, match_id, "hand_recorded", {"result": knock_result(),
                      "input": {"knocker": "Ann", "hands": {"Ann": ["AS", "2S"], "Ben": ["KD"]}}}).json["id"]
    page = client.get(f"/m/{match_id}/score")
    assert page.status_code == 200 and page.text.count('class="pick card') == 52
    edit = client.get(f"/m/{match_id}/hands/{hand}/edit")
    assert edit.status_code == 200 and 'value="AS 2S"' in edit.text and 'value="KD"' in edit.text
    assert 'name="reason"' in edit.text


@pytest.mark.parametrize("change, message", [
    ({"hand0": "7H 8H ZZ"}, "malformed card code 'ZZ'"),
    ({"hand1": "7H 2C"}, "duplicate card '7H'"),
    ({"knocker": "Cy"}, "knocker: 'Cy' is not at play: the hand is between Ann and Ben"),
    ({"knocker": ""}, "knocker: '' is not at play"),
])
def test_manual_scoring_rejects_bad_cards_before_the_engine(client, match_id, change, message):
    token = unlocked(client)
    form = {"hand0": "7H 8H 9H", "hand1": "KS KD", "knocker": "Ann", "csrf_token": token, **change}
    page = client.post(f"/m/{match_id}/score", data=form)
    assert page.status_code == 400 and message in text(page)
    assert 'value="' + form["hand0"] + '"' in page.text, "the form keeps what was typed"


def test_manual_scoring_needs_the_pin(client, match_id):
    token = csrf_of(client)
    page = client.post(f"/m/{match_id}/score", data={"hand0": "7H", "hand1": "8H", "knocker": "Ann", "csrf_token": token})
    assert page.status_code == 403


def test_manual_scoring_hands_valid_cards_to_the_engine(client, match_id):
    token = unlocked(client)
    form = {"hand0": "7H 8H 9H KS KD KC 2C 3C 4C 5D", "hand1": "AS 2S 3S 4D 5S 6S QH QD JC 9D",
            "knocker": "Ann", "dealer": "Ben", "csrf_token": token}
    page = client.post(f"/m/{match_id}/score", data=form)
    assert page.status_code == 302 and f"/m/{match_id}/hands/" in page.headers["Location"]
    result = text(client.get(page.headers["Location"]))
    assert "Ann knocks with 5 (5D). Ben 54 > Ann 5: Ann wins 54 - 5 = 49." in result
    assert "Rulebook" in result and "000 §9" in result
    assert client.get(f"/api/matches/{match_id}").json["hands"][0]["result"]["points"] == 49


def test_manual_scoring_shows_the_engine_refusal(client, match_id):
    token = unlocked(client)
    form = {"hand0": "7H 8H 9H KS KD KC 2C 3C 4C 5D", "hand1": "AS 2S 3S 4D 5S 6S QH QD JC 9D",
            "knocker": "Ben", "csrf_token": token}
    page = client.post(f"/m/{match_id}/score", data=form)
    assert page.status_code == 400 and "illegal knock: Ben deadwood 54 is above the knock limit 10" in text(page)
    short = client.post(f"/m/{match_id}/score", data={**form, "knocker": "Ann", "hand1": "AS 2S"})
    assert short.status_code == 400 and "opponent hand has 2 cards; a hand is settled with 10" in text(short)


def test_exports(client, match_id, hand_id):
    post_event(client, match_id, "hand_recorded", {"dealer": "Ann", "result": knock_result(12)})
    document = client.get(f"/m/{match_id}/export.json")
    assert document.status_code == 200 and "attachment" in document.headers["Content-Disposition"]
    assert [h["result"]["points"] for h in document.json["hands"]] == [11, 12]
    assert document.json["standing"]["totals"] == {"Ann": 12, "Ben": 11}
    rows = client.get(f"/m/{match_id}/export.csv").text.strip().splitlines()
    assert rows[0] == "hand,status,dealer,knocker,result,winner,points,explanation,total Ann,total Ben,edited"
    assert rows[1].startswith("1,counted,Ben,Ann,undercut,Ben,11,") and rows[1].endswith(",0,11,no")
    assert rows[2].endswith(",12,11,no")


def test_snapshot_is_served_by_hash(client):
    data = jpeg_bytes()
    digest = client.post("/api/snapshots", data=data, headers={"X-Table-Pin": PIN}).json["sha256"]
    image = client.get(f"/snapshots/{digest}.jpg")
    assert image.status_code == 200 and image.data == data and image.mimetype == "image/jpeg"
    assert "immutable" in image.headers["Cache-Control"]
    assert client.get(f"/snapshots/{'0' * 64}.jpg").status_code == 404
    assert client.get("/snapshots/short.jpg").status_code == 404


def hand_won(winner: str, points: int) -> dict:
    return {"kind": "knock", "knocker": winner, "winner": winner, "points": points, "explanation": "", "rule": "000 §9", "players": {}}


def test_scoreboard_shows_who_deals_next_from_the_match_scorer(client):
    match_id = new_match(client, first_dealer="Ben")
    assert re.search(r'Ben <span class="chip deals"', client.get(f"/m/{match_id}").text)
    post_event(client, match_id, "hand_recorded", {"result": hand_won("Ben", 20)})
    assert re.search(r'Ann <span class="chip deals"', client.get(f"/m/{match_id}").text), "the loser deals (000 §3)"


def test_the_000_13_example_settles_on_the_scoreboard(client):
    match_id = new_match(client, first_dealer="Ben")
    for winner, points in (("Ann", 23), ("Ann", 27), ("Ben", 32), ("Ann", 35), ("Ben", 10), ("Ann", 19)):
        assert post_event(client, match_id, "hand_recorded", {"result": hand_won(winner, points)}).status_code == 201
    page = text(client.get(f"/m/{match_id}"))
    assert "Match over: Ann wins" in page
    rows = re.findall(r"<tr(?: class=\"sum\")?><td>(\w+)</td><td>(\d+)</td><td>(\d+)</td></tr>", page)
    assert rows == [("hands", "104", "42"), ("boxes", "80", "40"), ("game", "100", "0"), ("total", "284", "82")]
    assert "<strong>Ben</strong> pays <strong>Ann</strong> 202" in page
    late = post_event(client, match_id, "hand_recorded", {"result": hand_won("Ben", 5)})
    assert late.status_code == 400 and late.json["field"] == "hand" and "the match is over" in late.json["message"]
    document = client.get(f"/m/{match_id}/export.json").json
    assert document["standing"]["transfers"] == [{"payer": "Ben", "payee": "Ann", "amount": 202}]


def test_result_page_quotes_the_rulebook_paragraph(tmp_path, client, app, match_id, hand_id):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "000_gin.txt").write_text(
        "Gin Rummy\n\n§ 9\nGewinn des Klopfers\n\nDer Klopfer gewinnt.\n\n§ 10\nGewinn des Gegners\n\nDer Gegner gewinnt mit Prämie.\n",
        encoding="utf-8")
    app.config["RULES_DIR"] = tmp_path / "rules"
    page = text(client.get(f"/m/{match_id}/hands/{hand_id}"))
    assert "Rulebook <strong>000 §10</strong> · Gewinn des Gegners" in page
    assert "<blockquote>Der Gegner gewinnt mit Prämie.</blockquote>" in page
    app.config["RULES_DIR"] = None
    assert "<blockquote>" not in client.get(f"/m/{match_id}/hands/{hand_id}").text


def test_correcting_a_hand_by_cards(client, match_id, hand_id):
    token = csrf_of(client)
    form = {"hand0": "7H 8H 9H KS KD KC 2C 3C 4C 5D", "hand1": "AS 2S 3S 4D 5S 6S QH QD JC 9D", "knocker": "Ann",
            "reason": "camera misread", "csrf_token": token}
    assert client.post(f"/m/{match_id}/hands/{hand_id}/edit", data=form).status_code == 403
    token = unlocked(client)
    duplicate = client.post(f"/m/{match_id}/hands/{hand_id}/edit", data={**form, "hand1": "7H", "csrf_token": token})
    assert duplicate.status_code == 400 and "duplicate card '7H'" in text(duplicate)
    page = client.post(f"/m/{match_id}/hands/{hand_id}/edit", data={**form, "csrf_token": token})
    assert page.status_code == 302 and page.headers["Location"].endswith(f"/hands/{hand_id}")
    events = client.get(f"/m/{match_id}/export.json").json["events"]
    assert [e["kind"] for e in events] == ["match_created", "hand_recorded", "hand_corrected"]
    assert events[1]["payload"]["result"]["points"] == 11, "the original stays as it was"
    assert client.get(f"/api/matches/{match_id}").json["totals"] == {"Ann": 49, "Ben": 0}
    history = client.get(f"/m/{match_id}/history").text
    assert "Cy @ 127.0.0.1" in history and "camera misread" in history
