"""`python -m vision.train --out models/`: regenerate the data and train both stages.

Renders scenes of the training deck designs with :mod:`vision.synth`, trains
the detector and the classifier on 2 CPU threads (or a GPU, ``--device cuda``), exports both to ONNX, and
scores the exported models on fresh scenes of the training designs and of the
held-out designs (never trained on). Figures go to ``cards-training.json``
next to the models. Seeded: the same command gives the same data. With ``--workers N``
the scenes are rendered in N processes, in blocks of ``RENDER_BLOCK`` seeded by (seed, block):
other data than one process draws, the same for every N.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from multiprocessing import get_context
from pathlib import Path


RENDER_BLOCK = 50
"""Scenes per block of ``--workers``: each block has its own seed, so any number of processes draws the same data."""

DEFAULT_OVERLAP = (0.3, 1.0)
"""Table scenes' overlap range of the shipped models' training."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("models"), help="where the ONNX files go (default models/)")
    parser.add_argument("--seed", type=int, default=1, help="seed for data and training (default 1)")
    parser.add_argument("--scenes", type=int, default=1000, help="training scenes to render (default 1000)")
    parser.add_argument("--detector-steps", type=int, default=2500, help="detector training steps of 16 crops (default 2500)")
    parser.add_argument("--classifier-steps", type=int, default=5000, help="classifier training steps of 128 patches (default 5000)")
    parser.add_argument("--label-smoothing", type=float, metavar="S",
                        help="the classifier's label smoothing (default 0.05, vision.train.fit.LABEL_SMOOTHING, as the "
                             "shipped models were trained; trained to the end, a classifier reads a patch it knows at "
                             "about 1 - S, and the referee takes an untaught deck's readings from 0.98)")
    parser.add_argument("--eval-scenes", type=int, default=30, help="validation scenes per design group (default 30)")
    parser.add_argument("--overlap", type=float, nargs=2, metavar=("LOW", "HIGH"), default=DEFAULT_OVERLAP,
                        help="draw each training table scene's overlap uniformly from LOW..HIGH (0 = cards apart, "
                             "1 = tight fans; default 0.3 1.0, the shipped models': tight fans are where a "
                             "classifier trained on loose ones failed)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2; 1 is faster on a busy machine)")
    parser.add_argument("--init", type=Path, metavar="DIR",
                        help="fine-tune the models in DIR instead of training from scratch (lower learning rate, "
                             "batch-norm statistics frozen); a stage given 0 steps keeps DIR's model as it is")
    parser.add_argument("--fresh-classifier", action="store_true",
                        help="with --init: train the classifier from scratch (--init still gives the detector and, "
                             "for --hard-negatives, the candidates)")
    parser.add_argument("--printed-matter", type=float, default=0.0, metavar="P",
                        help="chance per training scene of a rug, book cover or printed illustration under the "
                             "cards (SceneParams.printed_matter; default 0, as the shipped models were trained)")
    parser.add_argument("--procedural", type=float, default=None, metavar="P",
                        help="share of decks drawn procedurally instead of from the training designs "
                             "(SceneParams.procedural; default 0.35; the shipped models saw none, see models/CARDS.md)")
    parser.add_argument("--layouts", type=float, default=0.0, metavar="P",
                        help="share of training scenes that photograph rows of learn-deck's upright layout "
                             "(SceneParams.layout; default 0, as the shipped models were trained)")
    parser.add_argument("--grazing", type=float, default=0.0, metavar="P",
                        help="share of training scenes photographed from low over the table, the indices "
                             "squashed (SceneParams.grazing; default 0)")
    parser.add_argument("--hard-negatives", type=int, default=0, metavar="N",
                        help="per scene, up to N 'not an index' patches where a detector finds an index candidate "
                             "but none lies: the --init detector's, or without --init the one trained here, once "
                             "trained (default 0)")
    parser.add_argument("--far-camera", action="store_true",
                        help="shrink one classifier batch in six to a far camera's 9-15 px indices and cut it up "
                             "again (session 15's candidate T was fine-tuned so, see models/CARDS.md)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes rendering the scenes (default 1); above 1 the scenes come in blocks of "
                             f"{RENDER_BLOCK}, each seeded by (seed, block): the same data for any N > 1, other "
                             "data than one process renders")
    parser.add_argument("--device", default="cpu",
                        help="where torch trains: cpu (default) or cuda; batches and their draws are the same on both")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    if args.detector_steps < 0 or args.classifier_steps < 0 or args.scenes < 1:
        parser.error("--scenes must be at least 1, the step counts at least 0")
    if not 0.0 <= args.overlap[0] <= args.overlap[1] <= 1.0:
        parser.error(f"--overlap needs LOW <= HIGH within 0..1, got {args.overlap[0]} {args.overlap[1]}")
    if 0 in (args.detector_steps, args.classifier_steps) and args.init is None:
        parser.error("0 steps keep the model of --init DIR; give --init")
    if args.fresh_classifier and (args.init is None or not args.classifier_steps):
        parser.error("--fresh-classifier needs --init DIR (without it every stage starts afresh) and classifier steps")
    if not 0.0 <= args.printed_matter <= 1.0 or args.hard_negatives < 0:
        parser.error("--printed-matter must lie within 0..1, --hard-negatives be at least 0")
    if args.procedural is not None and not 0.0 <= args.procedural <= 1.0:
        parser.error(f"--procedural must lie within 0..1, got {args.procedural}")
    if not (0.0 <= args.layouts and 0.0 <= args.grazing and args.layouts + args.grazing <= 1.0):
        parser.error(f"--layouts and --grazing must be shares adding up to at most 1, got {args.layouts} and {args.grazing}")
    if args.label_smoothing is not None and not 0.0 <= args.label_smoothing < 1.0:
        parser.error(f"--label-smoothing must lie within 0..1 (below 1), got {args.label_smoothing}")
    return args


