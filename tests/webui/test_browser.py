"""The dashboard in a real headless Chromium at phone size, against a real waitress server."""

from __future__ import annotations

import json
import time
import urllib.request

from tests.webui.support import PIN, knock_result, screenshot, undercut_result


def http_post(server: str, path: str, body: dict, pin: str = PIN) -> dict:
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": pin})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def start_match(server: str) -> str:
    return http_post(server, "/api/matches", {"players": ["Ann", "Ben"], "preset": "rulebook"})["match_id"]


def add_event(server: str, match_id: str, kind: str, payload: dict) -> dict:
    return http_post(server, f"/api/matches/{match_id}/events", {"kind": kind, "payload": payload})


def test_scoreboard_shows_a_new_hand_within_a_second_without_reload(server, phone):
    match_id = start_match(server)
    phone.goto(f"{server}/m/{match_id}")
    ben = phone.locator('.total[data-player="Ben"]')
    assert ben.inner_text() == "0"
    phone.wait_for_function("document.querySelector('.live-status .dot') && !document.querySelector('.live-status.down')")
    phone.evaluate("window.__same_page = true")
    time.sleep(0.3)  # let the EventSource connect
    add_event(server, match_id, "hand_recorded", {"dealer": "Ben", "result": undercut_result()})
    phone.wait_for_function("document.querySelector('.total[data-player=\"Ben\"]').textContent.trim() === '11'", timeout=10000)
    assert phone.evaluate("window.__same_page") is True, "the page reloaded instead of updating live"
    assert "undercut" in phone.locator(".hands").inner_text()
    screenshot(phone, "scoreboard")


def test_confirming_a_reading_needs_the_pin(server, phone):
    match_id = start_match(server)
    add_event(server, match_id, "table", {"stock_count": 21, "turn": "Ben"})
    for player, card in (("Ann", "KS"), ("Ben", "4D"), ("Ann", "9C")):
        add_event(server, match_id, "discard", {"player": player, "card": card})
    add_event(server, match_id, "reading_proposed", {"reading": "r1", "prompt": "Ben's discard: 6♥ or 8♥?", "choices": ["6H", "8H"]})
    phone.goto(f"{server}/m/{match_id}/hand")
    screenshot(phone, "hand")

    phone.fill('.confirm input[name="pin"]', "000000")
    phone.click('.confirm button[value="6H"]')
    assert phone.locator(".error-page h1").inner_text() == "Wrong PIN"
    screenshot(phone, "wrong-pin")
    state = json.load(urllib.request.urlopen(f"{server}/api/matches/{match_id}"))
    assert [r["reading"] for r in state["pending_readings"]] == ["r1"]

    phone.goto(f"{server}/m/{match_id}/hand")
    phone.fill('.confirm input[name="pin"]', PIN)
    phone.click('.confirm button[value="6H"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    assert "6H" in phone.locator("#live").inner_text()
    assert phone.locator(".confirm").count() == 0
    state = json.load(urllib.request.urlopen(f"{server}/api/matches/{match_id}"))
    assert state["pending_readings"] == []


def test_undo_a_hand_from_history_keeps_the_original(server, phone):
    match_id = start_match(server)
    first = add_event(server, match_id, "hand_recorded", {"dealer": "Ben", "result": knock_result(12)})
    add_event(server, match_id, "hand_recorded", {"dealer": "Ben", "result": undercut_result()})
    phone.goto(f"{server}/m/{match_id}/hands/{first['id'] + 1}")
    screenshot(phone, "result")
    phone.goto(f"{server}/m/{match_id}/history")
    card = phone.locator(f"#hand-{first['id']}")
    card.locator('input[name="pin"]').fill(PIN)
    card.locator('input[name="reason"]').fill("dealt by the wrong player")
    card.locator("button").click()
    phone.wait_for_url(f"{server}/m/{match_id}/history")
    card = phone.locator(f"#hand-{first['id']}")
    assert "undone" in card.inner_text() and "dealt by the wrong player" in card.inner_text()
    assert "recorded" in card.inner_text().lower(), "the original record must stay in the audit trail"
    screenshot(phone, "history")
    phone.goto(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ann"]').inner_text() == "0"
    assert phone.locator('.total[data-player="Ben"]').inner_text() == "11"


def test_card_picker_assigns_tapped_cards_to_the_chosen_player(server, phone):
    match_id = start_match(server)
    phone.goto(f"{server}/m/{match_id}/score")
    for code in ("7H", "8H", "9H"):
        phone.click(f'.pick[data-card="{code}"]')
    phone.click('.seat[data-seat="hand1"]')
    phone.click('.pick[data-card="KS"]')
    phone.click('.pick[data-card="8H"]')  # taken from Ann's hand to Ben's
    assert phone.input_value('input[name="hand0"]') == "7H 9H"
    assert phone.input_value('input[name="hand1"]') == "KS 8H"
    assert phone.locator('.seat[data-seat="hand1"] .count').inner_text() == "2"
    assert phone.locator('.pick[data-card="8H"]').get_attribute("aria-pressed") == "true"
    screenshot(phone, "score")


def test_screenshots_of_the_other_pages(server, phone):
    start_match(server)
    for name, path in (("index", "/"), ("setup", "/setup"), ("host", "/host"), ("unlock", "/unlock")):
        phone.goto(server + path)
        assert phone.locator("h1").count() == 1, name
        screenshot(phone, name)
    assert phone.locator("#pin").count() == 0  # /unlock has no PIN on show
    phone.goto(server + "/host")
    assert phone.locator("#pin").inner_text() == PIN  # the host's own screen (loopback) shows it
    assert phone.locator(".qr svg").count() == 1


def test_manual_scoring_by_tapping_cards_shows_the_engine_result(server, phone):
    match_id = start_match(server)
    phone.goto(f"{server}/m/{match_id}/score")
    for code in "AS 2S 3S 7H 7D 7C 9D 10D JD 5C".split():
        phone.tap(f'.pick[data-card="{code}"]')
    phone.tap('.seat[data-seat="hand1"]')
    for code in "4S 5S QH QD QC 2C 3C 8H KD KS".split():
        phone.tap(f'.pick[data-card="{code}"]')
    phone.check('input[name="knocker"][value="Ann"]')
    phone.fill('input[name="pin"]', PIN)
    phone.click("#scorer button.primary")
    phone.wait_for_url(f"{server}/m/{match_id}/hands/*")
    verdict = phone.locator(".verdict").inner_text()
    assert "Ann scores 28" in verdict.replace("\n", " ")
    assert "Ben lays off 4S 5S: 42 -> 33. Ben 33 > Ann 5: Ann wins 33 - 5 = 28." in verdict
    laid = phone.locator(".card.laid")
    assert sorted(laid.nth(i).get_attribute("data-card") for i in range(laid.count())) == ["4S", "5S"]
    screenshot(phone, "result-scored")
    phone.goto(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ann"]').inner_text() == "28"
