"""The multi-player forms in a real headless Chromium: a Wiener Rummy elimination arriving live on a
phone, partnership scoring by tapping cards on a tablet, the tile Rummy turn timer, tournaments."""

from __future__ import annotations

import json
import time
import urllib.request

from tests.webui.games import GIN_KNOCKER, GIN_OPPONENT, TILES_BEN, TILES_CY, wiener_round
from tests.webui.support import PIN, screenshot

def http_post(server: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def http_get(server: str, path: str) -> dict:
    with urllib.request.urlopen(server + path, timeout=5) as response:
        return json.load(response)


def new_match(server: str, game: str, players: list[str], **extra) -> str:
    return http_post(server, "/api/matches", {"game": game, "players": players, **extra})["match_id"]


def test_wiener_elimination_arrives_live_on_a_phone(server, phone):
    match_id = new_match(server, "wiener", ["Ann", "Ben", "Cy", "Dee"])
    hands = wiener_round()
    hands["hands"]["Dee"] = "KC QC JC 4H 5H 6H 8S 8C 8H 3C"  # a run, a set and 3 deadwood
    http_post(server, f"/api/matches/{match_id}/hands", hands)
    phone.goto(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ben"]').inner_text() == "99"
    assert phone.locator(".rebuy button").all_inner_texts() == ["Ben"], "99 points: Ben may buy back in (001)"
    phone.wait_for_function("!document.querySelector('.live-status.down')")
    phone.evaluate("window.__same_page = true")
    time.sleep(0.3)  # let the EventSource connect
    http_post(server, f"/api/matches/{match_id}/hands", hands)
    phone.wait_for_function("document.querySelector('.total[data-player=\"Ben\"]').textContent.trim() === '198'",
                            timeout=10000)
    assert phone.evaluate("window.__same_page") is True, "the page reloaded instead of updating live"
    ben = phone.locator(".player", has=phone.locator('.total[data-player="Ben"]'))
    assert "out" in ben.get_attribute("class") and ben.locator(".chip").all_text_contents() == ["out"]
    assert phone.locator(".rebuy").count() == 0, "an eliminated player cannot buy back in"
    assert phone.locator('.money[data-money="Ann"]').inner_text() == "+1 units"
    screenshot(phone, "wiener-scoreboard")
    phone.click(".hands li:first-child a")
    assert "Ann knocks with 2" in phone.locator(".verdict").inner_text()
    assert phone.locator(".settlement td").all_inner_texts()[-4:] == ["+3", "-1", "-1", "-1"]
    screenshot(phone, "wiener-result")


def test_wiener_rebuy_needs_the_pin(server, phone):
    match_id = new_match(server, "wiener", ["Ann", "Ben", "Cy"])
    http_post(server, f"/api/matches/{match_id}/hands", wiener_round())
    phone.goto(f"{server}/m/{match_id}")
    phone.click('.rebuy button[value="Ben"]')  # the PIN field is required: the browser keeps the form
    assert http_get(server, f"/api/matches/{match_id}")["rebuys"] == []
    phone.fill('.rebuy input[name="pin"]', PIN)
    phone.click('.rebuy button[value="Ben"]')
    phone.wait_for_url(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ben"]').inner_text() == "6", "Ben takes Cy's 6 (closest below 81)"
    assert "re-bought" in phone.locator(".chip").all_text_contents()
    assert http_get(server, f"/api/matches/{match_id}")["facts"]["Pot"] == "20"

    # entered by mistake: undone from the history, the re-buy stays on record
    phone.goto(f"{server}/m/{match_id}/history")
    (rebuy,) = phone.locator("article[id^=rebuy-]").all()
    rebuy.locator('input[name="reason"]').fill("Ben did not pay in")
    rebuy.locator("button").click()
    phone.wait_for_url(f"{server}/m/{match_id}/history*")
    trail = phone.locator("article[id^=rebuy-] .audit").inner_text()
    assert "Ben bought back in" in trail and "Ben re-buy undone Ben did not pay in" in trail
    assert phone.locator("article[id^=rebuy-] .tag").inner_text() == "undone"
    screenshot(phone, "history-rebuy-undone")
    phone.goto(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ben"]').inner_text() == "99"
    assert phone.locator(".rebuy button").all_inner_texts() == ["Ben"], "back at 99: Ben may buy back in again"


def test_partnership_round_scored_by_tapping_on_a_tablet(server, tablet):
    match_id = new_match(server, "partnership", ["Ann", "Ben", "Cy", "Dee"])
    tablet.goto(f"{server}/m/{match_id}")
    screenshot(tablet, "partnership-scoreboard-tablet")
    tablet.goto(f"{server}/m/{match_id}/score")
    seats = tablet.locator(".seat")
    assert [s.strip() for s in seats.all_inner_texts()] == ["T1 Ben 0", "T1 Ann 0", "T2 Dee 0", "T2 Cy 0"]
    for seat, codes in (("hand1", GIN_OPPONENT), ("hand0", GIN_KNOCKER), ("hand3", GIN_OPPONENT), ("hand2", GIN_KNOCKER)):
        tablet.tap(f'.seat[data-seat="{seat}"]')
        for code in codes.split():
            tablet.tap(f'.pick[data-card="{code}"]')
    # each table plays its own deck: the same cards at table 2 did not leave table 1
    assert tablet.input_value('input[name="hand0"]') == GIN_KNOCKER
    assert tablet.input_value('input[name="hand2"]') == GIN_KNOCKER
    tablet.check('input[name="knocker0"][value="Ann"]')
    tablet.check('input[name="knocker1"][value="Cy"]')
    tablet.fill('input[name="pin"]', PIN)
    screenshot(tablet, "partnership-score-tablet")
    tablet.click("#scorer button.primary")
    tablet.wait_for_url(f"{server}/m/{match_id}/hands/*")
    assert "Ann+Cy +56" in tablet.locator(".verdict").inner_text()
    assert tablet.locator(".table-title").count() == 2
    screenshot(tablet, "partnership-result-tablet")
    tablet.goto(f"{server}/m/{match_id}")
    assert tablet.locator('.total[data-player="Ann+Cy"]').inner_text() == "56"


def test_wiener_picker_takes_two_copies_and_a_joker(server, phone):
    match_id = new_match(server, "wiener", ["Ann", "Ben", "Cy"])
    phone.goto(f"{server}/m/{match_id}/score")
    phone.tap('.pick[data-card="AS"]')
    phone.tap('.pick[data-card="AS"]')
    phone.tap('.pick[data-card="JK"]')
    assert phone.input_value('input[name="hand0"]') == "AS AS JK"
    assert phone.locator('.pick[data-card="AS"]').get_attribute("data-held") == "×2"
    phone.tap('.seat[data-seat="hand1"]')
    phone.tap('.pick[data-card="AS"]')  # both copies are Ann's: one moves over to Ben
    assert phone.input_value('input[name="hand0"]') == "AS JK"
    assert phone.input_value('input[name="hand1"]') == "AS"
    screenshot(phone, "wiener-score")


def test_tile_timer_counts_down_from_server_time_on_every_phone(server, phone, browser):
    match_id = new_match(server, "tiles", ["Ann", "Ben", "Cy"], options={"turn_seconds": 30})
    http_post(server, f"/api/matches/{match_id}/hands", {"winner": "Ann", "hands": {"Ann": "", "Ben": TILES_BEN, "Cy": TILES_CY}})
    phone.goto(f"{server}/m/{match_id}/hand")
    assert phone.locator(".timer .clock").inner_text() == "0:30"
    phone.fill('.turns input[name="pin"]', PIN)
    phone.click('.turns button[value="Ben"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    # a second phone whose own clock is 50 s fast still shows the server's countdown
    other = browser.new_context(viewport={"width": 390, "height": 844})
    other.add_init_script("{ const real = Date.now; Date.now = () => real() + 50000; }")
    watcher = other.new_page()
    watcher.goto(f"{server}/m/{match_id}/hand")
    for page in (phone, watcher):
        page.wait_for_function("['0:29', '0:28', '0:27'].includes(document.querySelector('.timer .clock').textContent)",
                               timeout=10000)
    assert "Ben" in phone.locator(".timer .who").inner_text()
    screenshot(phone, "tiles-timer")
    other.close()
    phone.goto(f"{server}/m/{match_id}")
    assert phone.locator('.total[data-player="Ben"]').inner_text() == "-30"
    screenshot(phone, "tiles-scoreboard")
    phone.click(".hands li:first-child a")
    assert [c.get_attribute("data-card") for c in phone.locator(".shown .card").all()] == ["R5", "JK", "B13", "Y1"]
    screenshot(phone, "tiles-result")


def test_three_player_chouette_and_hollywood_scoreboards(server, phone):
    three = new_match(server, "three", ["Ann", "Ben", "Cy"])
    http_post(server, f"/api/matches/{three}/hands", {"knocker": "Ann", "hands": {"Ann": GIN_KNOCKER, "Ben": GIN_OPPONENT}})
    phone.goto(f"{server}/m/{three}")
    assert "Ben sits out" in " ".join(phone.locator(".player .name").all_text_contents())
    screenshot(phone, "three-scoreboard")
    chouette = new_match(server, "chouette", ["Ann", "Ben", "Cy"])
    phone.goto(f"{server}/m/{chouette}")
    assert phone.locator('.total[data-player="Ben+Cy"]').count() == 1
    screenshot(phone, "chouette-scoreboard")
    hollywood = new_match(server, "gin", ["Ann", "Ben"], options={"hollywood": True})
    for _ in range(2):
        http_post(server, f"/api/matches/{hollywood}/hands", {"knocker": "Ann", "hands": {"Ann": GIN_KNOCKER, "Ben": GIN_OPPONENT}})
    phone.goto(f"{server}/m/{hollywood}")
    assert [t.strip() for t in phone.locator(".game-name").all_text_contents()] == ["Game 1", "Game 2", "Game 3"]
    assert phone.locator('.total[data-player="Ann"]').all_inner_texts() == ["56", "28", "0"]
    screenshot(phone, "hollywood-scoreboard")


def test_setup_and_tournament_pages(server, phone):
    phone.goto(f"{server}/setup")
    phone.select_option("#game", "wiener")
    assert phone.locator('fieldset[data-for="wiener"]').is_visible()
    assert not phone.locator('fieldset[data-for="tiles"]').is_visible()
    assert phone.locator('input[name="player6"]').is_visible()
    phone.select_option("#game", "three")
    assert not phone.locator('input[name="player4"]').is_visible() and phone.locator('input[name="player3"]').is_visible()
    phone.select_option("#game", "wiener")
    screenshot(phone, "setup-wiener")
    phone.goto(f"{server}/tournaments/new")
    phone.fill('textarea[name="players"]', "Ann\nBen\nCy\nDee\nEve")
    phone.check('input[value="swiss"]')
    phone.fill('input[name="seed"]', "club night")
    phone.fill('input[name="pin"]', PIN)
    phone.click("button.primary")
    phone.wait_for_url(f"{server}/t/*")
    forms = phone.locator(".round.current .result-form")
    assert forms.count() == 2, "five players: two matches and a bye"
    first = forms.nth(0)
    winner = first.locator('input[name="winner"]').nth(0).get_attribute("value")
    first.locator('input[name="winner"]').nth(0).check()
    first.locator('input[name="amount"]').fill("120")
    first.locator("button").click()
    phone.wait_for_url(f"{server}/t/*")
    assert phone.locator(".standings tbody tr").nth(0).inner_text().split("\t")[1:] == [winner, "1", "+120"]
    screenshot(phone, "tournament")


def test_swiss_standings_and_next_round_arrive_live(server, phone):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
    tournament_id = http_post(server, "/api/tournaments", {"players": players, "system": "swiss", "seed": "club"})["match_id"]
    pairings = http_get(server, f"/api/tournaments/{tournament_id}")["rounds"][0]["pairings"]
    phone.goto(f"{server}/t/{tournament_id}")
    assert phone.locator(".round").count() == 1
    phone.wait_for_function("!document.querySelector('.live-status.down')")
    phone.evaluate("window.__same_page = true")
    time.sleep(0.3)  # let the EventSource connect

    def enter(pairing: dict, winner: str, amount: int) -> None:
        http_post(server, f"/api/tournaments/{tournament_id}/results",
                  {"round": 1, "first": pairing["first"], "second": pairing["second"], "winner": winner, "amount": amount})

    enter(pairings[0], pairings[0]["second"], 140)
    phone.wait_for_function(f"document.querySelector('.standings tbody tr td:nth-child(2)').textContent === "
                            f"'{pairings[0]['second']}'", timeout=10000)
    enter(pairings[1], pairings[1]["first"], 60)
    enter(pairings[2], pairings[2]["first"], 30)
    phone.wait_for_function("document.querySelectorAll('.round').length === 2", timeout=10000)
    assert phone.evaluate("window.__same_page") is True, "the page reloaded instead of updating live"
    assert phone.locator(".round.current").get_attribute("id") == "round-2"
    round_two = " ".join(phone.locator(".round.current .pairings li").all_inner_texts())
    assert phone.locator(".round.current .pairings li").count() == 3 and all(p in round_two for p in players)
    standings = [row.split("\t") for row in phone.locator(".standings tbody tr").all_inner_texts()]
    assert [(r[1], r[3]) for r in standings[:3]] == [(pairings[0]["second"], "+140"), (pairings[1]["first"], "+60"),
                                                     (pairings[2]["first"], "+30")]
    screenshot(phone, "tournament-live")


def test_a_result_being_typed_is_not_wiped_by_a_live_update(server, phone):
    tournament_id = http_post(server, "/api/tournaments", {"players": ["Ann", "Ben", "Cy", "Dee"], "seed": "club"})["match_id"]
    first, second = http_get(server, f"/api/tournaments/{tournament_id}")["rounds"][0]["pairings"]
    phone.goto(f"{server}/t/{tournament_id}")
    phone.wait_for_function("!document.querySelector('.live-status.down')")
    time.sleep(0.3)  # let the EventSource connect
    typing = phone.locator("#round-1 .result-form").nth(1).locator('input[name="amount"]')
    typing.fill("77")  # and the field keeps the focus
    http_post(server, f"/api/tournaments/{tournament_id}/results",
              {"round": 1, "first": first["first"], "second": first["second"], "winner": first["first"], "amount": 50})
    time.sleep(1.5)
    assert typing.input_value() == "77" and typing.evaluate("field => field === document.activeElement")
    assert phone.locator(".standings .pts").first.inner_text() == "0", "no update while typing"
    phone.locator("h1").click()  # leaves the field, still filled in: on to the winner's radio button
    time.sleep(1.5)
    assert typing.input_value() == "77", "a filled-in form is kept when the field loses the focus"
    typing.fill("")  # given up: the update comes now
    phone.locator("h1").click()
    phone.wait_for_function("document.querySelector('.standings .pts').textContent === '+50'", timeout=10000)
