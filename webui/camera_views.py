"""The camera and calibration page: live view with markers and zones, table corners set by hand.

    GET  /camera                 the page (works without a camera: it says so)
    GET  /camera/frame.jpg       the newest frame (503 without a camera or before its first frame)
    GET  /camera/view.json       markers found, calibration state, zones and corners in frame pixels,
                                 and the referee's own calibration state with its recent changes
    POST /camera/corners         four tapped corners, ``corners`` = "[[x, y], ...]" (PIN)
    POST /camera/corners/clear   back to the markers (PIN)
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for

from engine.tracker import UNLEARNED_DECK_CONFIDENCE
from webui import camera as table_camera
from webui.db import get_store
from webui.events import InvalidInput
from webui.security import actor, check_csrf, require_pin_for_form

bp = Blueprint("camera", __name__)


@bp.before_request
def protect_forms() -> None:
    if request.method == "POST":
        check_csrf()


def _camera() -> table_camera.TableCamera | None:
    return current_app.config.get("CAMERA")


def _image():
    """The newest frame, or a 503 that says why there is none."""
    camera = _camera()
    if camera is None:
        abort(503, description="no camera is connected to this dashboard: start it with `rummyref run --camera ...`")
    image = camera.latest_image()
    if image is None:
        abort(503, description="the camera has not delivered a frame yet: wait a moment")
    return camera, image


def _corners(camera, store) -> dict | None:
    """The corners set by hand that count: those the referee reads through (``run --corners``, or
    tapped here), else those last tapped here (no referee running)."""
    return (camera.corners_in_use() if camera is not None else None) or table_camera.stored_corners(store)


def _page(status: int = 200, **context):
    store = get_store()
    camera = _camera()
    context.update(has_camera=camera is not None, deck=camera.deck_name if camera is not None else None,
                   untaught_bar=f"{UNLEARNED_DECK_CONFIDENCE:g}", reads=camera.reads if camera is not None else None,
                   corners=_corners(camera, store), history=table_camera.corner_history(store))
    return render_template("camera.html", **context), status


@bp.get("/camera")
def page():
    return _page()


@bp.get("/camera/frame.jpg")
def frame():
    _, image = _image()
    return Response(table_camera.frame_jpeg(image), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/view.json")
def view():
    camera, image = _image()
    view = table_camera.calibration_view(image, camera.zones, _corners(camera, get_store()))
    # what the referee itself made of its frames, with the moves it noticed: the view above only
    # says what this one frame shows
    view["referee"] = camera.geometry_status()
    return jsonify(view)


@bp.post("/camera/corners")
def set_corners():
    require_pin_for_form()
    camera, image = _image()
    size = (image.shape[1], image.shape[0])
    try:
        try:
            points = json.loads(request.form.get("corners", ""))
        except ValueError:
            raise InvalidInput("corners", "tap the four table corners on the picture "
                                          "(or type them as [[x, y], [x, y], [x, y], [x, y]])") from None
        corners = table_camera.check_corners(points, size)
    except InvalidInput as exc:
        return _page(status=400, error=str(exc))
    table_camera.record_corners(get_store(), corners, size, actor())
    camera.use_corners(corners, size)
    return redirect(url_for("camera.page"))


@bp.post("/camera/corners/clear")
def clear_corners():
    require_pin_for_form()
    camera = _camera()
    table_camera.record_corners(get_store(), None, None, actor())
    if camera is not None:
        camera.use_corners(None)
    return redirect(url_for("camera.page"))
