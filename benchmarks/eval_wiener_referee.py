"""Wiener Rummy rounds refereed through the record path of ``rummyref run --game wiener``.

Each simulated round (:func:`engine.simulate_wiener.simulate_wiener`: its table readings, or with
``--render`` its frames photographed, 1280x720, and read by the pipeline's own reader: markers,
motion, the recognizer, with ``--learn-deck`` the deck and its jokers learned first) goes through
:func:`rummyref.simulated_replay.referee_simulated_round`: the Wiener pipeline's session, a real match
record, the questions proposed on the dashboard and answered there by the simulated players from
the true table, the round settled from the layouts by the dashboard's scoring, the next round
seated from the record.

Per round and in all: rounds recorded with the true penalties, wrong ones (a recorded result that
is not the truth: never allowed), rounds left to the players, questions, and whether the recorded
discards are the true ones.

Run: ``python benchmarks/eval_wiener_referee.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.simulate_wiener import simulate_wiener  # noqa: E402
from rummyref.render_game import GameRenderer  # noqa: E402
from rummyref.simulated_replay import referee_simulated_round  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from webui.store import EventStore  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds, seeds 0.. (default 30)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--players", type=int, default=4, help="players, 2-6 (default 4)")
    parser.add_argument("--render", action="store_true",
                        help="photograph every frame and read it through the pipeline (minutes a round)")
    parser.add_argument("--design", help="--render: the deck design photographed (default the first held-out one)")
    parser.add_argument("--learn-deck", action="store_true",
                        help="--render: the players teach the referee their deck and its jokers first")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 6:
        parser.error(f"--players must be 2-6, got {args.players}")
    if (args.design or args.learn_deck) and not args.render:
        parser.error("--design and --learn-deck go with --render")
    deck = None
    if args.learn_deck:
        from vision.train.layout import learned_deck

        deck = learned_deck(args.design, jokers=True)
    recognizer = Recognizer(deck=deck)
    started = time.monotonic()
    totals = {"agree": 0, "wrong": 0, "open": 0, "proposed": 0, "answered": 0, "discards_equal": 0, "next_round": 0}
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(Path(folder) / "record.sqlite3")
        for seed in range(args.first, args.first + args.rounds):
            game = simulate_wiener(seed, players=args.players)
            renderer = GameRenderer(1280, 720, (game.zones.width, game.zones.height), design=args.design,
                                    seed=seed) if args.render else None
            _, figures = referee_simulated_round(store, game, recognizer, renderer)
            totals["agree"] += figures["agree"]
            totals["wrong"] += figures["wrong"]
            totals["open"] += figures["recorded"] is None
            totals["proposed"] += figures["proposed"]
            totals["answered"] += figures["answered"]
            totals["discards_equal"] += figures["discards_equal"]
            totals["next_round"] += figures["next_round"] == 2
            print(f"seed {seed}: truth {figures['truth']} recorded {figures['recorded']} "
                  f"{'agree' if figures['agree'] else 'WRONG' if figures['wrong'] else 'left to the players'}; "
                  f"questions {figures['proposed']} (answered {figures['answered']}); discards "
                  f"{'as true' if figures['discards_equal'] else 'differ'}", flush=True)
        store.close()
    print(f"{args.rounds} rounds of {args.players} players{', photographed' if args.render else ''}"
          f"{' (deck learned)' if args.learn_deck else ''}: recorded with the true penalties {totals['agree']}, "
          f"wrong {totals['wrong']}, left to the players {totals['open']}; next round seated from the record "
          f"{totals['next_round']}; questions {totals['proposed']} ({totals['proposed'] / args.rounds:.2f} a round), "
          f"answered {totals['answered']}; discards as true {totals['discards_equal']} "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
