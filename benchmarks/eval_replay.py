"""Rendered Gin hands through the whole pipeline, against the simulator's truth (the acceptance run).

    python benchmarks/eval_replay.py [--hands 100] [--first 0] [--answer] [--jobs 2] [--size 1280x720] [--misses FILE]
                                     [--design NAME] [--model-dir DIR] [--learn-deck] [--record DIR]

The fixed set is seeds 0..99 (players Ann and Ben, the dealer drawn by each seed): by the
simulator's truth 77 knocks, 10 gin hands, 12 undercuts and 1 no game, so it holds the
required 20 knocks, 10 gin hands and 10 undercuts. ``--first``/``--hands`` take a slice of it;
``--first 100`` and on plays hands that no test uses.

Each hand is played by :func:`engine.simulate.simulate_hand`, rendered with a held-out deck
design (:class:`rummyref.render_game.GameRenderer`), read frame by frame (calibration, motion,
recognizer, tracker) and scored by :mod:`rummyref.simulated_replay`:

- agree: the committed result equals the truth;
- wrong committed: a committed result that is not the truth (must be 0: a miss must be a question);
- hands that asked the players (doubtful cards, conflicts, or no result);
- with ``--answer`` the simulated players answer each question from the table, as they would on
  the dashboard; without it a question stays open and the hand ends without a result.

With ``--learn-deck`` the players first teach the referee their deck, as ``rummyref learn-deck``
does: two rendered photos of the guided layout of the replay's design (two rows each), learned
once, then every hand is read with that deck. With ``--record`` the learned deck is kept beside the
recordings and loaded by the next run; so are the table reader's readings of each hand: a change of
the tracker alone is measured again in seconds a hand, without rendering (such hands are not timed).

Prints one line per hand, then the figures, the reading speed (rendering not counted) and the
wall time of the whole run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tracker import deck_confidence  # noqa: E402
from rummyref.simulated_replay import HandReplay, replay_gin, summary  # noqa: E402
from vision.train.layout import recorded_deck  # noqa: E402

ACCEPTANCE_SEEDS = range(100)


def _one(job: tuple) -> HandReplay:
    import cv2

    cv2.setNumThreads(1)
    seed, size, answer, deck, design, model_dir, record, bar = job
    return next(iter(replay_gin([seed], size, answer, deck=deck, design=design, model_dir=model_dir, record=record,
                                play_confidence=bar)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=len(ACCEPTANCE_SEEDS), help="how many hands of the fixed set")
    parser.add_argument("--first", type=int, default=0,
                        help="first seed (0..99 is the fixed set; seeds from 100 on are hands no test uses)")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--answer", action="store_true", help="the simulated players answer the questions")
    parser.add_argument("--jobs", type=int, default=1, help="hands replayed in parallel (one core each)")
    parser.add_argument("--misses", type=Path, default=None,
                        help="write what the tracker committed and asked in each hand that does not agree "
                             "(one JSON line per hand) to this file")
    parser.add_argument("--design", default=None,
                        help="deck design the hands are photographed with (default: the first held-out design, "
                             "gnome/plastic)")
    parser.add_argument("--model-dir", type=Path, default=None, help="models to read with (default: the shipped ones)")
    parser.add_argument("--learn-deck", action="store_true",
                        help="teach the referee the replay's deck first (two rendered layout photos)")
    parser.add_argument("--record", type=Path, default=None,
                        help="keep the recognizer's readings of each hand in this folder and reuse them on the next "
                             "run (a subfolder per design, models and deck learning; with --learn-deck the learned "
                             "deck too), and the table reader's: a change of the table reader is then replayed "
                             "without recognizing the frames or learning the deck again, a change of the tracker "
                             "without rendering or reading")
    parser.add_argument("--play-confidence", type=float, default=None,
                        help="ask about readings below this (default: by the deck, as `rummyref run` does: the "
                             "tracker's 0.8 with --learn-deck, 0.98 without)")
    args = parser.parse_args()
    from vision.synth.decks import HELDOUT_DESIGNS

    design = args.design or HELDOUT_DESIGNS[0]
    width, height = (int(v) for v in args.size.split("x"))
    record = None
    if args.record is not None:
        models = "shipped" if args.model_dir is None else str(args.model_dir.resolve()).strip("/").replace("/", "_")
        record = args.record / f"{design.replace('/', '_')}-{models}-{'learned' if args.learn_deck else 'plain'}-{width}x{height}"
    deck = None
    if args.learn_deck:
        with Pool(1) as learner:  # onnxruntime in this process would hang the forked workers below
            deck = learner.apply(recorded_deck, (design, args.model_dir, record))
    seeds = list(range(args.first, args.first + args.hands))
    start = time.perf_counter()
    done: list[HandReplay] = []
    with Pool(args.jobs) as pool:
        for hand in pool.imap(_one, [(seed, (width, height), args.answer, deck, design, args.model_dir, record,
                                         args.play_confidence) for seed in seeds]):
            done.append(hand)
            print(json.dumps(hand.to_json()), flush=True)
            if args.misses is not None and not hand.agree:
                with args.misses.open("a") as out:
                    out.write(json.dumps({"seed": hand.seed, "events": [e.describe() + (f" | {e.detail}" if e.detail else "")
                                                                        for e in hand.events if e.kind != "stock_draw"]}) + "\n")
    wall = time.perf_counter() - start
    figures = summary(done)
    print(json.dumps(figures))
    print(f"hands {figures['hands']} (seeds {seeds[0]}..{seeds[-1]}: {figures['outcomes']}), {width}x{height}, "
          f"design {design}, players answer: {args.answer}, learned deck: {args.learn_deck}, "
          f"readings asked below {deck_confidence(args.learn_deck) if args.play_confidence is None else args.play_confidence:g}")
    print(f"results equal to the truth: {figures['agree']}/{figures['hands']} = {figures['agree_rate']:.1%}")
    print(f"wrong results committed: {figures['wrong_committed']}; hands without a result: {figures['no_result']}")
    print(f"hands that asked the players: {figures['hands_with_questions']} ({figures['questions']} questions, "
          f"{figures['questions'] / max(figures['hands'], 1):.1f} per hand; {figures['answered']} answered, "
          f"{figures['tappable']} of them with a choice the dashboard offers); "
          f"hands with every committed event equal to the truth: {figures['events_equal']}")
    print(f"reading: {figures['frames']} frames ({figures['recognized']} recognized) in {figures['seconds']} s "
          f"= {figures['fps']} fps over the {figures['hands'] - figures['logged']} hands read afresh "
          f"({figures['logged']} replayed from logged readings); whole run {wall:.0f} s wall with {args.jobs} job(s)")


if __name__ == "__main__":
    main()
