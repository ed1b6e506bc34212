"""A question the camera asked about a hand that has ended no longer waits for an answer."""

from tests.webui.support import knock_result, new_match, post_event


def test_recording_a_hand_closes_its_open_questions_and_keeps_the_answered_ones(client):
    match_id = new_match(client)
    for reading in ("h1-e3", "h1-e5"):
        post_event(client, match_id, "reading_proposed", {"reading": reading, "prompt": f"{reading}: 6H or 8H?",
                                                           "choices": ["6H", "8H"]})
    post_event(client, match_id, "reading_confirmed", {"reading": "h1-e3", "choice": "8H"})
    assert [r["reading"] for r in client.get(f"/api/matches/{match_id}").json["pending_readings"]] == ["h1-e5"]
    assert post_event(client, match_id, "hand_recorded", {"dealer": "Ben", "result": knock_result()}).status_code == 201
    assert client.get(f"/api/matches/{match_id}").json["pending_readings"] == []
    late = post_event(client, match_id, "reading_confirmed", {"reading": "h1-e5", "choice": "6H"})
    assert late.status_code == 400 and "no reading 'h1-e5'" in late.get_data(as_text=True)
    page = client.get(f"/m/{match_id}/hand").get_data(as_text=True)
    assert "h1-e3: 6H or 8H?" in page and "h1-e5" not in page  # answered questions stay in the record's view
