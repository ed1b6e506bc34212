"""`python -m vision.train.tiles --out models/`: render tile tables, train the tile classifiers
on 2 CPU threads (or a GPU, ``--device cuda``), join them into one ONNX file and score the reader
on fresh tables of the held-out font.

The shipped classifier is an ensemble (:mod:`vision.train.ensemble`): ``--members`` networks, member
``k`` trained on its own tables with seed ``--seed + k``; their mean reads with fewer unsure tiles
than either alone.

The tiles are found without a model (:mod:`vision.tiles.outlines`); the
classifier is :class:`vision.train.nets.IndexClassifier` over :mod:`vision.tiles.labels` on
:func:`vision.tiles.patches.tile_patch` cuts, with the outline finder's errors as jitter; each tile
also gives an upside-down cut (class ``UPSIDE``) and the table, seams between touching tiles
and covered tiles give ``NONE``. Scenes come from :mod:`vision.synth.tiles` with the training
fonts only. Seeded: the same command gives the same tables, batches and augmentation on any
device; a GPU's arithmetic differs from the CPU's in the last bits, so networks trained on the two
are alike, not bit-identical.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.tiles.labels import NONE_CLASS, NUM_CLASSES, UPSIDE_CLASS, class_of
from vision.tiles.patches import PATCH_HEIGHT, PATCH_WIDTH, jittered_patch, tile_patch

MIN_VISIBLE = 0.85
"""A tile at least this visible must be found and read; below IGNORE_VISIBLE it is "not a tile"."""
IGNORE_VISIBLE = 0.5
EXTRA_CUTS = {4: 1, 5: 1, 6: 1, 8: 1, 9: 1}
"""One more upright cut for the numbers the classifier confuses most in unseen fonts (6/8/5/4, 6/9)."""
CONFUSION_CUTS = {5: 2, 6: 2, 8: 2, 2: 1, 4: 1, 9: 1, 10: 1}
"""``--weigh-confusions``: more cuts where session 8's sure misreads of the held-out font's
blurred digits were (5 as 6, 6/8, 5 as 10, 2 as 9)."""
HARD_TILE_HEIGHT = (40.0, 52.0)
"""Tile heights of the hard tables: the misreads are on 40-50 px tiles."""
HARD_STRETCH = (0.55, 1.0)
"""Hard tables' digits are condensed more (narrow fonts)."""
CLASSIFIER_WIDTHS = (16, 24, 48, 64)
"""Half the card classifier's widths: a tile face is simpler than a corner index."""


@dataclass(frozen=True)
class TileLabel:
    x: float
    y: float
    angle: float
    height: float
    width: float
    visible: float


def scene_labels(scene) -> list[TileLabel]:
    return [TileLabel(*t.center, t.angle, t.height, t.width, t.visible) for t in scene.tiles]


