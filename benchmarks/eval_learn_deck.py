"""Deck learning on a held-out design: learn from two rendered guided-layout photos (two rows each),
then score rendered table scenes of that design with and without the learned deck.

    python benchmarks/eval_learn_deck.py [--design gnome/guyenne-classic] [--scenes 40]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--design", default="gnome/guyenne-classic", help="a held-out design (default gnome/guyenne-classic)")
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--overlap", type=float, default=0.6)
    args = parser.parse_args()

    import numpy as np

    from vision.learn_deck import learn_deck
    from vision.recognizer import Recognizer
    from vision.synth.decks import HELDOUT_DESIGNS
    from vision.train.data import render_scenes
    from vision.train.layout import render_layout
    from vision.train.synth_eval import evaluate

    if args.design not in HELDOUT_DESIGNS:
        print(f"note: {args.design} is not a held-out design ({', '.join(HELDOUT_DESIGNS)})")
    recognizer = Recognizer(threads=1)
    rng = np.random.default_rng(args.seed)
    # Two photos of two rows each (spades+hearts, diamonds+clubs), as the player would take them.
    photos = [(f"rows {first + 1}-{first + 2}", render_layout(args.design, rng, rows=2, first_row=first))
              for first in (0, 2)]
    started = time.perf_counter()
    profile = learn_deck(recognizer, photos, "bench", progress=print)
    print(f"learned in {time.perf_counter() - started:.1f} s")
    scenes = list(render_scenes(args.seed + 1, args.scenes, (args.design,), kinds=False, procedural=0.0,
                                overlap=args.overlap))
    for label, rec in (("shipped model", recognizer), ("with learned deck", recognizer.with_deck(profile))):
        score, _ = evaluate(rec, scenes)
        print(f"{args.design}, {args.scenes} scenes, {label}: precision {score.precision:.4f} "
              f"({score.true_positives}/{score.predicted}), recall {score.recall:.4f} "
              f"({score.true_positives}/{score.expected})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
