"""The main job end to end on a short rendered game: real recognizer, tracker, record and server."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from engine.tracker import Event, Sighting, TrackerOptions
from hardware.cameras import Backoff, CameraLost, ReconnectingCamera
from hardware.cameras.folder import ImageFolderCamera
from rummyref.cli import main
from rummyref.pipeline import Pipeline, PipelineConfig
from rummyref.render_game import write_game
from webui.state import replay
from webui.store import EventStore

FRAMES = 36
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("clip")
    write_game(folder, seed=3, hands=1, width=480, height=270, max_frames=FRAMES)
    return folder


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


def new_match(store: EventStore) -> str:
    from webui.events import create_match

    return create_match(store, {"players": ["Ann", "Ben"], "first_dealer": "Ben"}, "test").match_id


def test_rendered_clip_calibrates_from_its_markers(clip: Path) -> None:
    import cv2

    from vision.calibration import Calibrator

    report = Calibrator(80, 60).update(cv2.imread(str(clip / "f000001.jpg")))
    assert report.state == "calibrated", report.message
    assert json.loads((clip / "game.json").read_text())["players"] == ["Ann", "Ben"]


def test_events_are_recorded_before_they_are_shown_and_shutdown_is_clean(clip: Path, recognizer, tmp_path: Path) -> None:
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = new_match(store)
    shown: list[tuple[list[Event], list[str]]] = []

    def show(events: list[Event]) -> None:
        # what the dashboard would show must already be in the record (read on another connection)
        other = EventStore(tmp_path / "record.sqlite3")
        shown.append((events, [e.kind for e in other.events(match_id)]))
        other.close()

    config = PipelineConfig(camera=f"dir:{clip}", players=("Ann", "Ben"), first_dealer="Ben",
                            tracker=TrackerOptions(window=2, quorum=2))
    before = set(threading.enumerate())
    pipeline = Pipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), match_id, recognizer=recognizer,
                        on_events=show).start()
    pipeline.press("knock")  # Ann (forehand) knocks by button: a committed event, whatever the model reads
    assert pipeline.wait(timeout=60), "the pipeline did not finish a 36-frame folder"
    pipeline.stop()
    assert pipeline.stats.frames >= 1 and not pipeline.stats.errors
    knocks = [(events, kinds) for events, kinds in shown if any(e.kind == "knock" for e in events)]
    assert knocks and "play" in knocks[0][1]
    plays = replay(store.events(match_id)).plays
    assert {"kind": "knock", "player": "Ann"}.items() <= plays[0].items()
    assert set(threading.enumerate()) - before == set(), "threads left running after stop()"
    store.close()


class UnpluggedAfter(ImageFolderCamera):
    """A folder camera whose cable is pulled after ``frames`` reads (once)."""

    pulled = False

    def __init__(self, folder: Path, frames: int) -> None:
        super().__init__(folder, f"dir:{folder}", fps=50, loop=False)
        self.left = frames

    def read(self):
        if not UnpluggedAfter.pulled and self.left == 0:
            UnpluggedAfter.pulled = True
            raise CameraLost(f"{self.name}: unplugged")
        self.left -= 1
        return super().read()


def test_camera_unplugged_mid_game_is_reported_and_reconnected_without_touching_the_match(
        clip: Path, recognizer, tmp_path: Path) -> None:
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = new_match(store)

    def opener(url, on_status, stop, **defaults):
        return ReconnectingCamera(lambda: UnpluggedAfter(clip, 10), url, backoff=Backoff(0.05, 2, 0.1),
                                  on_status=on_status, stop=stop)

    config = PipelineConfig(camera=f"dir:{clip}", players=("Ann", "Ben"), first_dealer="Ben")
    pipeline = Pipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), match_id, recognizer=recognizer,
                        camera_opener=opener).start()
    pipeline.press("knock")
    assert pipeline.wait(timeout=60)
    pipeline.stop()
    states = [e.payload["state"] for e in store.events(match_id) if e.kind == "camera"]
    assert states[:3] == ["streaming", "lost", "streaming"], states
    assert "unplugged" in [e.payload["reason"] for e in store.events(match_id) if e.kind == "camera"][1]
    # the match went on: same hand, the knock before the outage still stands, nothing was reset
    assert pipeline.session.hand == 1 and pipeline.session.tracker.phase == "knocked"
    # every frame before and after the outage was read (10, then the folder again from the start)
    assert pipeline.grabber.read_count == 10 + FRAMES and pipeline.grabber.camera.reconnects == 1
    state = replay(store.events(match_id))
    assert state.camera["state"] in ("ended", "stopped") and state.hands == []
    store.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_until_sigterm(arguments: list[str], data: Path, wait_for: str) -> str:
    """``rummyref run ARGUMENTS`` on a free port with its record in ``data``: once the dashboard's front
    page shows ``wait_for``, SIGTERM; returns what it printed, after checking it exited cleanly."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "rummyref", "run", *arguments, "--host", "127.0.0.1", "--port", str(port),
         "--data", str(data), "--pin", "2468"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, page = time.monotonic() + 60, None
        while time.monotonic() < deadline and page is None:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
            except OSError:
                time.sleep(0.3)
        assert page is not None and wait_for in page
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, output
    assert "table PIN: 2468" in output and f"127.0.0.1:{port}" in output
    return output


