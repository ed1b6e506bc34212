"""Camera sources on recorded frames: video file, image folder, USB adapter, picamera2 stand-in, URLs."""

from __future__ import annotations

import sys
import threading
import time
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.cameras import (
    ACCEPTED_FORMS,
    CameraClosed,
    CameraLost,
    CameraSetupError,
    CameraUnavailable,
    CameraUrlError,
    EndOfStream,
    open_camera,
    parse_camera_url,
)
from hardware.cameras.opencv import open_usb
from hardware.cameras.testcard import draw_test_card, read_test_card

SIZE = (320, 240)


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 test cards, numbered 0..11, as an MJPG AVI at 30 fps."""
    path = tmp_path_factory.mktemp("video") / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, SIZE)
    assert writer.isOpened()
    for number in range(12):
        writer.write(draw_test_card(number, SIZE))
    writer.release()
    return path


def numbers(frames) -> list[int]:
    return [read_test_card(frame) for frame in frames]


# --- URLs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "scheme", "target"),
    [
        ("picamera2:0", "picamera2", "0"),
        ("picamera2", "picamera2", "0"),
        ("usb:2", "usb", "2"),
        ("usb:/dev/video4", "usb", "/dev/video4"),
        ("http://192.168.1.20:8080/video", "http", "http://192.168.1.20:8080/video"),
        ("https://cam.local/stream.mjpg", "https", "https://cam.local/stream.mjpg"),
        ("rtsp://cam.local:554/h264", "rtsp", "rtsp://cam.local:554/h264"),
        ("file:game.mp4", "file", "game.mp4"),
        ("file:///srv/game.mp4", "file", "/srv/game.mp4"),
        ("dir:frames/", "dir", "frames/"),
    ],
)
def test_accepted_forms_parse(text: str, scheme: str, target: str) -> None:
    config = parse_camera_url(text)
    assert (config.scheme, config.target) == (scheme, target)


def test_options_are_typed_and_override_defaults() -> None:
    config = parse_camera_url("usb:0?size=640x480&fps=15&fourcc=yuyv", size=(1920, 1080), fps=30.0)
    assert (config.size, config.fps, config.fourcc) == ((640, 480), 15.0, "YUYV")
    assert parse_camera_url("usb:0", size=(1920, 1080)).size == (1920, 1080)
    folder = parse_camera_url("dir:f?fps=2.5&loop=on")
    assert (folder.fps, folder.loop) == (2.5, True)
    assert parse_camera_url("file:g.avi?realtime=false").realtime is False


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "has no scheme"),
        ("game.mp4", "has no scheme"),
        ("webcam:0", "unknown scheme 'webcam'"),
        ("usb:front", "no valid usb camera number"),
        ("picamera2:one", "no valid picamera2 camera number"),
        ("http:cam", "is not a http:// URL"),
        ("file:", "names no video file"),
        ("dir:", "names no folder"),
        ("usb:0?size=big", "bad size option: size must look like 1280x720"),
        ("usb:0?fps=-3", "bad fps option"),
        ("dir:x?loop=maybe", "bad loop option"),
        ("usb:0?fourcc=H264X", "bad fourcc option"),
        ("dir:x?realtime=1", "option 'realtime', which dir: does not take (it takes: fps, loop)"),
    ],
)
def test_malformed_urls_name_the_problem_and_list_the_forms(text: str, complaint: str) -> None:
    with pytest.raises(CameraUrlError) as info:
        open_camera(text)
    message = str(info.value)
    assert complaint in message
    assert message.endswith(ACCEPTED_FORMS)
    assert isinstance(info.value, ValueError)


def test_a_bare_existing_path_gets_a_hint(video: Path) -> None:
    with pytest.raises(CameraUrlError, match=f"for this file use file:{video}"):
        parse_camera_url(str(video))
    with pytest.raises(CameraUrlError, match=f"for this folder use dir:{video.parent}"):
        parse_camera_url(str(video.parent))


# --- video file -------------------------------------------------------------------------------


def test_video_file_plays_every_frame_in_order_then_ends(video: Path) -> None:
    with open_camera(f"file:{video}?realtime=0") as camera:
        frames = list(camera)
        assert numbers(frames) == list(range(12))
        assert camera.resolution == SIZE
        assert camera.fps == pytest.approx(30.0)
        assert frames[0].dtype == np.uint8 and frames[0].shape == (240, 320, 3)
        with pytest.raises(EndOfStream):
            camera.read()


def test_video_file_loops(video: Path) -> None:
    with open_camera(f"file:{video}?realtime=0&loop=1") as camera:
        assert numbers(camera.read() for _ in range(30)) == list(range(12)) * 2 + list(range(6))


def test_video_file_realtime_keeps_the_recorded_rate(video: Path) -> None:
    with open_camera(f"file:{video}") as camera:
        start = time.monotonic()
        assert numbers(camera) == list(range(12))
        # 12 frames at 30 fps: 11 periods between the first and the last.
        assert time.monotonic() - start >= 11 / 30 * 0.9


def test_closing_a_realtime_file_ends_a_pending_wait(tmp_path: Path) -> None:
    path = tmp_path / "slow.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 0.5, SIZE)  # one frame per 2 s
    for number in range(3):
        writer.write(draw_test_card(number, SIZE))
    writer.release()
    camera = open_camera(f"file:{path}")
    camera.read()
    threading.Timer(0.1, camera.close).start()
    start = time.monotonic()
    with pytest.raises(CameraClosed):
        camera.read()
    assert time.monotonic() - start < 1.5


def test_missing_or_undecodable_video_is_a_setup_error(tmp_path: Path) -> None:
    with pytest.raises(CameraSetupError, match="no such video file"):
        open_camera(f"file:{tmp_path / 'nope.mp4'}")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"this is not a video" * 100)
    with pytest.raises(CameraSetupError, match="cannot decode this file"):
        open_camera(f"file:{junk}")


# --- image folder -----------------------------------------------------------------------------


def write_folder(folder: Path, count: int) -> None:
    folder.mkdir()
    for number in range(count):
        # frame2 before frame10: the folder is read in natural order.
        cv2.imwrite(str(folder / f"frame{number}.jpg"), draw_test_card(number, SIZE))


def test_folder_reads_images_in_natural_order(tmp_path: Path) -> None:
    write_folder(tmp_path / "frames", 12)
    (tmp_path / "frames" / "notes.txt").write_text("not an image")
    with open_camera(f"dir:{tmp_path / 'frames'}") as camera:
        assert numbers(camera) == list(range(12))
        assert camera.resolution == SIZE


def test_folder_skips_a_corrupt_image_reports_it_and_goes_on(tmp_path: Path, caplog) -> None:
    folder = tmp_path / "frames"
    write_folder(folder, 5)
    (folder / "frame2.jpg").write_bytes(b"\xff\xd8 garbage, not a JPEG")
    (folder / "frame3.jpg").write_bytes(b"")
    with open_camera(f"dir:{folder}?loop=1") as camera:
        assert numbers(camera.read() for _ in range(6)) == [0, 1, 4, 0, 1, 4]
        assert [(path.name, reason) for path, reason in camera.skipped] == [
            ("frame2.jpg", "not a decodable image"),
            ("frame3.jpg", "empty file"),
        ]
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("skipping frame2.jpg: not a decodable image" in w for w in warnings)
    assert len(warnings) == 2  # reported once, not on every loop


def test_folder_pacing_follows_fps(tmp_path: Path) -> None:
    write_folder(tmp_path / "frames", 4)
    with open_camera(f"dir:{tmp_path / 'frames'}?fps=20") as camera:
        start = time.monotonic()
        assert numbers(camera) == [0, 1, 2, 3]
        assert time.monotonic() - start >= 3 / 20 * 0.9
        assert camera.fps == 20.0


def test_folder_problems_are_setup_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraSetupError, match="no such folder"):
        open_camera(f"dir:{tmp_path / 'absent'}")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraSetupError, match=r"no images \(.*\.jpg.*\) in"):
        open_camera(f"dir:{tmp_path / 'empty'}")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "a.png").write_bytes(b"junk")
    camera = open_camera(f"dir:{tmp_path / 'bad'}?loop=1")
    with pytest.raises(CameraSetupError, match="none of the 1 images could be decoded"):
        camera.read()


# --- USB (V4L2) adapter -----------------------------------------------------------------------
# This machine has no /dev/video*: the USB adapter is driven through a real cv2.VideoCapture
# on a video file, via the same open_usb code path a webcam takes.


class RecordingCapture:
    """A real VideoCapture on a file that records the settings made and can be 'unplugged'."""

    def __init__(self, path: Path, unplug_after: int | None = None) -> None:
        self.capture = cv2.VideoCapture(str(path))
        self.settings: dict[int, float] = {}
        self.opened_with: tuple = ()
        self.unplug_after = unplug_after
        self.reads = 0
        self.released = False

    def __call__(self, device, api) -> RecordingCapture:
        self.opened_with = (device, api)
        return self

    def isOpened(self) -> bool:
        return self.capture.isOpened()

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return self.capture.set(prop, value)

    def get(self, prop: int) -> float:
        return self.capture.get(prop)

    def read(self):
        self.reads += 1
        if self.unplug_after is not None and self.reads > self.unplug_after:
            return False, None  # what V4L2 capture returns once the webcam is unplugged
        return self.capture.read()

    def release(self) -> None:
        self.released = True
        self.capture.release()


def test_usb_adapter_sets_size_fps_format_and_reads(video: Path) -> None:
    capture = RecordingCapture(video)
    camera = open_usb(parse_camera_url("usb:0?size=640x480&fps=15"), capture_factory=capture)
    assert capture.opened_with == (0, cv2.CAP_V4L2)
    assert capture.settings == {
        cv2.CAP_PROP_FOURCC: cv2.VideoWriter_fourcc(*"MJPG"),
        cv2.CAP_PROP_FRAME_WIDTH: 640,
        cv2.CAP_PROP_FRAME_HEIGHT: 480,
        cv2.CAP_PROP_FPS: 15.0,
        cv2.CAP_PROP_BUFFERSIZE: 1,
    }
    assert numbers(camera.read() for _ in range(3)) == [0, 1, 2]
    assert camera.resolution == SIZE  # what the device delivers, not what was asked
    camera.close()
    assert capture.released


def test_usb_unplugged_mid_game_is_reported_as_lost(video: Path) -> None:
    capture = RecordingCapture(video, unplug_after=2)
    camera = open_usb(parse_camera_url("usb:/dev/video2"), capture_factory=capture)
    assert capture.opened_with == ("/dev/video2", cv2.CAP_V4L2)
    assert numbers(camera.read() for _ in range(2)) == [0, 1]
    with pytest.raises(CameraLost, match=r"usb:/dev/video2: the camera delivered no frame \(unplugged"):
        camera.read()


def test_usb_without_a_device_is_unavailable_not_fatal() -> None:
    # The real OpenCV V4L2 backend on a device number that does not exist here.
    with pytest.raises(CameraUnavailable, match=r"usb:63: no webcam at /dev/video63 \(is it plugged in\?"):
        open_camera("usb:63")


# --- picamera2 through a stand-in module ------------------------------------------------------


class StandInPicamera2:
    """Behaves like picamera2.Picamera2 for the calls the adapter makes; frames are test cards."""

    instances: list[StandInPicamera2] = []
    cameras = 1

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= self.cameras:
            raise IndexError("list index out of range")  # what picamera2 raises for a missing camera
        self.camera_num = camera_num
        self.camera_controls = {"AfMode": (0, 2, 0), "FrameRate": (1.0, 120.0, 30.0)}
        self.calls: list[str] = []
        self.configured: dict | None = None
        self.frame_number = 0
        self.fail_after: int | None = None
        StandInPicamera2.instances.append(self)

    def create_video_configuration(self, main=None, controls=None, buffer_count=6, queue=True, **other) -> dict:
        self.calls.append("create_video_configuration")
        return {"use_case": "video", "main": dict(main or {}), "controls": dict(controls or {}),
                "buffer_count": buffer_count, "queue": queue, **other}

    def configure(self, config: dict) -> None:
        self.calls.append("configure")
        self.configured = config

    def camera_configuration(self) -> dict:
        return self.configured

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, name: str = "main") -> np.ndarray:
        assert name == "main" and "start" in self.calls and "stop" not in self.calls
        if self.fail_after is not None and self.frame_number >= self.fail_after:
            raise RuntimeError("Camera frontend has timed out!")
        width, height = self.configured["main"]["size"]
        self.frame_number += 1
        return draw_test_card(self.frame_number, (width, height))  # RGB888 is B,G,R in memory

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def picamera2_module(monkeypatch: pytest.MonkeyPatch) -> type[StandInPicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = StandInPicamera2
    StandInPicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return StandInPicamera2


def test_picamera2_is_configured_as_data_started_and_read(picamera2_module) -> None:
    with open_camera("picamera2:0?size=640x360&fps=10") as camera:
        assert numbers(camera.read() for _ in range(3)) == [1, 2, 3]
        assert camera.resolution == (640, 360)
        assert camera.read().shape == (360, 640, 3)
        stand_in = picamera2_module.instances[0]
        assert stand_in.configured["main"] == {"size": (640, 360), "format": "RGB888"}
        assert stand_in.configured["controls"] == {"FrameRate": 10.0, "AfMode": 2}
        assert stand_in.configured["queue"] is False
    assert stand_in.calls == ["create_video_configuration", "configure", "start", "stop", "close"]


def test_picamera2_failure_mid_capture_is_lost(picamera2_module) -> None:
    camera = open_camera("picamera2:0?size=320x240")
    picamera2_module.instances[0].fail_after = 1
    camera.read()
    with pytest.raises(CameraLost, match="picamera2:0: capture failed .RuntimeError: Camera frontend has timed out"):
        camera.read()


def test_picamera2_missing_camera_is_unavailable(picamera2_module) -> None:
    with pytest.raises(CameraUnavailable, match="cannot open Raspberry Pi camera 1 .*rpicam-hello --list-cameras"):
        open_camera("picamera2:1")


def test_without_picamera2_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    with pytest.raises(CameraSetupError) as info:
        open_camera("picamera2:0")
    message = str(info.value)
    assert "sudo apt install python3-picamera2" in message
    assert "python3 -m venv --system-site-packages" in message
    assert sys.executable in message
