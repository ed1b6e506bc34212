"""The OpenSCAD camera mount: every part renders to a clean solid, and its parameters take effect."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

SCAD = Path(__file__).resolve().parent.parent / "hardware" / "mount" / "mount.scad"
PARTS = ["clamp", "elbow", "boom_end", "tripod_adapter", "camera_plate"]


def render(tmp_path: Path, part: str, **parameters: float) -> tuple[np.ndarray, str]:
    """Render ``part`` to an ASCII STL; returns its vertices and OpenSCAD's messages."""
    assert shutil.which("openscad"), "OpenSCAD is needed (apt install openscad; .ci/apt-packages.txt has it)"
    out = tmp_path / f"{part}.stl"
    defines = ["-D", f'part="{part}"', "-D", "$fn=16"]
    for name, value in parameters.items():
        defines += ["-D", f"{name}={value}"]
    result = subprocess.run(
        ["openscad", "--render", *defines, "-o", str(out), str(SCAD)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    vertices = [line.split()[1:] for line in out.read_text().splitlines() if line.strip().startswith("vertex")]
    return np.array(vertices, dtype=float), result.stderr


@pytest.mark.parametrize("part", PARTS)
def test_every_part_renders_to_a_clean_solid(tmp_path: Path, part: str) -> None:
    vertices, messages = render(tmp_path, part)
    assert len(vertices) > 100
    assert "WARNING" not in messages and "ERROR" not in messages, messages


def test_camera_plate_fits_the_camera_module_3_hole_pattern(tmp_path: Path) -> None:
    vertices, _ = render(tmp_path, "camera_plate")
    size = vertices.max(axis=0) - vertices.min(axis=0)
    assert size[0] == pytest.approx(25 + 6) and size[1] == pytest.approx(24 + 4)  # board plus a rim
    thicker, _ = render(tmp_path, "camera_plate", plate_t=5)
    assert (thicker.max(axis=0) - thicker.min(axis=0))[2] == pytest.approx(size[2] + 2)


def test_clamp_opens_for_thicker_tables(tmp_path: Path) -> None:
    standard, _ = render(tmp_path, "clamp")
    thick, _ = render(tmp_path, "clamp", table_max=60)
    # The pole socket stands on the top jaw: the whole clamp grows by the extra opening.
    grown = (thick.max(axis=0) - thick.min(axis=0)) - (standard.max(axis=0) - standard.min(axis=0))
    assert grown == pytest.approx([0, 0, 20])


def test_unknown_part_is_refused_with_the_list(tmp_path: Path) -> None:
    result = subprocess.run(
        ["openscad", "-D", 'part="gimbal"', "-o", str(tmp_path / "x.stl"), str(SCAD)], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert 'unknown part "gimbal"; use assembly, clamp, elbow, boom_end, tripod_adapter or camera_plate' in result.stderr


def test_previews_are_committed_for_every_part() -> None:
    previews = SCAD.parent / "previews"
    for name in [*PARTS, "assembly"]:
        png = previews / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
