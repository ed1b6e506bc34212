"""`rummyref eval-vision DIR`: precision and recall of the recognizer against labelled photos."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rummyref.commands.recognize import add_recognizer_arguments, build_recognizer


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "eval-vision", help="score the card recognizer on labelled photos",
        description="Run the recognizer on every image listed in DIR/labels.json and print precision and "
                    "recall of card identities per image and overall (pooled over all images). Labels with a "
                    "'?' suit are compared by rank only.")
    parser.add_argument("directory", metavar="DIR", type=Path, help="folder with labels.json and the images it names")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    add_recognizer_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision.evaluation import LabelsError, load_labels, score_image, total
    from vision.imageio import ImageLoadError, load_image

    try:
        labels = load_labels(args.directory)
        recognizer = build_recognizer(args)
    except (LabelsError, FileNotFoundError, ValueError) as error:
        print(f"rummyref: {error}", file=sys.stderr)
        return 2
    rows, scores, errors = [], [], 0
    for number, (name, expected) in enumerate(labels.items(), 1):
        try:
            frame = load_image(args.directory / name)
        except ImageLoadError as error:
            errors += 1
            print(f"rummyref: {error}", file=sys.stderr)
            continue
        predicted = [o.card for o in recognizer.recognize(frame)]
        score = score_image(predicted, expected)
        scores.append(score)
        rows.append({"image": name, "expected": expected, "predicted": predicted,
                     "precision": round(score.precision, 4), "recall": round(score.recall, 4)})
        if not args.json:
            mark = "" if score.precision == 1 and score.recall == 1 else "  <--"
            print(f"[{number}/{len(labels)}] {name}: P {score.precision:.2f} R {score.recall:.2f} "
                  f"expected {' '.join(expected)} | got {' '.join(predicted) or '-'}{mark}", flush=True)
    overall = total(scores)
    summary = {"images": len(scores), "unreadable": errors, "precision": round(overall.precision, 4),
               "recall": round(overall.recall, 4), "true_positives": overall.true_positives,
               "predicted": overall.predicted, "expected": overall.expected}
    if args.json:
        print(json.dumps({"directory": str(args.directory), "overall": summary, "per_image": rows}, indent=1))
    else:
        print(f"overall: {summary['images']} images, precision {overall.precision:.4f} "
              f"({overall.true_positives}/{overall.predicted}), recall {overall.recall:.4f} "
              f"({overall.true_positives}/{overall.expected})" + (f", {errors} unreadable" if errors else ""))
    return 1 if errors else 0
