"""Write synthetic scenes to disk for training and evaluation.

``python -m vision.synth.dataset --out DIR --count N --split train|heldout --seed S``
writes ``DIR/images/NNNNNN.jpg``, ``DIR/annotations.jsonl`` (one line per
image: its path, kind, designs, indices and cards as in
:meth:`vision.synth.scenes.Scene.annotations`), ``DIR/meta.json`` (split,
seed, designs and their licences) and, with ``--crops``, ``DIR/crops.npz``:
``patches`` (N x P x P x 3 uint8 BGR, rotation-normalised index patches cut
with :func:`vision.geometry.crop_index`) and ``labels`` (card codes, 'JK' or
'NONE').

Scene ``i`` is rendered from the seed sequence ``(seed, i)``, so the output
does not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from .crops import index_crops
from .decks import HELDOUT_DESIGNS, TRAIN_DESIGNS, DeckError, design_licence, load_deck
from .scenes import SceneParams, render_scene

SPLITS = {"train": TRAIN_DESIGNS, "heldout": HELDOUT_DESIGNS}
# Scene kinds and their shares: camera-over-table frames, phone close-ups,
# small low-resolution photos.
KINDS = {"table": 0.7, "closeup": 0.1, "small": 0.2}


def scene_params(kind: str, designs: str | tuple[str, ...], rng: np.random.Generator) -> SceneParams:
    """Parameters for one scene of a kind ('table', 'closeup', 'small') with
    designs from a split ('train', 'heldout') or named ones.

    >>> scene_params("closeup", "heldout", np.random.default_rng(0)).designs
    'heldout'
    """
    if kind == "table":
        params = SceneParams(designs=designs)
    elif kind == "closeup":
        params = SceneParams.closeup(designs=designs)
    elif kind == "small":
        params = SceneParams.small_photo(designs=designs)
    else:
        raise ValueError(f"unknown scene kind {kind!r}: expected one of {', '.join(KINDS)}")
    return params.portrait() if kind != "table" and rng.random() < 0.5 else params


@dataclass(frozen=True)
class _Job:
    out: Path
    seed: int
    number: int
    designs: str | tuple[str, ...]
    kind: str | None
    crops: int

    def run(self) -> tuple[dict, list[tuple[np.ndarray, str]]]:
        rng = np.random.default_rng([self.seed, self.number])
        kind = self.kind or str(rng.choice(list(KINDS), p=list(KINDS.values())))
        scene = render_scene(rng, scene_params(kind, self.designs, rng))
        name = f"images/{self.number:06d}.jpg"
        cv2.imwrite(str(self.out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        crops = index_crops(scene, rng, self.crops) if self.crops else []
        return {"image": name, "kind": kind, **scene.annotations()}, crops


def _run(job: _Job) -> tuple[dict, list[tuple[np.ndarray, str]]]:
    return job.run()


def write_dataset(out: Path, count: int, split: str, seed: int, workers: int = 2, kind: str | None = None,
                  crops: int = 0, designs: tuple[str, ...] = (), quiet: bool = False) -> dict:
    """Render ``count`` scenes into ``out``; returns the meta data written.

    ``designs`` replaces the split's designs by named ones (then ``split``
    only labels the output).
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: expected train or heldout")
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    for name in designs or SPLITS[split]:  # render uncached decks once, before the workers race for them
        load_deck(name)
    (out / "images").mkdir(parents=True, exist_ok=True)
    jobs = [_Job(out, seed, i, designs or split, kind, crops) for i in range(count)]
    started = time.perf_counter()
    patches: list[np.ndarray] = []
    labels: list[str] = []
    designs: set[str] = set()
    with open(out / "annotations.jsonl", "w") as lines, get_context("fork").Pool(workers) as pool:
        for done, (record, scene_crops) in enumerate(pool.imap(_run, jobs, chunksize=4), start=1):
            lines.write(json.dumps(record) + "\n")
            designs.update(record["designs"])
            patches.extend(p for p, _ in scene_crops)
            labels.extend(label for _, label in scene_crops)
            if not quiet and (done % 50 == 0 or done == count):
                rate = done / (time.perf_counter() - started)
                print(f"{done}/{count} scenes, {rate:.1f} scenes/s, {len(patches)} crops", file=sys.stderr, flush=True)
    if crops:
        np.savez_compressed(out / "crops.npz", patches=np.stack(patches) if patches else
                            np.zeros((0, crops, crops, 3), np.uint8), labels=np.array(labels))
    meta = {"split": "custom" if designs else split, "count": count, "seed": seed, "kind": kind or "mixed", "crop_size": crops,
            "seconds": round(time.perf_counter() - started, 1),
            "designs": {name: design_licence(name) for name in sorted(designs)}}
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth.dataset", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="output directory (created)")
    parser.add_argument("--count", type=int, default=1000, help="number of scenes (default 1000)")
    parser.add_argument("--split", choices=sorted(SPLITS), default="train",
                        help="train: training designs + procedural decks; heldout: only the held-out designs")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--kind", choices=sorted(KINDS), help="only this kind of scene (default: a mix)")
    parser.add_argument("--designs", type=lambda text: tuple(n for n in text.split(",") if n), default=(),
                        metavar="NAME,...", help="only these designs, e.g. gnome/anglo,proc/7 (instead of the split's)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--crops", type=int, default=0, metavar="PX",
                        help="also write PX x PX index patches (and no-index patches) to crops.npz")
    args = parser.parse_args(argv)
    try:
        meta = write_dataset(args.out, args.count, args.split, args.seed, args.workers, args.kind, args.crops,
                             args.designs)
    except (ValueError, DeckError) as error:
        parser.error(str(error))
    print(f"wrote {meta['count']} scenes to {args.out} in {meta['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