def classifier_samples(scene, rng: np.random.Generator, per_tile: int = 2,
                       extra_cuts: dict[int, int] = EXTRA_CUTS) -> tuple[np.ndarray, np.ndarray]:
    """Patches and classes of one full-resolution scene; ``extra_cuts`` more upright cuts of some numbers."""
    image = scene.image
    labels = scene_labels(scene)
    patches, classes = [], []
    for tile, annotation in zip(labels, scene.tiles):
        if tile.visible >= MIN_VISIBLE:
            extra = extra_cuts.get(int(annotation.code[1:]), 0) if annotation.code[1:].isdigit() else 0
            for _ in range(per_tile + extra):
                patches.append(jittered_patch(image, (tile.x, tile.y), tile.angle, tile.height, rng))
                classes.append(class_of(annotation.code))
            patches.append(jittered_patch(image, (tile.x, tile.y), tile.angle + math.pi, tile.height, rng))
            classes.append(UPSIDE_CLASS)
        elif tile.visible < IGNORE_VISIBLE:
            patches.append(jittered_patch(image, (tile.x, tile.y), tile.angle, tile.height, rng))
            classes.append(NONE_CLASS)
    for row in scene.rows:      # the seam between two touching tiles is no tile
        for a, b in zip(row, row[1:]):
            if rng.random() < 0.5:
                ta, tb = labels[a], labels[b]
                patches.append(tile_patch(image, ((ta.x + tb.x) / 2, (ta.y + tb.y) / 2), ta.angle, ta.height))
                classes.append(NONE_CLASS)
    h, w = image.shape[:2]
    heights = [t.height for t in labels] or [50.0]
    for _ in range(8):
        center = (rng.uniform(0, w), rng.uniform(0, h))
        if any(math.hypot(center[0] - t.x, center[1] - t.y) < 0.8 * t.height for t in labels):
            continue
        patches.append(tile_patch(image, center, rng.uniform(-math.pi, math.pi), float(rng.choice(heights))))
        classes.append(NONE_CLASS)
    if not patches:
        return np.zeros((0, PATCH_HEIGHT, PATCH_WIDTH, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(patches), np.asarray(classes, np.int64)


def blurred_and_faded(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A photo made as hard to read as the classifier's misreads were: out of focus (a disc of
    0.8-2 px), shaken (a 3-7 px streak) or both (on top of the camera effects the tables already have), in half the cases with its contrast cut to
    0.4-0.75 (a dim, hazy room), and fresh sensor noise on top (the blur smoothed the old).

    >>> photo = np.zeros((60, 80, 3), np.uint8); photo[20:40, 30:50] = 200
    >>> hard = blurred_and_faded(np.random.default_rng(0), photo)
    >>> hard.shape, hard.dtype.name, bool(hard[30, 40].mean() < 200), bool(hard[5, 5].mean() > 0)
    ((60, 80, 3), 'uint8', True, True)
    """
    from vision.synth import effects

    out = image.astype(np.float32)
    kind = rng.random()
    if kind < 0.75:
        out = effects.lens_defocus(rng, out, (0.8, 2.0))
    if kind >= 0.5:
        out = effects.motion_blur(rng, out, (3, 8))
    if rng.random() < 0.5:
        contrast = rng.uniform(0.4, 0.75)
        out = out.mean() + (out - out.mean()) * np.float32(contrast)
    out += rng.normal(0, rng.uniform(1, 4), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def training_scene(seed: int, number: int, hard_share: float = 0.0):
    """Training table ``number`` of a seed (every 4th a portrait); a share ``hard_share`` of
    the tables has small tiles, narrow digits and a blurred, faded photo (:func:`blurred_and_faded`).
    Which ones is drawn apart from the table itself, so ``hard_share=0`` renders the tables of
    before. Returns the scene and the generator to cut its patches with."""
    from vision.synth.tiles import TileSceneParams, render_tile_scene

    rng = np.random.default_rng([seed, number])
    hard_rng = np.random.default_rng([seed, number, 1])
    hard = hard_rng.random() < hard_share
    size = {} if number % 4 else {"width": 720, "height": 1280}
    if hard:
        size.update(tile_height=HARD_TILE_HEIGHT, glyph_stretch=HARD_STRETCH)
    scene = render_tile_scene(rng, TileSceneParams(**size))
    if hard:
        scene = replace(scene, image=blurred_and_faded(hard_rng, scene.image))
    return scene, rng


def _render_one(job: tuple[int, int, float, dict[int, int]]):
    """Render one training table and cut its samples (runs in a worker)."""
    seed, number, hard_share, extra_cuts = job
    scene, rng = training_scene(seed, number, hard_share)
    return classifier_samples(scene, rng, extra_cuts=extra_cuts)


def render_training_data(seed: int, scenes: int, workers: int, progress,
                         hard_share: float = 0.0, extra_cuts: dict[int, int] = EXTRA_CUTS) -> tuple[np.ndarray, np.ndarray]:
    patch_chunks, class_chunks = [], []
    jobs = ((seed, n, hard_share, extra_cuts) for n in range(scenes))
    with Pool(workers) as pool:
        for number, (patches, classes) in enumerate(pool.imap(_render_one, jobs, 4), 1):
            patch_chunks.append(patches)
            class_chunks.append(classes)
            if number % 50 == 0 or number == scenes:
                progress(f"rendered {number}/{scenes} training tables")
    return np.concatenate(patch_chunks), np.concatenate(class_chunks)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m vision.train.tiles", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("models"), help="where the ONNX files go (default models/)")
    parser.add_argument("--seed", type=int, default=1, help="seed for data and training (default 1)")
    parser.add_argument("--scenes", type=int, default=3200, help="training tables to render per network (default 3200)")
    parser.add_argument("--classifier-steps", type=int, default=24000, help="classifier training steps (default 24000)")
    parser.add_argument("--hard-share", type=float, default=0.0,
                        help="share of training tables with small tiles, narrow digits, blur and low contrast, where "
                             "the held-out font was misread (default 0: the tables the shipped model was trained on)")
    parser.add_argument("--weigh-confusions", action="store_true",
                        help="cut 5, 6 and 8 two more times and 2, 4, 9 and 10 once more (default: 4, 5, 6, 8 and 9 once "
                             "more)")
    parser.add_argument("--batch", type=int, default=128, help="patches per step (default 128)")
    parser.add_argument("--eval-scenes", type=int, default=20, help="held-out-font tables to score at the end (default 20)")
    parser.add_argument("--keep-patches", action="store_true",
                        help="store the rendered patches next to the model and reuse them on the next run")
    parser.add_argument("--threads", type=int, default=2, help="torch threads and rendering workers (default 2)")
    parser.add_argument("--device", default="cpu",
                        help="where torch trains: cpu (default) or cuda; the data and its draws are the same on both")
    parser.add_argument("--init", type=Path, metavar="DIR",
                        help="fine-tune DIR's tiles-classifier.onnx (one network, not an ensemble) instead of training "
                             "from scratch (lower learning rate, batch-norm statistics frozen); needs --members 1")
    parser.add_argument("--members", type=int, default=3,
                        help="networks to train, each on its own tables (seeds --seed, --seed + 1, ...), joined into one "
                             "file that reads with their mean (default 3)")
    parser.add_argument("--first", type=int, default=1, metavar="K",
                        help="the network (from 0, in seed order) the reader gives every patch, the others only the "
                             "patches it reads unsurely; it goes first in the joined file (default 1, the network of "
                             "seed --seed + 1: chosen on validation turns, models/TILES.md)")
    args = parser.parse_args(argv)
    if args.members < 1:
        parser.error(f"--members must be at least 1, got {args.members}")
    if args.members > 1 and not 0 <= args.first < args.members:
        parser.error(f"--first must name one of the {args.members} networks (0-{args.members - 1}), got {args.first}")
    if args.init and args.members != 1:
        parser.error("--init fine-tunes one network: give --members 1 with it")
    if not 0 <= args.hard_share <= 1:
        parser.error(f"--hard-share must be between 0 and 1, got {args.hard_share:g}")
    return args


def _training_patches(args: argparse.Namespace, seed: int, extra_cuts: dict[int, int], progress):
    """One member's training patches and classes: rendered from ``args.scenes`` tables of ``seed``,
    or read from the ``--keep-patches`` cache beside the model."""
    cache = args.out / (f"tiles-patches-{seed}-{args.scenes}"
                        + (f"-hard{args.hard_share:g}" if args.hard_share else "")
                        + ("-confusions" if args.weigh_confusions else "") + ".npz")
    if args.keep_patches and cache.is_file():
        with np.load(cache) as stored:
            patches, classes = stored["patches"], stored["classes"]
        progress(f"read the training patches from {cache}")
    else:
        patches, classes = render_training_data(seed, args.scenes, args.threads, progress, args.hard_share, extra_cuts)
        if args.keep_patches:
            np.savez(cache, patches=patches, classes=classes)
    progress(f"{len(patches)} classifier patches ({int((classes == NONE_CLASS).sum())} not a tile, "
             f"{int((classes == UPSIDE_CLASS).sum())} upside down)")
    return patches, classes


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    from vision.tiles.reader import CLASSIFIER_FILE
    from vision.train.ensemble import join_files, members_of
    from vision.train.fit import export_classifier, require_device, timed_progress, train_classifier

    if args.init and (args.init / CLASSIFIER_FILE).is_file() and members_of(args.init / CLASSIFIER_FILE) > 1:
        raise SystemExit(f"--init {args.init}: its {CLASSIFIER_FILE} joins {members_of(args.init / CLASSIFIER_FILE)} "
                         f"networks; --init fine-tunes one: take one out first with `python -m vision.train.ensemble "
                         f"{args.init / CLASSIFIER_FILE} --member 0 --out OTHER_DIR/{CLASSIFIER_FILE}`")
    require_device(args.device)
    torch.set_num_threads(args.threads)
    started = time.monotonic()
    progress = timed_progress(started)

    args.out.mkdir(parents=True, exist_ok=True)
    extra_cuts = CONFUSION_CUTS if args.weigh_confusions else EXTRA_CUTS
    figures = {"seed": args.seed, "members": args.members, "first": args.first, "training_tables": args.scenes,
               "hard_share": args.hard_share,
               "weigh_confusions": args.weigh_confusions, "patches": [],
               "classifier_steps": args.classifier_steps, "batch": args.batch, "device": args.device,
               "fine_tuned_from": str(args.init) if args.init else None}
    with tempfile.TemporaryDirectory() as scratch:
        members = []
        for member in range(args.members):
            seed = args.seed + member
            if args.members > 1:
                progress(f"member {member + 1} of {args.members} (seed {seed})")
            patches, classes = _training_patches(args, seed, extra_cuts, progress)
            figures["patches"].append(int(len(patches)))
            classifier = train_classifier(patches, classes, args.classifier_steps, args.batch, seed, progress,
                                          NUM_CLASSES, CLASSIFIER_WIDTHS,
                                          init=args.init / CLASSIFIER_FILE if args.init else None,
                                          device=args.device)
            members.append(Path(scratch) / f"member{member}.onnx")
            export_classifier(classifier, members[-1], PATCH_HEIGHT, PATCH_WIDTH, expose=False)
            del patches, classes, classifier
        if len(members) == 1:
            shutil.copyfile(members[0], args.out / CLASSIFIER_FILE)
        else:
            join_files([members[args.first]] + members[:args.first] + members[args.first + 1:], args.out / CLASSIFIER_FILE)
    progress(f"exported {CLASSIFIER_FILE} ({args.members} network(s)) to {args.out}")
    if args.eval_scenes:
        from vision.tiles.evaluation import evaluate_tables
        from vision.tiles.reader import TileReader

        reader = TileReader(args.out, threads=args.threads)
        for palette in ("ravensburger", "rummikub"):
            score = evaluate_tables(reader, palette, args.seed + 5000, args.eval_scenes)
            figures[f"heldout_font_{palette}"] = score.to_json()
            progress(f"held-out font, {palette}: {score.summary()}")
    figures["training_seconds"] = round(time.monotonic() - started)
    (args.out / "tiles-training.json").write_text(json.dumps(figures, indent=1) + "\n")
    progress("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
