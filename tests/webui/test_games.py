"""Every game form through Flask's test client: set-up, scoring from cards, re-buy, turn timer,
good and bad input, and the PIN."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.webui.games import (GIN_KNOCKER, GIN_OPPONENT, TILES_BEN, TILES_CY, WIENER_BIG, WIENER_KNOCKER,
                               WIENER_LOW, wiener_round)
from tests.webui.support import PIN, api_post, csrf_of, knock_result, post_event
from tests.webui.test_pages import text, unlocked

GIN_TABLE = {"Ann": GIN_KNOCKER, "Ben": GIN_OPPONENT}


def create(client, game: str, players: list[str], **extra) -> str:
    response = api_post(client, "/api/matches", {"game": game, "players": players, **extra})
    assert response.status_code == 201, response.json
    return response.json["match_id"]


def post_hand(client, match_id: str, body: dict, pin: str | None = PIN):
    return api_post(client, f"/api/matches/{match_id}/hands", body, pin)


def state(client, match_id: str) -> dict:
    return client.get(f"/api/matches/{match_id}").json


def scored(client, match_id: str, body: dict) -> dict:
    response = post_hand(client, match_id, body)
    assert response.status_code == 201, response.json
    return response.json


# -- set-up -----------------------------------------------------------------------------
@pytest.mark.parametrize("body, field, message", [
    ({"game": "three", "players": ["Ann", "Ben"]}, "players", "Gin Rummy for three is played by three players, got 2"),
    ({"game": "partnership", "players": ["A", "B", "C", "D", "E"]}, "players", "played by 4 or 6 players, got 5"),
    ({"game": "wiener", "players": ["A"] }, "players", "played by 2 to 6 players, got 1"),
    ({"game": "tiles", "players": list("ABCDE")}, "players", "played by 2 to 4 players, got 5"),
    ({"game": "wiener", "players": ["A", "B"], "options": {"knock": 5}}, "options", "unknown Wiener Rummy option 'knock'"),
    ({"game": "wiener", "players": ["A", "B"], "options": {"undercut": "yes"}}, "options", "'undercut' must be bool"),
    ({"game": "wiener", "players": ["A", "B"], "options": {"layoffs": "left"}}, "options", "layoffs must be 'none'"),
    ({"game": "wiener", "players": ["A", "B"], "preset": "house"}, "preset", "Wiener Rummy has no preset 'house'"),
    ({"game": "tiles", "players": ["A", "B"], "options": {"jokers": 3}}, "options.jokers", "4 jokers or 2"),
    ({"game": "tiles", "players": ["A", "B"], "options": {"rounds": 0}}, "options.rounds", "rounds must be a whole number 1..20"),
    ({"game": "tiles", "players": ["A", "B"], "first_dealer": "Cy"}, "first_dealer", "'Cy' is not one of the players"),
    ({"game": "chouette", "players": ["Ann", "Ben", "ann"]}, "players", "every player needs a different name"),
    ({"game": "bridge", "players": ["A", "B"]}, "game", "unknown game 'bridge'"),
])
def test_new_matches_of_every_form_reject_bad_input(client, body, field, message):
    response = api_post(client, "/api/matches", body)
    assert response.status_code == 400 and response.json["field"] == field and message in response.json["message"]


def test_setup_form_creates_every_form_with_its_options(client):
    token = unlocked(client)
    forms = {
        "hollywood": ({"match_target": "50"}, ["Ann", "Ben"], {"hollywood": True, "match_target": 50}),
        "partnership": ({"match_target": "200"}, ["A", "B", "C", "D"], {"four_player_target": 200}),
        "wiener": ({"knock_limit": "10", "undercut": "1", "layoffs": "right"}, ["A", "B", "C"],
                   {"knock_limit": 10, "undercut": True, "layoffs": "right", "rummy_kitty": False}),
        "tiles": ({"rounds": "6", "jokers": "2", "turn_seconds": "90"}, ["A", "B"],
                  {"rounds": 6, "jokers": 2, "turn_seconds": 90}),
    }
    for choice, (fields, players, options) in forms.items():
        data = {"game": choice, "csrf_token": token, **fields, **{f"player{i + 1}": p for i, p in enumerate(players)}}
        response = client.post("/setup", data=data)
        assert response.status_code == 302, text(response)
        created = state(client, response.headers["Location"].rsplit("/", 1)[1])
        assert created["players"] == players and created["options"] == options, choice


def test_setup_form_bad_input_and_missing_pin(client):
    token = csrf_of(client)
    refused = client.post("/setup", data={"game": "tiles", "player1": "A", "player2": "B", "csrf_token": token})
    assert refused.status_code == 403 and "needs the table PIN" in text(refused)
    token = unlocked(client)
    bad = client.post("/setup", data={"game": "tiles", "player1": "A", "player2": "B", "rounds": "many", "csrf_token": token})
    assert bad.status_code == 400 and "rounds: must be a whole number 1..600, got 'many'" in text(bad)
    bad = client.post("/setup", data={"game": "wiener", "player1": "A", "csrf_token": token})
    assert bad.status_code == 400 and "Wiener Rummy is played by 2 to 6 players, got 1" in text(bad)
    assert client.get("/api/matches/none").status_code == 404 and client.get("/").text.count('class="matches"') == 1


# -- the Gin forms ----------------------------------------------------------------------
def test_three_player_gin_seats_and_scores_from_cards(client):
    match_id = create(client, "three", ["Ann", "Ben", "Cy"])
    assert state(client, match_id)["tables"] == [{"players": ["Ann", "Ben"], "dealer": "Ben"}]
    wrong = post_hand(client, match_id, {"knocker": "Cy", "hands": GIN_TABLE})
    assert wrong.status_code == 400 and wrong.json["field"] == "knocker" and "'Cy' is not at play" in wrong.json["message"]
    hand = scored(client, match_id, {"knocker": "Ann", "hands": GIN_TABLE})
    assert hand["payload"]["dealer"] == "Ben" and hand["payload"]["result"]["points"] == 28
    after = state(client, match_id)
    assert after["sheets"][0]["tags"] == {"Ann": ["forehand"], "Ben": ["sits out"], "Cy": ["deals"]}
    page = client.get(f"/m/{match_id}/score")
    assert page.status_code == 200 and 'data-seat="hand0"' in page.text and 'data-seat="hand2"' in page.text
    assert 'data-seat="hand1"' not in page.text, "the player sitting out shows no cards"


def test_chouette_team_column_and_payments_per_player(client):
    match_id = create(client, "chouette", ["Dan", "Pat", "Quin"], options={"match_target": 25})
    scored(client, match_id, {"knocker": "Pat", "hands": {"Pat": GIN_KNOCKER, "Dan": GIN_OPPONENT}})
    after = state(client, match_id)
    assert after["totals"] == {"Dan": 0, "Pat+Quin": 28} and after["finished"] and after["winner"] == "Pat+Quin"
    page = client.get(f"/m/{match_id}")
    payments = re.findall(r"<strong>(\w+)</strong> pays <strong>(\w+)</strong> (\d+)", page.text)
    assert payments == [("Dan", "Pat", "248"), ("Dan", "Quin", "248")]  # 28 + 20 box + 100 game + 100 shutout
    over = client.get(f"/m/{match_id}/score")
    assert over.status_code == 409 and "the match is over" in text(over)


def test_partnership_round_adds_the_tables(client):
    match_id = create(client, "partnership", ["Ann", "Ben", "Cy", "Dee"])
    hands = {"Ann": GIN_KNOCKER, "Ben": GIN_OPPONENT, "Cy": GIN_OPPONENT, "Dee": GIN_KNOCKER}
    missing = post_hand(client, match_id, {"knocker": "Ann", "hands": hands})
    assert missing.status_code == 400 and missing.json["field"] == "knockers"
    twice = post_hand(client, match_id, {"knockers": ["Ann", "Dee"], "hands": {**hands, "Ben": GIN_KNOCKER}})
    assert twice.status_code == 400 and twice.json["field"] == "hands" and "duplicate card" in twice.json["message"]
    result = scored(client, match_id, {"knockers": ["Ann", "Dee"], "hands": hands})["payload"]["result"]
    assert [t["winner"] for t in result["tables"]] == ["Ann", "Dee"]
    assert result["winner"] is None and result["headline"] == "round cancels out"
    team_wins = {"Ann": GIN_KNOCKER, "Ben": GIN_OPPONENT, "Cy": GIN_KNOCKER, "Dee": GIN_OPPONENT}
    tables = state(client, match_id)["tables"]
    assert tables == [{"players": ["Ben", "Cy"], "dealer": "Ben"}, {"players": ["Dee", "Ann"], "dealer": "Dee"}], \
        "partners change opponents each round (000 §16)"
    result = scored(client, match_id, {"knockers": ["Cy", "Ann"], "hands": team_wins})["payload"]["result"]
    assert result["winner"] == "Ann+Cy" and result["points"] == 56
    assert state(client, match_id)["totals"] == {"Ann+Cy": 56, "Ben+Dee": 0}
    rows = list(csv.reader(io.StringIO(client.get(f"/m/{match_id}/export.csv").text)))
    assert rows[0][-3:] == ["total Ann+Cy", "total Ben+Dee", "edited"] and rows[2][-3:] == ["56", "0", "no"]
    page = client.get(f"/m/{match_id}/hands/{state(client, match_id)['hands'][1]['hand']}")
    assert page.status_code == 200 and text(page).count('class="table-title"') == 2


def test_hollywood_keeps_three_games(client):
    match_id = create(client, "gin", ["Ann", "Ben"], options={"hollywood": True})
    for _ in range(3):
        scored(client, match_id, {"knocker": "Ann", "hands": GIN_TABLE})
    sheets = state(client, match_id)["sheets"]
    assert [s["totals"]["Ann"] for s in sheets] == [84, 56, 28]
    assert client.get(f"/m/{match_id}").text.count('class="game-name"') == 3


def test_a_raw_result_is_only_for_single_gin_hands(client):
    three = create(client, "three", ["Ann", "Ben", "Cy"])
    assert post_event(client, three, "hand_recorded", {"result": knock_result()}).status_code == 201
    off_table = post_event(client, three, "hand_recorded", {"result": {**knock_result(), "winner": "Ben", "knocker": "Ben"}})
    assert off_table.status_code == 400 and "winner 'Ben' is not at play" in off_table.json["message"], "Ben sits out"
    wiener = create(client, "wiener", ["Ann", "Ben"])
    refused = post_event(client, wiener, "hand_recorded", {"result": knock_result()})
    assert refused.status_code == 400 and refused.json["field"] == "result"
    assert f"post them to /api/matches/{wiener}/hands" in refused.json["message"]


# -- Wiener Rummy ---------------------------------------------------------------------------
def test_wiener_round_from_cards_with_penalties_and_money(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    result = scored(client, match_id, wiener_round())["payload"]["result"]
    assert result["penalties"] == [2, 99, 6] and result["payments"] == [2, -1, -1] and result["knocker"] == "Ann"
    assert result["players"]["Cy"]["melds"][0] == ["AH", "AD", "JK"]
    after = state(client, match_id)
    assert after["totals"] == {"Ann": 2, "Ben": 99, "Cy": 6}
    assert after["money"] == {"Ann": -3, "Ben": -6, "Cy": -6} and after["facts"]["Pot"] == "15"
    assert after["rebuy_allowed"] == ["Ben"] and after["tables"] == [{"players": ["Ann", "Ben", "Cy"], "dealer": "Ben"}]


@pytest.mark.parametrize("change, field, message", [
    ({"knocker": "Dee"}, "knocker", "'Dee' is not playing this round"),
    ({"hands": {"Ann": WIENER_KNOCKER, "Ben": WIENER_BIG, "Cy": "3H 4H"}}, "hands", "Cy has 2 cards; a round is settled with 10 each"),
    ({"hands": {"Ann": WIENER_KNOCKER, "Ben": WIENER_BIG, "Cy": WIENER_LOW.replace("6S", "AS")}}, "hands",
     "duplicate card 'AS': AS appears 3 times"),
    ({"hands": {"Ann": WIENER_KNOCKER, "Ben": WIENER_BIG, "Cy": "JK JK JK 2D 2H 2S AH AD 3C 6S"}}, "hands.Cy",
     "JK appears 3 times, but a two-deck game holds it twice"),
    ({"knocker": "Ben"}, "hands", "illegal knock: deadwood 99 is above the knock limit 5"),
])
def test_wiener_bad_rounds_are_refused(client, change, field, message):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    response = post_hand(client, match_id, {**wiener_round(), **change})
    assert response.status_code == 400 and response.json["field"] == field, response.json
    assert message in response.json["message"]
    assert state(client, match_id)["hands"] == []


def test_wiener_rebuy_elimination_and_undo_checks(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    first = scored(client, match_id, wiener_round())["id"]
    assert post_event(client, match_id, "rebuy", {"player": "Ben"}, pin=None).status_code == 403
    too_low = post_event(client, match_id, "rebuy", {"player": "Cy"})
    assert too_low.status_code == 400 and too_low.json["field"] == "player"
    assert "Cy has 6 points; a re-buy needs 81-100" in too_low.json["message"]
    assert post_event(client, match_id, "rebuy", {"player": "Ben"}).status_code == 201
    after = state(client, match_id)
    assert after["totals"]["Ben"] == 6 and after["facts"]["Pot"] == "20" and after["rebuys"] == ["Ben"]
    undo = post_event(client, match_id, "hand_voided", {"hand": first, "reason": "misdeal"})
    assert undo.status_code == 400 and "no re-buy: Ben has 0 points" in undo.json["message"], \
        "undoing the round would leave the re-buy without a reason"
    scored(client, match_id, wiener_round())
    after = state(client, match_id)
    assert after["totals"]["Ben"] == 105 and after["sheets"][0]["out"] == ["Ben"]
    assert after["tables"][0]["players"] == ["Ann", "Cy"]
    page = client.get(f"/m/{match_id}")
    assert "Re-buy" not in page.text and 'class="chip out"' in page.text


def test_wiener_rebuy_form_needs_the_pin(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    scored(client, match_id, wiener_round())
    page = client.get(f"/m/{match_id}")
    assert f'action="/m/{match_id}/rebuy"' in page.text and 'value="Ben"' in page.text
    token = csrf_of(client, f"/m/{match_id}")
    refused = client.post(f"/m/{match_id}/rebuy", data={"player": "Ben", "csrf_token": token})
    assert refused.status_code == 403 and state(client, match_id)["rebuys"] == []
    bad = client.post(f"/m/{match_id}/rebuy", data={"player": "Zed", "csrf_token": token, "pin": PIN})
    assert bad.status_code == 400 and "'Zed' is not a player" in text(bad)
    done = client.post(f"/m/{match_id}/rebuy", data={"player": "Ben", "csrf_token": token})
    assert done.status_code == 302 and state(client, match_id)["rebuys"] == ["Ben"]
    assert re.search(r'<span class="what">Ben</span> bought back in <small class="muted">someone @ 127.0.0.1',
                     client.get(f"/m/{match_id}/history").text), "the audit trail names who re-bought"
    gin = create(client, "gin", ["Ann", "Ben"])
    assert post_event(client, gin, "rebuy", {"player": "Ben"}).json["message"] == "kind: only Wiener Rummy has a re-buy"


def test_wiener_scoring_form_prefills_a_correction(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    hand = scored(client, match_id, wiener_round())["id"]
    page = client.get(f"/m/{match_id}/score")
    assert page.status_code == 200 and 'data-copies="2" data-jokers="2"' in page.text and 'data-card="JK"' in page.text
    token = unlocked(client)
    form = {"hand0": WIENER_KNOCKER, "hand1": WIENER_LOW, "hand2": WIENER_BIG, "knocker": "Ann", "csrf_token": token,
            "reason": "Ben and Cy swapped"}
    assert client.post(f"/m/{match_id}/hands/{hand}/edit", data=form).status_code == 302
    assert state(client, match_id)["totals"] == {"Ann": 2, "Ben": 6, "Cy": 99}
    edit = client.get(f"/m/{match_id}/hands/{hand}/edit")
    assert f'value="{WIENER_LOW}"' in edit.text and 'name="reason"' in edit.text


# -- tile Rummy --------------------------------------------------------------------------
def test_tile_rounds_score_the_racks(client):
    match_id = create(client, "tiles", ["Ann", "Ben", "Cy"], options={"rounds": 2})
    result = scored(client, match_id, {"winner": "Ann", "hands": {"Ann": "", "Ben": TILES_BEN, "Cy": TILES_CY}})
    assert result["payload"]["result"]["points"] == {"Ann": 44, "Ben": -30, "Cy": -14}
    draw = scored(client, match_id, {"winner": "", "hands": {"Ann": "R1", "Ben": "R2", "Cy": "R3"}})
    assert draw["payload"]["result"]["kind"] == "draw"
    after = state(client, match_id)
    assert after["finished"] and after["winner"] == "Ann" and after["totals"] == {"Ann": 44, "Ben": -30, "Cy": -14}
    more = post_hand(client, match_id, {"winner": "Ann", "hands": {"Ann": "", "Ben": "R1", "Cy": "R2"}})
    assert more.status_code == 400 and "no more rounds can be scored" in more.json["message"]


def test_a_tile_match_is_played_with_the_set_chosen_at_setup(client):
    token = unlocked(client)
    data = {"game": "tiles", "csrf_token": token, "set": "rummikub", "player1": "Ann", "player2": "Ben"}
    response = client.post("/setup", data=data)
    assert response.status_code == 302, text(response)
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    assert state(client, match_id)["options"]["set"] == "rummikub"
    result = scored(client, match_id, {"winner": "Ann", "hands": {"Ann": "", "Ben": "K5 O7 JK"}})
    assert result["payload"]["result"]["points"] == {"Ann": 37, "Ben": -37}
    wrong = post_hand(client, match_id, {"winner": "Ann", "hands": {"Ann": "", "Ben": "Y5"}})
    assert wrong.status_code == 400 and "not one of K, B, O, R" in wrong.json["message"]
    unknown = api_post(client, "/api/matches", {"game": "tiles", "players": ["A", "B"], "options": {"set": "domino"}})
    assert unknown.status_code == 400 and "tile set must be one of ravensburger, rummikub" in unknown.json["message"]


@pytest.mark.parametrize("body, field, message", [
    ({"winner": "Ben", "hands": {"Ann": "", "Ben": TILES_BEN, "Cy": TILES_CY}}, "winner", "Ben still has R5 JK"),
    ({"hands": {"Ann": "", "Ben": TILES_BEN, "Cy": TILES_CY}}, "winner", "say who laid out every tile"),
    ({"winner": "Dee", "hands": {}}, "winner", "'Dee' is not a player"),
    ({"winner": "Ann", "hands": {"Ben": "R5 Q7"}}, "hands.Ben", "malformed tile code 'Q7'"),
    ({"winner": "Ann", "hands": {"Ben": "R5 R5", "Cy": "R5"}}, "hands", "R5 appears 3 times"),
    ({"winner": "Ann", "hands": {"Ben": "JK JK JK", "Cy": "JK JK"}}, "hands", "JK appears 5 times"),
])
def test_tile_bad_rounds_are_refused(client, body, field, message):
    match_id = create(client, "tiles", ["Ann", "Ben", "Cy"])
    response = post_hand(client, match_id, body)
    assert response.status_code == 400 and response.json["field"] == field, response.json
    assert message in response.json["message"]


def test_tile_turn_timer_is_started_by_an_event_with_the_pin(client):
    match_id = create(client, "tiles", ["Ann", "Ben"], options={"turn_seconds": 90})
    page = client.get(f"/m/{match_id}/hand")
    assert 'class="timer"' in page.text and 'data-seconds="90"' in page.text and 'data-started=""' in page.text
    assert "Discard pile" not in page.text
    token = csrf_of(client, f"/m/{match_id}/hand")
    refused = client.post(f"/m/{match_id}/turn", data={"player": "Ben", "csrf_token": token})
    assert refused.status_code == 403 and state(client, match_id)["turn_since"] is None
    bad = client.post(f"/m/{match_id}/turn", data={"player": "Zed", "csrf_token": token, "pin": PIN})
    assert bad.status_code == 400
    assert client.post(f"/m/{match_id}/turn", data={"player": "Ben", "csrf_token": token}).status_code == 302
    started = state(client, match_id)["turn_since"]
    part = client.get(f"/m/{match_id}/part/hand").text
    assert started and re.search(r'data-started="\d{13}"', part) and re.search(r'data-now="\d{13}"', part)
    assert "<strong>Ben</strong>'s turn" in part and 'value="Ann" class="primary"' in part
    assert 'class="timer"' not in client.get(f"/m/{create(client, 'gin', ['Ann', 'Ben'])}/hand").text


def test_tile_scoring_form_uses_tiles(client):
    match_id = create(client, "tiles", ["Ann", "Ben"])
    page = client.get(f"/m/{match_id}/score")
    assert page.text.count('class="pick card tile') == 52 and 'name="winner" value=""' in page.text
    token = unlocked(client)
    response = client.post(f"/m/{match_id}/score", data={"hand0": "", "hand1": "Y13 G2", "winner": "Ann", "csrf_token": token})
    assert response.status_code == 302
    result = client.get(response.headers["Location"])
    assert "Ann out +15" in text(result) and 'data-card="Y13"' in result.text


def test_wiener_and_tile_results_quote_their_rulebook_sections(tmp_path, app, client):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "001_wiener.txt").write_text("Spielablauf\n\nZiehen.\n\nAbrechnung und Wertung\n\nBis 100 Punkte.\n"
                                          "Variationen\n\nAndere.\n", encoding="utf-8")
    (rules / "002_tiles.txt").write_text("## Ende des Spiels\n\nJoker 25 Punkte!\n## Varianten\n", encoding="utf-8")
    app.config["RULES_DIR"] = rules
    wiener = create(client, "wiener", ["Ann", "Ben", "Cy"])
    page = text(client.get(f"/m/{wiener}/hands/{scored(client, wiener, wiener_round())['id']}"))
    assert "Rulebook <strong>001 Abrechnung und Wertung</strong>" in page and "<blockquote>Bis 100 Punkte.</blockquote>" in page
    tiles = create(client, "tiles", ["Ann", "Ben"])
    hand = scored(client, tiles, {"winner": "Ann", "hands": {"Ann": "", "Ben": TILES_BEN}})["id"]
    page = text(client.get(f"/m/{tiles}/hands/{hand}"))
    assert "<blockquote>Joker 25 Punkte!</blockquote>" in page and "left on the rack: 30" in page


def test_wiener_rebuy_undo_keeps_the_rebuy_on_record_and_needs_the_pin(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    scored(client, match_id, wiener_round())
    rebuy = post_event(client, match_id, "rebuy", {"player": "Ben"}).json["id"]
    assert state(client, match_id)["totals"]["Ben"] == 6
    token = csrf_of(client, f"/m/{match_id}/history")
    form = {"reason": "Ben did not pay", "csrf_token": token}
    assert client.post(f"/m/{match_id}/rebuys/{rebuy}/undo", data=form).status_code == 403
    assert client.post(f"/m/{match_id}/rebuys/{rebuy}/undo", data={**form, "pin": "000000"}).status_code == 403
    assert client.post(f"/m/{match_id}/rebuys/{rebuy}/undo", data={"pin": PIN, "reason": "x"}).status_code == 400  # CSRF
    assert state(client, match_id)["rebuys"] == ["Ben"]
    done = client.post(f"/m/{match_id}/rebuys/{rebuy}/undo", data={**form, "pin": PIN})
    assert done.status_code == 302 and done.location == f"/m/{match_id}/history#rebuy-{rebuy}"
    after = state(client, match_id)
    assert after["rebuys"] == [] and after["rebuys_undone"] == [{"rebuy": rebuy, "player": "Ben"}]
    assert after["totals"]["Ben"] == 99 and after["rebuy_allowed"] == ["Ben"], "back to 99: Ben may buy in again"
    assert "Pot" not in after["facts"] or after["facts"]["Pot"] != "20"
    history = text(client.get(f"/m/{match_id}/history"))
    assert re.search(r'Ben</span> bought back in <small class="muted">api @', history), "the re-buy stays on record"
    assert re.search(r'Ben</span> re-buy undone <q>Ben did not pay</q> <small class="muted">someone @ 127.0.0.1', history)
    again = client.post(f"/m/{match_id}/rebuys/{rebuy}/undo", data={**form, "pin": PIN})
    assert again.status_code == 400 and "Ben's re-buy is already undone" in text(again)
    assert client.post(f"/m/{match_id}/rebuys/999999/undo", data={**form, "pin": PIN}).status_code == 400
    # re-buying again is a new re-buy
    assert post_event(client, match_id, "rebuy", {"player": "Ben"}).status_code == 201
    assert state(client, match_id)["totals"]["Ben"] == 6


def test_undoing_a_rebuy_after_more_rounds_rescores_them_without_it(client):
    match_id = create(client, "wiener", ["Ann", "Ben", "Cy"])
    scored(client, match_id, wiener_round())
    rebuy = post_event(client, match_id, "rebuy", {"player": "Ben"}).json["id"]
    scored(client, match_id, wiener_round(big="Cy", low="Ben"))
    before = state(client, match_id)
    assert before["totals"]["Ben"] == 12 and before["sheets"][0]["out"] == ["Cy"]
    undone = post_event(client, match_id, "rebuy_voided", {"rebuy": rebuy, "reason": "entered for the wrong player"})
    assert undone.status_code == 201
    after = state(client, match_id)
    assert after["totals"]["Ben"] == 105 and after["sheets"][0]["out"] == ["Ben", "Cy"], "99 + 6 without the re-buy: out"
    missing = post_event(client, match_id, "rebuy_voided", {"rebuy": "x", "reason": "late"})
    assert missing.status_code == 400 and missing.json["message"] == "rebuy: no re-buy 'x' in this match"
    gin = create(client, "gin", ["Ann", "Ben"])
    assert post_event(client, gin, "rebuy_voided", {"rebuy": rebuy, "reason": "x"}).json["field"] == "rebuy"
