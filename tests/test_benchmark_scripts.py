"""The cheap benchmark scripts still run against today's code (they are not part of the suite's
figures, but a script that broke silently reports nothing when a session runs it)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_camera_page_benchmark_runs_with_a_camera_that_speaks_the_whole_protocol():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_camera_page.py"), "--repeat", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "GET /camera/view.json" in done.stdout and "one refresh (both)" in done.stdout


@pytest.mark.parametrize("photos", [[], ["--independent-photos"]])
def test_the_tile_turn_benchmark_judges_each_turn_once(photos):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_tiles.py"), "--tables", "0", "--light-tables", "0",
                           "--turns", "4", *photos], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("turns: 4:")]
    counts = [int(word) for word in re.findall(r"(?:verdict|confirmation|tables) (\d+)", line)]
    assert len(counts) == 4 and sum(counts) == 4


def test_the_tile_classifier_benchmark_reads_true_tiles_and_draws_the_doubtful_ones(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_tile_classifier.py"), "--scenes", "3",
                           "--montage", str(tmp_path / "doubtful.png")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    tiles, right, misread = map(int, re.search(r"(\d+) tiles: (\d+) right, (\d+) misread", done.stdout).groups())
    assert tiles == right + misread and right >= 0.95 * tiles > 0
    assert "wrote" not in done.stdout or (tmp_path / "doubtful.png").stat().st_size > 0
