"""Live updates: server-sent events that tell a page a match has a new event.

A writer calls :meth:`Notifier.notify` after appending; every waiting stream wakes
at once. Streams also look at the database twice a second, so events written by
another process (the camera pipeline writing to the same record) arrive too.

>>> n = Notifier()
>>> n.wait(0, timeout=0.01)
0
>>> n.notify(); n.wait(0, timeout=0.01)
1
"""

from __future__ import annotations

import json
import threading
import time
from typing import Callable, Iterator

POLL_SECONDS = 0.5
HEARTBEAT_SECONDS = 15.0


class Notifier:
    """A generation counter with a condition variable."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._generation = 0

    def notify(self) -> None:
        with self._condition:
            self._generation += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """Block until the generation passes ``seen`` or ``timeout``; return the generation."""
        with self._condition:
            self._condition.wait_for(lambda: self._generation != seen, timeout)
            return self._generation


def sse_message(event: str, data: dict, event_id: int | None = None) -> str:
    """One server-sent event in wire format.

    >>> sse_message("update", {"last": 7}, 7)
    'id: 7\\nevent: update\\ndata: {"last": 7}\\n\\n'
    """
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n"


def stream(last_id: Callable[[], int], notifier: Notifier, since: int, lifetime: float) -> Iterator[str]:
    """Yield an ``update`` whenever ``last_id()`` moves past ``since``, for ``lifetime`` seconds.

    The browser's EventSource reconnects by itself after the stream ends, so no
    server thread is held forever by a phone that went to sleep.
    """
    yield "retry: 1000\n\n"
    deadline = time.monotonic() + lifetime
    generation, last_beat = 0, time.monotonic()
    while time.monotonic() < deadline:
        current = last_id()
        if current > since:
            since = current
            yield sse_message("update", {"last_event": current}, current)
        elif time.monotonic() - last_beat > HEARTBEAT_SECONDS:
            last_beat = time.monotonic()
            yield ": keep-alive\n\n"
        generation = notifier.wait(generation, POLL_SECONDS)
