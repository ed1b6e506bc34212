"""The deck learning page: photos of the guided layout (uploaded, or the camera's picture) teach
the recognizer a deck, as ``rummyref learn-deck`` does.

    GET  /decks                   instructions, the learned decks, the form
    POST /decks                   ``name``, ``photos`` (files, taken in name order) and/or
                                  ``from_camera`` (PIN): starts learning, redirects to the job
    GET  /decks/jobs/<id>         progress and result of one learning run
    GET  /decks/jobs/<id>.json    the same as JSON (the page polls it)
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for

from webui.deck_learning import DeckJob, DeckJobs, JobBusy
from webui.security import check_csrf, require_pin_for_form

bp = Blueprint("decks", __name__)
MAX_PHOTOS = 8
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".bmp", ".tif", ".tiff")


class BadPhotos(ValueError):
    """The upload cannot be learned from; the message names the photo."""


@bp.before_request
def protect_forms() -> None:
    if request.method == "POST":
        check_csrf()


def jobs() -> DeckJobs:
    return current_app.extensions["rummyref.deck_jobs"]


def deck_dir() -> Path:
    """The folder that holds ``decks/NAME.npz`` (``DECK_DIR``, default ``vision.decks.data_dir()``)."""
    from vision.decks import data_dir

    return Path(current_app.config.get("DECK_DIR") or data_dir())


def learned_decks() -> list[str]:
    return sorted(path.stem for path in (deck_dir() / "decks").glob("*.npz"))


def _page(status: int = 200, **context: Any):
    context.setdefault("form", {})
    return render_template("decks.html", decks=learned_decks(), jobs=jobs().recent(), max_photos=MAX_PHOTOS,
                           has_camera=current_app.config.get("CAMERA") is not None, **context), status


@bp.get("/decks")
def page():
    return _page()


def _uploaded_photos() -> list[tuple[str, Any]]:
    """The uploaded files as (name, BGR image), in name order; bad files raise :class:`BadPhotos`."""
    from vision.imageio import ImageLoadError, load_image

    files = sorted((f for f in request.files.getlist("photos") if f.filename), key=lambda f: f.filename)
    if len(files) > MAX_PHOTOS:
        raise BadPhotos(f"at most {MAX_PHOTOS} photos, got {len(files)}: one photo may hold all four rows")
    photos = []
    with tempfile.TemporaryDirectory() as folder:
        for number, upload in enumerate(files, start=1):
            shown = re.sub(r"[^\w. -]", "_", Path(upload.filename).name)[:60] or f"photo {number}"
            suffix = Path(shown).suffix.lower()
            if suffix not in PHOTO_SUFFIXES:
                raise BadPhotos(f"{shown}: not a photo (expected {', '.join(PHOTO_SUFFIXES[:3])} ...)")
            path = Path(folder) / f"{number}{suffix}"
            upload.save(path)
            try:
                photos.append((shown, load_image(path)))
            except ImageLoadError as error:
                raise BadPhotos(str(error).replace(str(path), shown)) from None
    return photos


def _camera_photo() -> list[tuple[str, Any]]:
    if not request.form.get("from_camera"):
        return []
    camera = current_app.config.get("CAMERA")
    image = camera.latest_image() if camera is not None else None
    if image is None:
        raise BadPhotos("there is no camera picture to learn from: upload photos instead")
    return [("the camera's picture", image.copy())]


def _learning(photos: list[tuple[str, Any]], name: str, app) -> Any:
    """The work of a job: read the layout, fit the deck, save it (runs on the job's thread)."""
    from vision.learn_deck import learn_deck
    from vision.recognizer import Recognizer

    def run(progress):
        progress(f"loading the recognizer; {len(photos)} photo{'s' if len(photos) > 1 else ''} to read")
        recognizer = Recognizer(model_dir=app.config.get("MODEL_DIR"))
        profile = learn_deck(recognizer, photos, name, progress=progress)
        with app.app_context():
            path = profile.save(deck_dir())
        progress(f"saved as {path.name}")
        return {"path": str(path), "photos": [photo for photo, _ in photos]}

    return run


@bp.post("/decks")
def start():
    require_pin_for_form()
    from vision.decks import check_deck_name

    name = request.form.get("name", "").strip()
    try:
        try:
            check_deck_name(name)
        except ValueError as error:
            raise BadPhotos(f"name: {error}") from None
        photos = _camera_photo() + _uploaded_photos()
        if not photos:
            raise BadPhotos("photos: choose the photos of the layout (or tick the camera's picture)")
        job = jobs().start(name, _learning(photos, name, current_app._get_current_object()))
    except BadPhotos as error:
        return _page(status=400, error=str(error), form=request.form)
    except JobBusy as error:
        return _page(status=409, error=str(error), form=request.form)
    return redirect(url_for("decks.job_page", job_id=job.job_id))


def _job(job_id: str) -> DeckJob:
    job = jobs().get(job_id)
    if job is None:
        abort(404, description=f"no deck learning run {job_id!r} (only the last ones are kept until a restart)")
    return job


@bp.get("/decks/jobs/<job_id>")
def job_page(job_id: str):
    return render_template("deck_job.html", job=_job(job_id))


@bp.get("/decks/jobs/<job_id>.json")
def job_json(job_id: str):
    return jsonify(_job(job_id).to_json())
