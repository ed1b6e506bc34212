"""Reading photos the way a person sees them: EXIF orientation applied.

>>> load_image("no/such/file.jpg")
Traceback (most recent call last):
...
vision.imageio.ImageLoadError: cannot read no/such/file.jpg: file not found
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class ImageLoadError(ValueError):
    """A file is missing, not an image, or corrupt."""


def load_image(path: str | Path) -> np.ndarray:
    """The image at ``path`` as a BGR uint8 array, turned upright by its EXIF orientation."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    path = Path(path)
    if not path.is_file():
        raise ImageLoadError(f"cannot read {path}: file not found")
    try:
        with Image.open(path) as image:
            upright = ImageOps.exif_transpose(image)
            rgb = np.asarray(upright.convert("RGB"))
    except UnidentifiedImageError:
        raise ImageLoadError(f"cannot read {path}: not an image file") from None
    except (OSError, SyntaxError, ValueError) as error:
        raise ImageLoadError(f"cannot read {path}: corrupt image ({error})") from None
    return np.ascontiguousarray(rgb[:, :, ::-1])
