"""Who may change the record: PIN, back-off on wrong PINs, CSRF, no stack traces."""

from __future__ import annotations

import re

from tests.webui.support import PIN, api_post, csrf_of, new_match

OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.77"}


def test_watching_needs_no_pin(client):
    match_id = new_match(client)
    for path in ("/", f"/m/{match_id}", f"/m/{match_id}/hand", f"/m/{match_id}/history", f"/api/matches/{match_id}"):
        assert client.get(path, environ_base=OTHER_PHONE).status_code == 200, path


def test_the_qr_link_unlocks_a_phone(client):
    token = csrf_of(client)
    assert client.get(f"/join?pin={PIN}").status_code == 302
    assert 'name="pin"' not in client.get("/setup").text  # the form no longer asks
    created = client.post("/setup", data={"player1": "Ann", "player2": "Ben", "preset": "rulebook", "csrf_token": token})
    assert created.status_code == 302


def test_a_wrong_qr_link_does_not_unlock(client):
    page = client.get("/join?pin=000000")
    assert page.status_code == 403 and "not this table" in page.text
    assert 'name="pin"' in client.get("/setup").text


def test_unlock_form(client):
    assert client.get("/unlock").status_code == 200
    token = csrf_of(client)
    wrong = client.post("/unlock", data={"pin": "123", "csrf_token": token})
    assert wrong.status_code == 403 and "Wrong PIN" in wrong.text
    right = client.post("/unlock", data={"pin": PIN, "csrf_token": token, "next": "/setup"})
    assert right.status_code == 302 and right.headers["Location"] == "/setup"
    offsite = client.post("/unlock", data={"pin": PIN, "csrf_token": token, "next": "//evil.example/"})
    assert offsite.headers["Location"] == "/", "no open redirect"


def test_a_changed_pin_locks_old_sessions(app, client):
    client.get(f"/join?pin={PIN}")
    assert 'name="pin"' not in client.get("/setup").text
    app.config["PIN"] = "135790"
    assert 'name="pin"' in client.get("/setup").text


def test_forms_without_a_valid_csrf_token_are_refused(client):
    csrf_of(client)
    missing = client.post("/unlock", data={"pin": PIN})
    assert missing.status_code == 400 and "CSRF" in missing.text
    forged = client.post("/unlock", data={"pin": PIN, "csrf_token": "made-up"})
    assert forged.status_code == 400
    other = client.application.test_client()
    stolen = csrf_of(other)
    assert client.post("/unlock", data={"pin": PIN, "csrf_token": stolen}).status_code == 400


def test_wrong_pins_back_off_exponentially_per_client(client, clock):
    token = csrf_of(client)

    def attempt(pin: str):
        return client.post("/unlock", data={"pin": pin, "csrf_token": token})

    for _ in range(3):  # typos are free
        assert attempt("000000").status_code == 403
    assert attempt("000000").status_code == 403  # the 4th wrong PIN starts a 1 s lock
    locked = attempt(PIN)
    assert locked.status_code == 429 and locked.headers["Retry-After"] == "1"
    assert "too many wrong PINs" in locked.text
    clock.now += 1.0
    assert attempt("000000").status_code == 403  # 5th: 2 s
    clock.now += 1.5
    assert attempt(PIN).status_code == 429
    other = client.application.test_client()
    other_token = csrf_of(other)
    other_try = other.post("/unlock", data={"pin": PIN, "csrf_token": other_token}, environ_base=OTHER_PHONE)
    assert other_try.status_code == 302, "another phone is not locked out"
    clock.now += 0.5
    assert attempt(PIN).status_code == 302
    fresh = client.application.test_client()  # a locked session, same address
    fresh_token = csrf_of(fresh)
    for _ in range(3):
        assert fresh.post("/unlock", data={"pin": "000000", "csrf_token": fresh_token}).status_code == 403
    assert fresh.post("/unlock", data={"pin": PIN, "csrf_token": fresh_token}).status_code == 302, "a right PIN cleared the count"


def test_the_api_shares_the_back_off(client, clock):
    for _ in range(4):
        assert api_post(client, "/api/matches", {"players": ["A", "B"]}, pin="999999").status_code == 403
    locked = api_post(client, "/api/matches", {"players": ["A", "B"]})
    assert locked.status_code == 429 and locked.json["error"] == "Too many wrong PINs"
    clock.now += 1.0
    assert api_post(client, "/api/matches", {"players": ["A", "B"]}).status_code == 201


def test_host_page_shows_pin_and_qr_only_to_the_host_or_an_unlocked_phone(client):
    page = client.get("/host")
    assert page.status_code == 200 and f'<strong id="pin">{PIN}</strong>' in page.text and "<svg" in page.text
    assert f"/join?pin={PIN}" in page.text
    elsewhere = client.get("/host", environ_base=OTHER_PHONE)
    assert elsewhere.status_code == 302 and elsewhere.headers["Location"].startswith("/unlock")
    client.get(f"/join?pin={PIN}", environ_base=OTHER_PHONE)
    assert client.get("/host", environ_base=OTHER_PHONE).status_code == 200


def test_host_page_uses_the_public_url_for_the_qr_link(app, client):
    app.config["PUBLIC_URL"] = "http://192.168.1.10:8000/"
    assert f"http://192.168.1.10:8000/join?pin={PIN}" in client.get("/host").text


def test_an_internal_error_shows_no_stack_trace(tmp_path):
    from webui import create_app

    app = create_app({"DATABASE": str(tmp_path / "r.sqlite3"), "PIN": PIN})

    def broken():
        raise RuntimeError("secret internals")

    app.add_url_rule("/broken", view_func=broken)
    app.add_url_rule("/api/broken", "api_broken", view_func=broken)
    page = app.test_client().get("/broken")
    assert page.status_code == 500 and "Something went wrong" in page.text
    assert "secret internals" not in page.text and "Traceback" not in page.text
    api = app.test_client().get("/api/broken")
    assert api.status_code == 500 and api.json["error"] == "Something went wrong" and "secret" not in api.text


def test_pin_and_secrets_survive_a_restart(tmp_path):
    from webui import create_app

    first = create_app({"DATABASE": str(tmp_path / "r.sqlite3")})
    second = create_app({"DATABASE": str(tmp_path / "r.sqlite3")})
    assert re.fullmatch(r"\d{6}", first.config["PIN"])
    assert second.config["PIN"] == first.config["PIN"]
    assert second.config["API_TOKEN"] == first.config["API_TOKEN"] and second.secret_key == first.secret_key
