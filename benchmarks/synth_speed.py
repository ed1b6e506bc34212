"""How fast the synthetic scene generator renders, per kind of scene, on one core.

    python benchmarks/synth_speed.py [--scenes 40]

Prints scenes per second (CPU time of this process, so other load on the
machine does not distort it) and readable index crops per second, for the
training mix of real and procedural designs, and the cost of the camera
effects as a ratio against clean scenes measured in the same process.
Decks are loaded before timing (the first run renders and caches them).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from vision.synth.dataset import KINDS, scene_params
from vision.synth.decks import TRAIN_DESIGNS, load_deck
from vision.synth.scenes import render_scene


def measure(kind: str, scenes: int, effects: float) -> tuple[float, float]:
    """(scenes per CPU second, readable indices per CPU second)."""
    rng = np.random.default_rng(1)
    indices = 0
    started = time.process_time()
    for _ in range(scenes):
        params = scene_params(kind, "train", rng)
        scene = render_scene(rng, replace(params, effects=effects))
        indices += sum(a.readable for a in scene.indices)
    seconds = time.process_time() - started
    return scenes / seconds, indices / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per kind (default 40)")
    args = parser.parse_args()
    for name in TRAIN_DESIGNS:
        load_deck(name)
    print(f"{'kind':8} {'scenes/s':>9} {'indices/s':>10} {'clean scenes/s':>15} {'effects cost':>13}")
    for kind in KINDS:
        rate, index_rate = measure(kind, args.scenes, 1.0)
        clean, _ = measure(kind, args.scenes, 0.0)
        print(f"{kind:8} {rate:9.2f} {index_rate:10.1f} {clean:15.2f} {clean / rate:12.2f}x")


if __name__ == "__main__":
    main()
