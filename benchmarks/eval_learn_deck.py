"""Deck learning on a held-out design: learn from two rendered guided-layout photos (two rows each),
then score rendered table scenes of that design with and without the learned deck.

Two figures per model: card identities over whole scenes (detector and classifier, see
:mod:`vision.train.synth_eval`), and index accuracy: the share of the scenes' readable corner
indices (at least 60 % visible) that the classifier reads right when cut where they are, which
is what deck learning changes. Beside it, the same share among the indices a person could read
(:mod:`vision.train.legibility`: at least 90 % visible and not blurred past reading; the excluded
ones are counted by reason), and the misreadings of both by kind (read as "not an index", a suit of
the same colour, of the other colour, another rank).

    python benchmarks/eval_learn_deck.py [--design gnome/plastic] [--scenes 40] [--model-dir DIR] [--layout-only-too]
                                         [--last-layer-too] [--scene-indices-too]

``--layout-only-too`` also learns the deck from the layout photos alone (no rendered table scenes
of the deck, as deck learning was before them) in the same process, for its scores and its time.
``--last-layer-too`` also learns it the way deck learning did before session 6 (the last layer only,
not the last convolution blocks), for its scores and the ratio of the learning times.
``--scene-indices-too`` also learns it with the readable indices of its rendered table scenes
(:func:`vision.deck_scenes.scene_patches`), for its scores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # numpy on one core, as onnxruntime (learning is "on one core")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--design", default="gnome/plastic", help="a held-out design (default gnome/plastic)")
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--overlap", type=float, default=0.6)
    parser.add_argument("--model-dir", type=Path, help="models to adapt (default: the shipped ones)")
    parser.add_argument("--layout-only-too", action="store_true",
                        help="also learn without rendered table scenes of the deck, for comparison")
    parser.add_argument("--last-layer-too", action="store_true",
                        help="also learn the last layer only (deck learning before session 6), for comparison")
    parser.add_argument("--scene-indices-too", action="store_true",
                        help="also learn the readable indices of the rendered table scenes (off in deck learning), "
                             "for comparison")
    args = parser.parse_args()

    import numpy as np

    from vision.labels import CLASS_CODES, class_of
    from vision.learn_deck import TABLE_SCENES, learn_deck
    from vision.patches import index_patch
    from vision.recognizer import Recognizer
    from vision.synth.decks import HELDOUT_DESIGNS
    from vision.train.data import MIN_VISIBLE, render_scenes, scene_labels
    from vision.train.layout import layout_photos
    from vision.train.legibility import LEGIBLE_VISIBLE, legible, misreading, sharpness
    from vision.train.synth_eval import evaluate

    if args.design not in HELDOUT_DESIGNS:
        print(f"note: {args.design} is not a held-out design ({', '.join(HELDOUT_DESIGNS)})")
    recognizer = Recognizer(args.model_dir, threads=1)
    rng = np.random.default_rng(args.seed)
    # Two photos of two rows each (spades+hearts, diamonds+clubs), as the player would take them.
    photos = layout_photos(args.design, rng)
    learned, times = [], {}

    def learn(what: str, **options) -> None:
        started, cpu = time.perf_counter(), time.process_time()
        profile = learn_deck(recognizer, photos, "bench", progress=print, **options)
        times[what] = time.perf_counter() - started
        print(f"learned ({what}) in {times[what]:.1f} s ({time.process_time() - cpu:.1f} s of CPU)")
        learned.append((f"with learned deck ({what}, {times[what]:.1f} s)", recognizer.with_deck(profile)))

    for refit_blocks in (True, False) if args.last_layer_too else (True,):
        for scenes in (TABLE_SCENES, 0) if args.layout_only_too else (TABLE_SCENES,):
            learn(f"{'blocks and layer' if refit_blocks else 'last layer only'}, {scenes} table scenes",
                  scenes=scenes, refit_blocks=refit_blocks)
    if args.scene_indices_too:
        learn(f"blocks and layer, {TABLE_SCENES} table scenes and their indices", scene_indices=True)
    if args.last_layer_too:
        for scenes in (TABLE_SCENES, 0) if args.layout_only_too else (TABLE_SCENES,):
            ratio = times[f"blocks and layer, {scenes} table scenes"] / times[f"last layer only, {scenes} table scenes"]
            print(f"learning time, blocks and layer / last layer only ({scenes} table scenes): {ratio:.2f}")
    scenes = list(render_scenes(args.seed + 1, args.scenes, (args.design,), kinds=False, procedural=0.0,
                                overlap=args.overlap, keep_clean=True))
    readable = [(scene, label) for scene in scenes for label in scene_labels(scene)[0] if label.visible >= MIN_VISIBLE]
    patches = np.stack([index_patch(scene.image, (i.x, i.y), i.angle, i.size) for scene, i in readable])
    sharp = np.array([sharpness(index_patch(scene.clean, (i.x, i.y), i.angle, i.size), patch)
                      for (scene, i), patch in zip(readable, patches)])
    visible = np.array([i.visible for _, i in readable])
    person = np.array([legible(v, s) for v, s in zip(visible, sharp)])
    truth = np.array([class_of(i.card) for _, i in readable])
    print(f"indices a person could read: {person.sum()} of {len(person)} readable ones; left out "
          f"{(visible < LEGIBLE_VISIBLE).sum()} less than {LEGIBLE_VISIBLE:.0%} visible, "
          f"{(~person & (visible >= LEGIBLE_VISIBLE)).sum()} more blurred than a person reads")
    for label, rec in [("shipped model", recognizer), *learned]:
        score, _ = evaluate(rec, scenes)
        started = time.perf_counter()
        read = rec.classify_patches(patches)[0].argmax(axis=1)
        per_patch = (time.perf_counter() - started) / len(truth) * 1000
        right = read == truth
        print(f"{args.design}, {args.scenes} scenes, {label}: precision {score.precision:.4f} "
              f"({score.true_positives}/{score.predicted}), recall {score.recall:.4f} "
              f"({score.true_positives}/{score.expected}); index accuracy {right.mean():.4f} "
              f"({right.sum()}/{len(truth)}), of the legible ones {right[person].mean():.4f} "
              f"({right[person].sum()}/{person.sum()}); classifier {per_patch:.3f} ms a patch")
        kinds = [(misreading(CLASS_CODES[t], CLASS_CODES[r]), p) for t, r, p in zip(truth, read, person) if t != r]
        for among, wanted in (("all", (True, False)), ("legible", (True,))):
            counts = Counter(kind for kind, p in kinds if p in wanted)
            print(f"    misread ({among}): " + (", ".join(f"{n} {kind}" for kind, n in counts.most_common()) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
