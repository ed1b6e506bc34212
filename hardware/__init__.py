"""Camera sources, GPIO and Raspberry Pi setup. Imports nothing else of the project.

- :mod:`hardware.cameras`: ``open_camera("usb:0")`` and friends, reconnection with back-off,
  a latest-frame reader thread.
- :mod:`hardware.gpio`: optional knock/confirm and undo buttons, status LED (gpiozero).
- :mod:`hardware.fov`: ``python -m hardware.fov`` mount height and pixels per card.
- ``install-pi.sh``, ``rummyref.service``, ``mount/``: see ``hardware/README.md``.
"""