def test_run_serves_the_dashboard_and_exits_cleanly_on_sigterm(clip: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    run_until_sigterm(["--camera", f"dir:{clip}?fps=10", "--players", "Ann,Ben"], data, "Ann")
    store = EventStore(data / "record.sqlite3")
    (match_id,) = store.match_ids()
    state = replay(store.events(match_id))
    assert state.players == ["Ann", "Ben"] and state.camera is not None
    store.close()


def test_replay_prints_one_json_object_per_event_and_a_summary(clip: Path, capsys) -> None:
    assert main(["replay", str(clip), "--game", "gin", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = lines[-1]
    assert summary["summary"] is True and summary["frames"] == FRAMES
    assert summary["committed"] + summary["questions"] == len(lines) - 1
    truth = json.loads((clip / "truth.json").read_text())["hands"][0]["events"]
    true_keys = [(e["kind"], e["player"], sorted(e["cards"])) for e in truth]
    for event in lines[:-1]:
        assert {"hand", "seq", "kind", "frame", "player", "cards", "melds", "needs_confirmation", "candidates"} <= event.keys()
        if event["needs_confirmation"]:
            assert event["candidates"], event
        else:  # the tracker's contract: nothing wrong is committed
            assert (event["kind"], event["player"], sorted(event["cards"])) in true_keys, event


def test_a_camera_faster_than_the_reader_is_skipped_not_queued_and_a_flood_of_presses_is_cut(
        clip: Path, recognizer, tmp_path: Path, caplog) -> None:
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = new_match(store)
    store.close()
    seen: list[tuple[int, int]] = []
    config = PipelineConfig(camera=f"dir:{clip}?fps=200&loop=1", players=("Ann", "Ben"), first_dealer="Ben")
    pipeline = Pipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), match_id, recognizer=recognizer,
                        on_frame=lambda frame_id: seen.append((frame_id, pipeline.grabber.read_count)))
    for _ in range(100):
        pipeline.press("undo")  # nothing to undo: each is a no-op, but only the queue's worth is kept
    ignored = [r for r in caplog.records if "button undo ignored: too many presses waiting" in r.getMessage()]
    assert len(ignored) == 100 - 16
    pipeline.start()
    time.sleep(3)
    pipeline.stop()
    processed = [frame_id for frame_id, _ in seen]
    assert len(processed) >= 3 and processed == sorted(set(processed))
    assert pipeline.grabber.dropped > 0 and len(processed) < pipeline.grabber.read_count
    # Each frame read is the newest the camera had when the worker took it: the worker never
    # works through a backlog, so the frame after one it read is always a jump past the skipped ones.
    jumps = [later - earlier for earlier, later in zip(processed, processed[1:])]
    assert max(jumps) > 1 and not pipeline.stats.errors


def test_run_reads_with_a_learned_deck_and_refuses_an_unknown_one(tmp_path: Path, monkeypatch, capsys) -> None:
    import numpy as np

    from vision.decks import DeckProfile, classifier_digest
    from vision.labels import CLASS_CODES
    from vision.recognizer import CLASSIFIER_FILE, DEFAULT_MODEL_DIR

    monkeypatch.setenv("RUMMYREF_DATA", str(tmp_path / "learned"))
    monkeypatch.chdir(tmp_path)  # run's record goes to ./data: an unknown deck must stop it before that
    assert main(["run", "--camera", "dir:nowhere", "--players", "Ann,Ben", "--deck", "grandmas"]) == 2
    assert "grandmas" in capsys.readouterr().err
    assert main(["replay", "dir:nowhere", "--deck", "grandmas"]) == 2  # recorded frames are read with a deck too
    assert "no learned deck named 'grandmas'" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
    # A deck saved where the dashboard's deck page and learn-deck keep them is the one the pipeline reads with.
    embedding_width = 96  # the shipped classifier's embedding (models/CARDS.md)
    DeckProfile("grandmas", np.zeros((len(CLASS_CODES), embedding_width), np.float32),
                np.zeros(len(CLASS_CODES), np.float32), classifier=classifier_digest(DEFAULT_MODEL_DIR / CLASSIFIER_FILE)).save()
    deck = DeckProfile.load("grandmas")
    config = PipelineConfig(camera="dir:nowhere", players=("Ann", "Ben"), deck=deck)
    pipeline = Pipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), "m1")
    assert pipeline.reader.recognizer.deck is deck and pipeline.deck_name == "grandmas"  # what the camera page shows
    plain = Pipeline(replace(config, deck=None), lambda: EventStore(tmp_path / "record.sqlite3"), "m1")
    assert plain.deck_name is None
    # A deck learned with another classifier (before a model update) is refused, not read wrongly.
    DeckProfile("stale", deck.weight, deck.bias, classifier="0123456789abcdef").save()
    assert DeckProfile.load("stale").classifier == "0123456789abcdef"
    capsys.readouterr()
    assert main(["run", "--camera", "dir:nowhere", "--players", "Ann,Ben", "--deck", "stale"]) == 2
    assert "'stale' was fitted to another classifier than the one installed" in capsys.readouterr().err


