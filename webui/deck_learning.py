"""Teaching the recognizer a deck from the dashboard: photos in, a learned deck out, in the background.

Learning takes seconds to a minute (longer on a Pi), so a request only checks the photos and
starts a :class:`DeckJob` on a thread; the page follows its progress lines. One job runs at a
time: the referee's CPU is shared with the camera pipeline.

The vision code (onnxruntime, OpenCV) is imported only when a job starts: the dashboard itself
needs neither.

>>> jobs = DeckJobs()
>>> job = jobs.start("demo", lambda progress: progress("reading photo 1") or "decks/demo.npz")
>>> job.wait(5), job.state, job.lines, job.result
(True, 'done', ['reading photo 1'], 'decks/demo.npz')
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

KEEP_JOBS = 20


class JobBusy(RuntimeError):
    """Another deck is being learned right now."""


@dataclass
class DeckJob:
    """One learning run; ``state`` is ``running``, ``done`` or ``failed`` (``error`` says why)."""

    job_id: str
    name: str
    started: float = field(default_factory=time.time)
    state: str = "running"
    lines: list[str] = field(default_factory=list)
    result: Any = None
    error: str | None = None
    seconds: float | None = None
    _finished: threading.Event = field(default_factory=threading.Event, repr=False)

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def to_json(self) -> dict[str, Any]:
        return {"job": self.job_id, "name": self.name, "state": self.state, "lines": list(self.lines),
                "error": self.error, "seconds": self.seconds, "result": self.result}


class DeckJobs:
    """The learning runs of this dashboard (the newest :data:`KEEP_JOBS`), at most one at a time.

    A failure the work raises as ``expected`` (a photo that does not show the layout) becomes
    the job's ``error`` text; anything else too, with a generic message, so a thread never dies
    silently and the page always comes to an end.
    """

    def __init__(self, expected: tuple[type[BaseException], ...] = (ValueError,)) -> None:
        self.expected = expected
        self._jobs: OrderedDict[str, DeckJob] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, job_id: str) -> DeckJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def recent(self) -> list[DeckJob]:
        with self._lock:
            return list(reversed(self._jobs.values()))

    def start(self, name: str, work: Callable[[Callable[[str], None]], Any]) -> DeckJob:
        """Run ``work(progress)`` on a thread; its return value becomes ``job.result``."""
        with self._lock:
            if any(job.state == "running" for job in self._jobs.values()):
                raise JobBusy("a deck is being learned right now: wait for it to finish")
            job = DeckJob(secrets.token_hex(4), name)
            self._jobs[job.job_id] = job
            while len(self._jobs) > KEEP_JOBS:
                self._jobs.popitem(last=False)
        threading.Thread(target=self._run, args=(job, work), name=f"learn-deck-{job.job_id}", daemon=True).start()
        return job

    def _run(self, job: DeckJob, work: Callable[[Callable[[str], None]], Any]) -> None:
        # the state changes last: a reader that sees the end sees everything of it
        try:
            job.result, state = work(job.lines.append), "done"
        except self.expected as error:
            job.error, state = str(error), "failed"
        except Exception as error:  # noqa: BLE001 - the page must end with a reason, not spin forever
            job.error, state = f"learning stopped with an internal error ({type(error).__name__}); try again", "failed"
        job.seconds = round(time.time() - job.started, 1)
        job.state = state
        job._finished.set()
