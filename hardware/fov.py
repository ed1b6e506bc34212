"""How high to mount the camera over a table, and how many pixels a card gets there.

The camera looks straight down at the middle of the table. A rectilinear lens
at height ``h`` sees ``2 h tan(fov / 2)`` of the table plane along each image
axis, at the same scale everywhere on it, so the mount height is set by the
axis that runs out first, and the pixels per centimetre follow from the
resolution. The table's longer side goes along the image's wider field of view
(or whichever way needs less height).

    python -m hardware.fov --table 90x90 --hfov 102 --vfov 67 --margin 10
    python -m hardware.fov --table 120x80 --camera cm3 --resolution 1920x1080

>>> plan = plan_mount((90, 90), Lens("test", 90.0, 90.0), margin_cm=5, resolution=(1000, 1000))
>>> round(plan.height_cm, 6), plan.px_per_cm
(50.0, 10.0)
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Lens:
    """A camera's field of view in degrees across (horizontal) and down (vertical) the image."""

    name: str
    hfov_deg: float
    vfov_deg: float

    def __post_init__(self) -> None:
        for axis, angle in (("horizontal", self.hfov_deg), ("vertical", self.vfov_deg)):
            if not 0 < angle < 180:
                raise ValueError(f"{axis} field of view must be between 0 and 180 degrees, not {angle:g}")


#: Fields of view for 16:9 frames (makers' figures).
LENSES = {
    "cm3-wide": Lens("Raspberry Pi Camera Module 3 Wide", 102.0, 67.0),
    "cm3": Lens("Raspberry Pi Camera Module 3", 66.0, 41.0),
    "c920": Lens("Logitech C920 webcam (1080p)", 70.42, 43.3),
}

#: A standard poker card, and its corner index (rank and suit pip together), in centimetres.
CARD_CM = (6.3, 8.8)
INDEX_CM = (0.8, 1.9)


def coverage_cm(height_cm: float, lens: Lens) -> tuple[float, float]:
    """Width and depth of table plane seen from ``height_cm`` straight above.

    >>> [round(x, 1) for x in coverage_cm(100, Lens("90 degrees", 90, 60))]
    [200.0, 115.5]
    """
    return (
        2 * height_cm * math.tan(math.radians(lens.hfov_deg) / 2),
        2 * height_cm * math.tan(math.radians(lens.vfov_deg) / 2),
    )


@dataclass(frozen=True)
class MountPlan:
    """The result: lens height above the table top, what it sees, and the detail it gets."""

    table_cm: tuple[float, float]
    margin_cm: float
    lens: Lens
    resolution: tuple[int, int]
    height_cm: float
    rotated: bool  # the table's first side runs along the image's vertical axis

    @property
    def coverage_cm(self) -> tuple[float, float]:
        return coverage_cm(self.height_cm, self.lens)

    @property
    def px_per_cm(self) -> float:
        """Pixels per centimetre of table (the coarser image axis)."""
        (width_cm, depth_cm), (width_px, height_px) = self.coverage_cm, self.resolution
        return min(width_px / width_cm, height_px / depth_cm)

    def pixels(self, size_cm: tuple[float, float]) -> tuple[float, float]:
        return (size_cm[0] * self.px_per_cm, size_cm[1] * self.px_per_cm)


def plan_mount(
    table_cm: tuple[float, float], lens: Lens, *, margin_cm: float = 10.0, resolution: tuple[int, int] = (1280, 720)
) -> MountPlan:
    """The lowest mount that sees the whole table plus ``margin_cm`` on every side.

    >>> plan = plan_mount((90, 90), LENSES["cm3-wide"], margin_cm=10)
    >>> round(plan.height_cm, 1), [round(x, 1) for x in plan.coverage_cm], round(plan.px_per_cm, 2)
    (83.1, [205.2, 110.0], 6.24)
    >>> plan_mount((60, 120), LENSES["cm3"], margin_cm=0).rotated
    True
    """
    if min(table_cm) <= 0 or margin_cm < 0:
        raise ValueError(f"table sides must be positive and the margin not negative, got {table_cm} and {margin_cm}")

    def height_for(across: float, down: float) -> float:
        width, depth = coverage_cm(1.0, lens)  # per centimetre of height
        return max((across + 2 * margin_cm) / width, (down + 2 * margin_cm) / depth)

    straight, turned = height_for(*table_cm), height_for(table_cm[1], table_cm[0])
    return MountPlan(table_cm, margin_cm, lens, resolution, min(straight, turned), turned < straight)


def _pair(text: str, what: str) -> tuple[float, float]:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{what} must look like 90x90, not {text!r}")
    return float(match[1]), float(match[2])


def describe(plan: MountPlan) -> str:
    """The plan in words, as the command prints it."""
    across, down = plan.table_cm[::-1] if plan.rotated else plan.table_cm
    width_cm, depth_cm = plan.coverage_cm
    card, index = plan.pixels(CARD_CM), plan.pixels(INDEX_CM)
    lens = plan.lens
    return "\n".join(
        [
            f"table {plan.table_cm[0]:g} x {plan.table_cm[1]:g} cm, {plan.margin_cm:g} cm margin on every side",
            f"camera: {lens.name}, {lens.hfov_deg:g} x {lens.vfov_deg:g} degrees, "
            f"{plan.resolution[0]}x{plan.resolution[1]} frames",
            f"  image width along the table's {across:g} cm side, image height along its {down:g} cm side",
            f"mount height, lens above the table top: {plan.height_cm:.1f} cm",
            f"  the image covers {width_cm:.1f} x {depth_cm:.1f} cm of the table plane",
            f"detail: {plan.px_per_cm:.2f} px per cm",
            f"  a card ({CARD_CM[0]:g} x {CARD_CM[1]:g} cm) is {card[0]:.0f} x {card[1]:.0f} px",
            f"  a card index ({INDEX_CM[0]:g} x {INDEX_CM[1]:g} cm, rank and suit) is {index[0]:.1f} x {index[1]:.1f} px",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.fov",
        description="Camera mount height for a table, and pixels per card at that height "
        "(camera straight above the table's centre).",
    )
    parser.add_argument("--table", required=True, type=lambda t: _pair(t, "--table"), help="table size in cm, e.g. 90x90")
    parser.add_argument("--margin", type=float, default=10.0, help="extra cm to see beyond each edge (default 10)")
    parser.add_argument(
        "--camera", choices=sorted(LENSES), default="cm3-wide",
        help="a known camera's field of view (default cm3-wide); --hfov/--vfov override it",
    )
    parser.add_argument("--hfov", type=float, help="horizontal field of view in degrees")
    parser.add_argument("--vfov", type=float, help="vertical field of view in degrees")
    parser.add_argument(
        "--resolution", default="1280x720", type=lambda t: _pair(t, "--resolution"),
        help="frame size in pixels (default 1280x720, what rummyref uses on a Pi)",
    )
    args = parser.parse_args(argv)
    lens = LENSES[args.camera]
    try:
        if args.hfov is not None or args.vfov is not None:
            hfov, vfov = args.hfov or lens.hfov_deg, args.vfov or lens.vfov_deg
            known = [known.name for known in LENSES.values() if (known.hfov_deg, known.vfov_deg) == (hfov, vfov)]
            lens = Lens(known[0] if known else "custom lens", hfov, vfov)
        resolution = (int(args.resolution[0]), int(args.resolution[1]))
        plan = plan_mount(args.table, lens, margin_cm=args.margin, resolution=resolution)
    except ValueError as exc:
        parser.error(str(exc))
    print(describe(plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
