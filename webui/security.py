"""Who may change the record: the table PIN, back-off on wrong PINs, CSRF tokens.

Anyone may watch (GET). Every change needs the table's PIN: typed into the form,
remembered in the signed session after one correct entry (the QR link carries it),
or sent as ``X-Table-Pin`` / ``Authorization: Bearer <api token>`` by the pipeline.

>>> limiter = PinLimiter(free_failures=2, base_delay=1.0, clock=lambda: 100.0)
>>> limiter.failed("10.0.0.7"); limiter.failed("10.0.0.7"); limiter.retry_after("10.0.0.7")
0.0
>>> limiter.failed("10.0.0.7"); limiter.retry_after("10.0.0.7")
1.0
>>> limiter.failed("10.0.0.7"); limiter.retry_after("10.0.0.7")
2.0
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Callable

from flask import abort, current_app, request, session


class PinLimiter:
    """Exponential back-off per client address after repeated wrong PINs.

    The first ``free_failures`` wrong PINs cost nothing (typos happen); each further
    one doubles the wait, up to ``max_delay`` seconds. A correct PIN clears the count.
    """

    def __init__(self, free_failures: int = 3, base_delay: float = 1.0, max_delay: float = 900.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free_failures, self.base_delay, self.max_delay, self.clock = free_failures, base_delay, max_delay, clock
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds this client must still wait before its next PIN is looked at."""
        with self._lock:
            _, locked_until = self._failures.get(client, (0, 0.0))
            return max(0.0, locked_until - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            count, _ = self._failures.get(client, (0, 0.0))
            count += 1
            extra = count - self.free_failures
            delay = 0.0 if extra <= 0 else min(self.max_delay, self.base_delay * 2 ** (extra - 1))
            self._failures[client] = (count, self.clock() + delay)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)


class PinRequired(Exception):
    """The request changes something but carries no (correct) PIN."""

    def __init__(self, message: str, wrong: bool) -> None:
        super().__init__(message)
        self.wrong = wrong


class TooManyAttempts(Exception):
    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many wrong PINs from this device: try again in {retry_after:.0f} s")
        self.retry_after = retry_after


def new_pin() -> str:
    """A 6-digit table PIN."""
    return f"{secrets.randbelow(10**6):06d}"


def _client() -> str:
    return request.remote_addr or "unknown"


def check_pin(offered: str | None, secret: str) -> bool:
    """Check an offered PIN or token against the table's, honouring the back-off.

    Raises :class:`TooManyAttempts` while the client is locked out, even for a correct PIN.
    """
    limiter: PinLimiter = current_app.extensions["rummyref.limiter"]
    wait = limiter.retry_after(_client())
    if wait > 0:
        raise TooManyAttempts(wait)
    if offered is not None and hmac.compare_digest(offered.strip().encode(), secret.encode()):
        limiter.succeeded(_client())
        return True
    if offered:  # an empty field is a missing PIN, not a guess
        limiter.failed(_client())
    return False


def unlocked() -> bool:
    """Whether this browser session has entered the current table PIN."""
    return hmac.compare_digest(session.get("pin_ok", ""), _pin_tag())


def _pin_tag() -> str:
    # stored in the session instead of the PIN itself; changes when the PIN changes
    return hmac.new(current_app.secret_key.encode(), current_app.config["PIN"].encode(), "sha256").hexdigest()[:16]


def unlock_session() -> None:
    session["pin_ok"] = _pin_tag()
    session.permanent = True


def require_pin_for_form() -> None:
    """For a form POST: accept an unlocked session or a correct ``pin`` field."""
    if unlocked():
        return
    offered = request.form.get("pin")
    if check_pin(offered, current_app.config["PIN"]):
        unlock_session()
        return
    raise PinRequired("that is not this table's PIN: look at the host's screen" if offered else "this change needs the table PIN", wrong=bool(offered))


def require_pin_for_api() -> None:
    """For the JSON API: ``X-Table-Pin: <pin>`` or ``Authorization: Bearer <api token>``."""
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        if check_pin(auth[len("Bearer "):], current_app.config["API_TOKEN"]):
            return
        raise PinRequired("wrong API token", wrong=True)
    offered = request.headers.get("X-Table-Pin")
    if check_pin(offered, current_app.config["PIN"]):
        return
    raise PinRequired("wrong PIN" if offered else "send the table PIN in X-Table-Pin or the API token as a Bearer token", wrong=bool(offered))


def actor() -> str:
    """Who a form's change is recorded as, for the audit trail: the name given when unlocking."""
    who = session.get("who") or "someone"
    return f"{who} @ {request.remote_addr}"


def csrf_token() -> str:
    """The synchronizer token of this session (created on first use)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def check_csrf() -> None:
    offered = request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(offered.encode(), expected.encode()):
        abort(400, description="the form expired or came from another site (CSRF check failed): reload the page and try again")


def is_local_request() -> bool:
    """The host's own browser (the Pi's screen) sees the PIN without entering it."""
    return request.remote_addr in ("127.0.0.1", "::1")
