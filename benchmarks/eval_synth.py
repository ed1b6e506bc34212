"""Accuracy on rendered scenes of the HELD-OUT deck designs with heavy overlap.

Renders ``--scenes`` tables (fanned melds, overlapping cards, hands, glare,
blur, JPEG) with the deck designs the models never saw in training and prints
precision and recall of card identities (see :mod:`vision.train.synth_eval`),
overall and for the training designs as a comparison.

    python benchmarks/eval_synth.py [--scenes 100] [--seed 5] [--designs heldout] [--design NAME] [--model-dir DIR ...]
                                    [--clutter 0.45] [--back-decoys 0.2] [--printed-matter 0] [--no-confirm-backs]
                                    [--card-scale]

Readings below ``--min-confidence`` (default 0.5, as ``rummyref recognize``) are dropped.
A last line per group counts face-down cards (``BACK``): scenes where one was
expected and found, and scenes where one was reported but none lies there.
``--clutter`` and ``--back-decoys`` set how much table clutter and how many
card-back patterns on non-card things the scenes carry (the generator's
defaults unless given); ``--printed-matter`` puts rugs, book covers and printed
illustrations under the cards in that share of scenes. "Stray readings" are
card readings farther than 1.5 index heights from every index of the scene
(table, print, artwork read as a card; :func:`vision.train.synth_eval.stray_readings`).

``--model-dir`` may be given several times (``shipped`` names the shipped
models): each is scored on the same rendered scenes, in one process.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--designs", choices=["heldout", "train", "both"], default="both")
    parser.add_argument("--design", action="append", metavar="NAME",
                        help="score only this design (repeatable), e.g. kde/jolly-royal: a design the "
                             "models being compared have all never seen")
    parser.add_argument("--model-dir", action="append", metavar="DIR",
                        help="models to score, repeatable ('shipped' = the shipped ones, the default)")
    parser.add_argument("--min-confidence", type=float, default=0.5)
    parser.add_argument("--clutter", type=float, help="table clutter per scene (SceneParams.clutter)")
    parser.add_argument("--back-decoys", type=float,
                        help="chance of a card back's pattern on a non-card thing (SceneParams.back_decoys)")
    parser.add_argument("--printed-matter", type=float,
                        help="chance of rugs, book covers and illustrations under the cards (SceneParams.printed_matter)")
    parser.add_argument("--no-confirm-backs", action="store_true",
                        help="report face-down cards wherever the detector finds one (RecognizerOptions.confirm_backs off)")
    parser.add_argument("--card-scale", action="store_true",
                        help="also score each model with the scene's card size known, as the table reader knows a "
                             "calibrated table's (no indices further apart than a card's diagonal paired as one card)")
    args = parser.parse_args()

    from dataclasses import replace

    from vision.labels import BACK_CODE
    from vision.recognizer import Recognizer, RecognizerOptions
    from vision.train.data import render_scenes
    from vision.train.synth_eval import evaluate
    from vision.synth.decks import HELDOUT_DESIGNS

    options = replace(RecognizerOptions(), min_confidence=args.min_confidence, confirm_backs=not args.no_confirm_backs)
    recognizers = {name: Recognizer(None if name == "shipped" else Path(name), threads=args.threads, options=options)
                   for name in args.model_dir or ["shipped"]}
    scene_changes = {name: value for name, value in (("clutter", args.clutter), ("back_decoys", args.back_decoys),
                                                     ("printed_matter", args.printed_matter)) if value is not None}
    groups = {"heldout": "heldout", "train": "train"}
    chosen = ["heldout", "train"] if args.designs == "both" else [args.designs]
    if args.design:
        groups, chosen = {"chosen": tuple(args.design)}, ["chosen"]
    for group in chosen:
        scenes = list(render_scenes(args.seed, args.scenes, groups[group], kinds=False, cards=(12, 32), overlap=0.9,
                                    **scene_changes))
        names = {"heldout": ", ".join(HELDOUT_DESIGNS), "train": "training designs + procedural decks"}.get(
            group, ", ".join(args.design or ()))
        print(f"{group} designs ({names}): {args.scenes} scenes, overlap 0.9, 12-32 cards")
        for (model, recognizer), card_scale in product(recognizers.items(), (False, True) if args.card_scale else (False,)):
            strays: list[int] = []
            score, details = evaluate(recognizer, scenes, strays, card_scale)
            if card_scale:
                model += " knowing the card size"
            confusions: Counter = Counter()
            for predicted, truth in details:
                for code in set(predicted) - truth.present:
                    confusions[f"read {code}"] += 1
                for code in truth.expected - set(predicted):
                    confusions[f"missed {code}"] += 1
            print(f"  models {model}: precision {score.precision:.4f} ({score.true_positives}/{score.predicted}), "
                  f"recall {score.recall:.4f} ({score.true_positives}/{score.expected}); "
                  f"stray readings {sum(strays)} in {sum(n > 0 for n in strays)} scenes")
            print("    most frequent errors:", ", ".join(f"{k} x{v}" for k, v in confusions.most_common(8)) or "none")
            expected = [BACK_CODE in predicted for predicted, truth in details if BACK_CODE in truth.expected]
            without = [BACK_CODE in predicted for predicted, truth in details if BACK_CODE not in truth.present]
            print(f"    face-down cards: found in {sum(expected)} of {len(expected)} scenes that show one; "
                  f"reported in {sum(without)} of {len(without)} scenes without one", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
