"""A question about a card the camera read where none lies is answered "no card here" by one tap:
the tracker's question, the record's choices, the hand page's button, the answer back in the tracker."""

from __future__ import annotations

import html

from engine.tracker import NOTHING, Sighting, TrackerOptions
from engine.zones import default_zones
from rummyref.pipeline import HandSession, Recorder, reading_id
from tests.webui.support import PIN, csrf_of, new_match
from webui.store import EventStore


def test_a_phantom_reading_is_answered_no_card_here_and_the_discard_beside_it_commits(app, client):
    match_id = new_match(client)
    store = EventStore(app.config["DATABASE"])
    session = HandSession(("Ann", "Ben"), "Ben", zones=default_zones("gin", 2), options=TrackerOptions(window=2, quorum=2))
    x, y = session.zones.named("discard").centre
    seen = [Sighting("9D", 0.95, x, y, "discard"), Sighting("4C", 0.45, x + 2.5, y + 4.0, "discard")]
    [question] = session.update(1, seen, True) + session.update(2, seen, True)
    recorder = Recorder(store, match_id)
    assert recorder.record([question], session.hand, session.tracker, None) == 1

    page = html.unescape(client.get(f"/m/{match_id}/hand").get_data(as_text=True))
    assert f'<button name="choice" value="{NOTHING}" class="choice">no card here</button>' in page
    token = csrf_of(client)
    answer = client.post(f"/m/{match_id}/readings/{reading_id(session.hand, question.seq)}",
                         data={"csrf_token": token, "choice": NOTHING, "pin": PIN})
    assert answer.status_code == 302

    answers = recorder.inbox().answers
    assert answers == [(session.hand, question.seq, NOTHING)]
    assert [e.describe() for e in session.confirm(question.seq, NOTHING)] == ["#2 discard Ann 9D (stock 31)"]
    page = html.unescape(client.get(f"/m/{match_id}/hand").get_data(as_text=True))
    assert "<strong>no card here</strong>" in page  # the confirmed answer, in words
    store.close()


def test_a_card_none_of_the_choices_names_is_picked_from_the_card_picker(app, client):
    """The camera saw a card in the discard zone but read no index: the question offers only "no card
    here" and the card picker; the players pick the 9D that lies there, and the tracker takes it."""
    match_id = new_match(client)
    store = EventStore(app.config["DATABASE"])
    session = HandSession(("Ann", "Ben"), "Ben", zones=default_zones("gin", 2), options=TrackerOptions(window=2, quorum=2))
    x, y = session.zones.named("discard").centre
    seen = [Sighting("UNREAD", 0.0, x, y, "discard")]
    [question] = session.update(1, seen, True) + session.update(2, seen, True)
    recorder = Recorder(store, match_id)
    assert recorder.record([question], session.hand, session.tracker, None) == 1

    page = html.unescape(client.get(f"/m/{match_id}/hand").get_data(as_text=True))
    assert "Another card" in page and 'name="choice" value="9D"' in page and 'value="JK"' not in page
    token = csrf_of(client)
    reading = reading_id(session.hand, question.seq)
    for junk in ("9X", "R7"):
        refused = client.post(f"/m/{match_id}/readings/{reading}", data={"csrf_token": token, "choice": junk, "pin": PIN})
        assert refused.status_code == 400 and "choice" in refused.get_data(as_text=True)
    answer = client.post(f"/m/{match_id}/readings/{reading}", data={"csrf_token": token, "choice": "9D", "pin": PIN})
    assert answer.status_code == 302
    assert recorder.inbox().answers == [(session.hand, question.seq, "9D")]
    assert [e.describe() for e in session.confirm(question.seq, "9D")] == ["#2 discard Ann 9D (stock 31)"]
    store.close()