def training_scenes(args: argparse.Namespace, seed=None, count: int | None = None):
    """The training scenes the options ask for, rendered one by one (``seed`` and ``count``: one
    block's, else the run's)."""
    from vision.train.data import render_scenes

    # The scene changes are passed only when asked, so that the default stream of scenes stays as it was.
    changes = {"printed_matter": args.printed_matter} if args.printed_matter else {}
    if args.procedural is not None:
        changes["procedural"] = args.procedural
    # "train": the training designs and, in SceneParams.procedural of the decks, procedural ones (the tuple
    # TRAIN_DESIGNS would name the real designs alone: every model before session 14 was trained so).
    return render_scenes(args.seed if seed is None else seed, args.scenes if count is None else count, "train",
                         table_overlap=args.overlap, layouts=args.layouts, grazing=args.grazing, **changes)


def prepared(args: argparse.Namespace, scene, rng):
    """One training scene as the stages take it: the detector's scaled scene, the classifier's
    patches and classes, and the scene's image and index labels (for mining)."""
    from vision.train.data import classifier_samples, scale_for_detector, scene_faces, scene_labels

    indices, backs = scene_labels(scene)
    detector_scene = scale_for_detector(scene.image, indices, backs, rng)
    patches, classes = classifier_samples(scene.image, indices, rng, faces=scene_faces(scene))
    return detector_scene, patches, classes, scene.image, indices


def render_block(job: tuple[argparse.Namespace, int]) -> list:
    """Worker of ``--workers``: block ``block`` of the scenes, prepared, seeded by (seed, block) alone."""
    import numpy as np

    args, block = job
    rng = np.random.default_rng([args.seed, block, 1])
    count = min(RENDER_BLOCK, args.scenes - block * RENDER_BLOCK)
    scenes = training_scenes(args, seed=[args.seed, block], count=count)
    # The images travel back only when they are to be mined.
    return [sample if args.hard_negatives else sample[:3] + (None, None)
            for sample in (prepared(args, scene, rng) for scene in scenes)]


