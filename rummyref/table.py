"""The dashboard and one new match on a record, served while a pipeline reads the table into it.

Shared by ``rummyref run`` (a camera) and ``rummyref demo`` (a rendered game): the record is
opened and the match started before anything is read; :meth:`Table.run` prints the URL, PIN
and QR code and serves until Ctrl-C or SIGTERM, stopping the pipeline before the server.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


class TableError(RuntimeError):
    """The match record cannot be opened or the match not started in it."""


class Table:
    """The dashboard app on a record, one new match in it, and the pipelines that read it.

    Shared by ``rummyref run`` (a camera) and ``rummyref demo`` (a rendered game).
    """

    def __init__(self, app: Any, store: Any, match_id: str, data: Path) -> None:
        self.app, self.store, self.match_id, self.data = app, store, match_id, data

    def open_store(self) -> Any:
        """A new connection to the record (an SQLite connection belongs to one thread)."""
        from webui.store import EventStore

        return EventStore(self.app.config["DATABASE"], self.app.config["SNAPSHOT_DIR"])

    def pipeline(self, config: Any, *, on_camera: Callable[[Any], None] = lambda status: None,
                 on_events: Callable[[list], None] = lambda events: None, game: str = "gin", **options: Any) -> Any:
        """A :class:`~rummyref.pipeline.Pipeline` writing into this match (``game`` ``tiles``: a
        :class:`~rummyref.tile_pipeline.TilePipeline`; ``wiener``: a
        :class:`~rummyref.wiener_pipeline.WienerPipeline`), shown on the dashboard's camera page; every event
        and camera state is printed."""
        if game == "tiles":
            from rummyref.tile_pipeline import TilePipeline as Pipeline
        elif game == "wiener":
            from rummyref.wiener_pipeline import WienerPipeline as Pipeline
        else:
            from rummyref.pipeline import Pipeline

        def events(batch) -> None:
            print("\n".join(e.describe() for e in batch), flush=True)
            on_events(batch)

        def camera(status) -> None:
            print(f"camera {status}", flush=True)
            on_camera(status)

        pipeline = Pipeline(config, self.open_store, self.match_id, notify=self.app.extensions["rummyref.notifier"].notify,
                            on_events=events, on_camera=camera, **options)
        self.app.config["CAMERA"] = pipeline  # the camera page shows its newest frame and sets corners through it
        return pipeline

    def run(self, pipeline: Any, host: str, port: int, command: str, *, announce: Callable[[], None],
            on_end: Callable[[], None], on_stop: Callable[[], None] = lambda: None) -> int:
        """Serve the dashboard and run ``pipeline`` until Ctrl-C or SIGTERM; returns the exit code.

        Prints the URL, PIN and QR code, calls ``announce()``, starts the pipeline, and calls
        ``on_end()`` on a thread of its own once the pipeline has ended (a finite source played out);
        on the way out the pipeline stops, then ``on_stop()``, then the server. A port that cannot
        be had is reported as ``rummyref COMMAND: ...`` with exit code 1.
        """
        from webui import make_server
        from webui.serving import banner, lan_url

        try:
            server = make_server(self.app, host=host, port=port)
        except OSError as error:
            self.store.close()
            print(f"rummyref {command}: cannot serve the dashboard on {host}:{port}: {error.strerror or error} "
                  "(another program uses the port? try --port)", file=sys.stderr)
            return 1
        url = lan_url(host, server.effective_port)
        self.app.config["PUBLIC_URL"] = self.app.config.get("PUBLIC_URL") or url
        print(banner(self.app, url), flush=True)

        def interrupt(signum, frame):  # SIGTERM from systemd ends the server loop like Ctrl-C
            raise KeyboardInterrupt

        def report_end() -> None:
            pipeline.wait()
            on_end()

        previous = signal.signal(signal.SIGTERM, interrupt)
        try:
            announce()
            pipeline.start()
            threading.Thread(target=report_end, daemon=True, name="pipeline-end").start()
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            print("stopping: camera, pipeline, dashboard...", flush=True)
            pipeline.stop()
            on_stop()
            server.close()
            self.store.close()
        print(f"stopped after {pipeline.stats.frames} frames and {pipeline.stats.events} events; "
              f"the record is in {self.data}", flush=True)
        return 0


def open_table(data: Path, pin: str | None, players: tuple[str, ...], dealer: str, actor: str, game: str = "gin",
               options: dict | None = None) -> Table:
    """The dashboard on the record in ``data`` with a new match of ``game`` (with ``options``) for ``players``
    started by ``actor``."""
    from webui import create_app
    from webui.events import InvalidInput, create_match
    from webui.store import EventStore, StoreError

    config = {"DATABASE": str(data / "record.sqlite3")}
    if pin:
        config["PIN"] = pin
    try:
        app = create_app(config)
        store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
        match = create_match(store, {"game": game, "players": list(players), "first_dealer": dealer,
                                     "options": options or {}}, actor)
    except (StoreError, InvalidInput) as error:
        raise TableError(f"cannot start the match record: {error}") from error
    return Table(app, store, match.match_id, data)