def test_without_a_learned_deck_every_gin_reading_below_0_98_is_asked(recognizer, tmp_path: Path) -> None:
    """An untaught deck's small indices are misread surely: untaught gnome/anglo hands recorded Ben's
    5S discard as 6S at the tracker's 0.8 (models/CARDS.md, session 20). So without a learned deck a
    Gin reading below 0.98 is asked, as in Wiener; with the deck learned the tracker's 0.8 stays."""
    import numpy as np

    from engine.zones import default_zones
    from vision.decks import DeckProfile, classifier_digest
    from vision.labels import CLASS_CODES
    from vision.recognizer import CLASSIFIER_FILE, DEFAULT_MODEL_DIR

    deck = DeckProfile("ours", np.zeros((len(CLASS_CODES), 96), np.float32), np.zeros(len(CLASS_CODES), np.float32),
                       classifier=classifier_digest(DEFAULT_MODEL_DIR / CLASSIFIER_FILE))
    pile = default_zones("gin", 2).named("discard").centre
    misread = [Sighting("6S", 0.95, *pile, "discard")]
    config = PipelineConfig(camera="dir:nowhere", players=("Ann", "Ben"), first_dealer="Ann",
                            tracker=TrackerOptions(window=2, quorum=2))

    def first_events(reading_with: object, config: PipelineConfig = config) -> list[str]:
        pipeline = Pipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), "m1", recognizer=reading_with)
        session = pipeline.session
        return [e.describe() for frame in (1, 2) for e in session.update(frame, misread, still=True)]

    assert first_events(recognizer) == ["#1 reading 6S needs confirmation: 6S"]
    assert first_events(recognizer.with_deck(deck)) == ["#1 discard Ben 6S (stock 31)"]
    # the bar can be set by hand, as for Wiener's layouts (`PipelineConfig.play_confidence`)
    assert first_events(recognizer, replace(config, play_confidence=0.9)) == ["#1 discard Ben 6S (stock 31)"]