def prepared_scenes(args: argparse.Namespace, rng):
    """The run's training scenes, prepared (:func:`prepared`): by one process from ``rng``, or by
    ``--workers`` processes block by block."""
    if args.workers == 1:
        for scene in training_scenes(args):
            yield prepared(args, scene, rng)
        return
    blocks = -(-args.scenes // RENDER_BLOCK)
    with get_context("fork").Pool(args.workers) as pool:
        for samples in pool.imap(render_block, [(args, block) for block in range(blocks)]):
            yield from samples


def keep(model: Path, out: Path) -> None:
    """A stage given 0 steps: its model of --init goes to --out unchanged."""
    if model.resolve() != out.resolve():
        shutil.copyfile(model, out)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import numpy as np
    import torch

    from vision.labels import NONE_CLASS
    from vision.recognizer import CLASSIFIER_FILE, DETECTOR_FILE, IndexDetector, Recognizer
    from vision.train.data import detector_negatives, render_scenes
    from vision.train.fit import (LABEL_SMOOTHING, export_classifier, export_detector, require_device, timed_progress,
                                  train_classifier, train_detector)
    from vision.train.synth_eval import evaluate
    from vision.synth.decks import HELDOUT_DESIGNS, TRAIN_DESIGNS, load_deck

    require_device(args.device)
    torch.set_num_threads(args.threads)
    started = time.monotonic()
    progress = timed_progress(started)

    args.out.mkdir(parents=True, exist_ok=True)
    for number, design in enumerate(TRAIN_DESIGNS + HELDOUT_DESIGNS, 1):
        load_deck(design)     # renders the SVG deck into the cache the first time (seconds per deck)
        progress(f"deck {number}/{len(TRAIN_DESIGNS) + len(HELDOUT_DESIGNS)} ready: {design}")
    rng = np.random.default_rng(args.seed)
    detector_scenes, patch_chunks, class_chunks = [], [], []
    mined: list[int] = []     # hard negatives cut, scene by scene

    def mine(detector, image, indices) -> None:
        hard = detector_negatives(image, indices, detector.detect(image)[0], args.hard_negatives, rng)
        patch_chunks.append(hard)
        class_chunks.append(np.full(len(hard), NONE_CLASS, np.int64))
        mined.append(len(hard))

    # One process with --init mines as it renders, from the one stream of draws; otherwise each scene
    # waits in `unmined` for the --init detector or, without --init, for this run's own.
    inline = args.workers == 1 and args.init is not None
    miner = IndexDetector(args.init, threads=args.threads) if args.hard_negatives and inline else None
    unmined = []
    for number, (detector_scene, patches, classes, image, indices) in enumerate(prepared_scenes(args, rng), 1):
        detector_scenes.append(detector_scene)
        patch_chunks.append(patches)
        class_chunks.append(classes)
        if miner is not None:
            mine(miner, image, indices)
        elif args.hard_negatives:
            unmined.append((image, indices))
        if number % 100 == 0 or number == args.scenes:
            progress(f"rendered {number}/{args.scenes} training scenes")

    init = {name: args.init / name if args.init else None for name in (DETECTOR_FILE, CLASSIFIER_FILE)}
    if args.fresh_classifier:
        init[CLASSIFIER_FILE] = None
    if args.detector_steps:
        detector = train_detector(detector_scenes, args.detector_steps, 16, args.seed, progress, init[DETECTOR_FILE],
                                  device=args.device)
        export_detector(detector, args.out / DETECTOR_FILE)
    else:
        keep(init[DETECTOR_FILE], args.out / DETECTOR_FILE)
    del detector_scenes
    if unmined:
        miner = IndexDetector(args.init or args.out, threads=args.threads)
        for image, indices in unmined:
            mine(miner, image, indices)
        del unmined
        progress("mined the places this detector mistakes for indices")
    patches, classes = np.concatenate(patch_chunks), np.concatenate(class_chunks)
    del patch_chunks, class_chunks
    progress(f"{len(patches)} classifier patches ({np.bincount(classes)[-1]} not an index)")
    smoothing = LABEL_SMOOTHING if args.label_smoothing is None else args.label_smoothing
    if args.classifier_steps:
        classifier = train_classifier(patches, classes, args.classifier_steps, 128, args.seed, progress,
                                      init=init[CLASSIFIER_FILE], far_camera=args.far_camera, device=args.device,
                                      label_smoothing=smoothing)
        export_classifier(classifier, args.out / CLASSIFIER_FILE)
    else:
        keep(init[CLASSIFIER_FILE], args.out / CLASSIFIER_FILE)
    progress(f"exported {DETECTOR_FILE} and {CLASSIFIER_FILE} to {args.out}")

    recognizer = Recognizer(args.out, threads=args.threads)
    figures: dict = {"seed": args.seed, "training_scenes": args.scenes, "patches": int(len(patches)),
                     "detector_steps": args.detector_steps, "classifier_steps": args.classifier_steps,
                     "fine_tuned_from": str(args.init) if args.init else None,
                     "fresh_classifier": args.fresh_classifier,
                     "table_overlap": args.overlap, "printed_matter": args.printed_matter,
                     "procedural": args.procedural, "layouts": args.layouts, "grazing": args.grazing,
                     "hard_negatives": args.hard_negatives, "hard_negative_patches": sum(mined),
                     "far_camera": args.far_camera, "label_smoothing": smoothing,
                     "render_workers": args.workers, "device": args.device,
                     "train_designs": list(TRAIN_DESIGNS), "heldout_designs": list(HELDOUT_DESIGNS)}
    for group, designs, seed in (("train_designs", TRAIN_DESIGNS, args.seed + 1000),
                                 ("heldout_designs", HELDOUT_DESIGNS, args.seed + 2000)):
        score, _ = evaluate(recognizer, render_scenes(seed, args.eval_scenes, designs))
        figures[f"validation_{group}"] = {"scenes": args.eval_scenes, "precision": round(score.precision, 4),
                                          "recall": round(score.recall, 4)}
        progress(f"validation on {args.eval_scenes} fresh scenes of {group.replace('_', ' ')}: "
                 f"precision {score.precision:.4f} recall {score.recall:.4f}")
    figures["training_seconds"] = round(time.monotonic() - started)
    (args.out / "cards-training.json").write_text(json.dumps(figures, indent=1) + "\n")
    progress("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
