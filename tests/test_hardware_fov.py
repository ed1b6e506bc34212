"""The mount-height calculator: its geometry checked against first principles, and its command line."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from hardware.fov import CARD_CM, INDEX_CM, LENSES, Lens, coverage_cm, main, plan_mount


def test_coverage_is_twice_height_times_tangent_of_half_angle() -> None:
    # 90 degrees: the lens sees as far to each side as it is high.
    assert coverage_cm(40, Lens("square", 90, 90)) == pytest.approx((80, 80))
    # 60 degrees: half-width = h * tan(30) = h / sqrt(3).
    assert coverage_cm(30, Lens("narrow", 60, 60))[0] == pytest.approx(60 / math.sqrt(3))


@pytest.mark.parametrize("lens", LENSES.values(), ids=LENSES.keys())
@pytest.mark.parametrize("table", [(90, 90), (120, 80), (70, 140)])
def test_the_planned_height_is_the_lowest_that_sees_table_and_margin(lens: Lens, table) -> None:
    plan = plan_mount(table, lens, margin_cm=10)
    across, down = table[::-1] if plan.rotated else table
    width, depth = coverage_cm(plan.height_cm, lens)
    assert width >= across + 20 - 1e-9 and depth >= down + 20 - 1e-9
    # One axis is exactly filled: any lower and the table would not fit.
    assert min(width - (across + 20), depth - (down + 20)) == pytest.approx(0, abs=1e-9)
    lower = coverage_cm(plan.height_cm * 0.99, lens)
    assert lower[0] < across + 20 or lower[1] < down + 20


def test_the_long_side_goes_where_it_needs_less_height() -> None:
    lens = LENSES["cm3"]  # 66 x 41 degrees: the image is wider than high
    long_across = plan_mount((140, 70), lens, margin_cm=0)
    long_down = plan_mount((70, 140), lens, margin_cm=0)
    assert not long_across.rotated and long_down.rotated
    assert long_across.height_cm == pytest.approx(long_down.height_cm)


def test_pixels_per_cm_is_the_coarser_axis() -> None:
    plan = plan_mount((90, 90), LENSES["cm3-wide"], margin_cm=10, resolution=(1280, 720))
    width, depth = plan.coverage_cm
    assert plan.px_per_cm == pytest.approx(min(1280 / width, 720 / depth))
    # On a square table the 720 image rows span the table plus margins: 720 px / 110 cm at best.
    assert plan.px_per_cm <= 720 / 110
    assert plan.pixels(INDEX_CM) == pytest.approx((INDEX_CM[0] * plan.px_per_cm, INDEX_CM[1] * plan.px_per_cm))
    doubled = plan_mount((90, 90), LENSES["cm3-wide"], margin_cm=10, resolution=(2560, 1440))
    assert doubled.px_per_cm == pytest.approx(2 * plan.px_per_cm)
    assert doubled.height_cm == plan.height_cm


def test_the_command_prints_height_and_pixels(capsys) -> None:
    assert main(["--table", "90x90", "--hfov", "102", "--vfov", "67", "--margin", "10"]) == 0
    out = capsys.readouterr().out
    plan = plan_mount((90, 90), Lens("x", 102, 67), margin_cm=10)
    index = plan.pixels(INDEX_CM)
    card = plan.pixels(CARD_CM)
    assert "camera: Raspberry Pi Camera Module 3 Wide, 102 x 67 degrees, 1280x720 frames" in out
    assert f"mount height, lens above the table top: {plan.height_cm:.1f} cm" in out
    assert f"detail: {plan.px_per_cm:.2f} px per cm" in out
    assert f"is {card[0]:.0f} x {card[1]:.0f} px" in out
    assert f"is {index[0]:.1f} x {index[1]:.1f} px" in out


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--table", "90 by 90"], "--table must look like 90x90"),
        (["--table", "90x90", "--hfov", "190"], "horizontal field of view must be between 0 and 180 degrees"),
        (["--table", "90x90", "--margin", "-1"], "the margin not negative"),
        (["--table", "90x90", "--camera", "gopro"], "invalid choice: 'gopro'"),
    ],
)
def test_bad_arguments_are_named(args: list[str], complaint: str, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    assert complaint in capsys.readouterr().err


def test_runs_as_a_module_with_help() -> None:
    result = subprocess.run([sys.executable, "-m", "hardware.fov", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "--table" in result.stdout and "--resolution" in result.stdout
