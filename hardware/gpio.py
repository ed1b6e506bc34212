"""Optional buttons and a status LED on the Raspberry Pi's GPIO header, through gpiozero.

A knock/confirm button and an undo button let players act without touching a
phone; the LED shows at a glance whether the referee sees the table. All of it
is optional: without gpiozero, or off a Pi, :func:`open_gpio` returns a panel
that does nothing and says why once in the log.

Wiring (defaults of :class:`GpioConfig`, BCM numbers)::

    knock/confirm button  GPIO17 (header pin 11) to GND (pin 9)   internal pull-up
    undo button           GPIO27 (header pin 13) to GND (pin 14)  internal pull-up
    status LED            GPIO22 (header pin 15) -> 330 ohm -> LED -> GND (pin 20)
"""

from __future__ import annotations

import enum
import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

log = logging.getLogger(__name__)

#: BCM numbers of the header's general-purpose pins on every 40-pin Raspberry Pi.
USABLE_PINS = range(2, 28)


@dataclass(frozen=True)
class GpioConfig:
    """Which BCM pin does what; ``None`` leaves that part out.

    >>> GpioConfig.parse("knock=5,led=none")
    GpioConfig(knock=5, undo=27, led=None, bounce_s=0.05)
    >>> GpioConfig.parse("off")
    GpioConfig(knock=None, undo=None, led=None, bounce_s=0.05)
    >>> GpioConfig(knock=17, undo=17)
    Traceback (most recent call last):
    ...
    ValueError: GPIO17 is given to both knock and undo
    """

    knock: int | None = 17
    undo: int | None = 27
    led: int | None = 22
    #: Presses closer together than this are one press (contact bounce).
    bounce_s: float = 0.05

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        for role in ("knock", "undo", "led"):
            pin = getattr(self, role)
            if pin is None:
                continue
            if pin not in USABLE_PINS:
                raise ValueError(f"{role} pin must be a BCM number from 2 to 27, not {pin}")
            if pin in used:
                raise ValueError(f"GPIO{pin} is given to both {used[pin]} and {role}")
            used[pin] = role
        if not 0 <= self.bounce_s <= 1:
            raise ValueError(f"bounce_s must be between 0 and 1 s, not {self.bounce_s}")

    @property
    def enabled(self) -> bool:
        return any(pin is not None for pin in (self.knock, self.undo, self.led))

    @classmethod
    def parse(cls, text: str) -> GpioConfig:
        """Read ``--gpio``: ``off``, or ``role=pin`` pairs (roles knock, undo, led; pin a number or ``none``)."""
        if text.strip().lower() in ("off", "none", "no"):
            return cls(knock=None, undo=None, led=None)
        roles = {f.name for f in fields(cls)} - {"bounce_s"}
        values: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            role, _, pin = item.partition("=")
            role, pin = role.strip().lower(), pin.strip().lower()
            if role not in roles or not (pin.isdigit() or pin == "none"):
                raise ValueError(
                    f"--gpio wants 'off' or pairs like knock=17,undo=27,led=22 (pin 'none' to leave one out), "
                    f"not {item!r}"
                )
            values[role] = None if pin == "none" else int(pin)
        return cls(**values)


class LedPattern(enum.Enum):
    """What the status LED shows; values are (on seconds, off seconds), ``None`` for steady."""

    OFF = "off"
    ON = "on"  # watching the table
    SLOW_BLINK = (1.0, 1.0)  # camera lost, reconnecting
    FAST_BLINK = (0.15, 0.15)  # needs attention: confirm a knock, or a setup error


#: The LED pattern for each camera state of :class:`hardware.cameras.CameraStatus`.
LED_FOR_CAMERA_STATE = {
    "connecting": LedPattern.SLOW_BLINK,
    "streaming": LedPattern.ON,
    "lost": LedPattern.SLOW_BLINK,
    "waiting": LedPattern.SLOW_BLINK,
    "ended": LedPattern.OFF,
    "failed": LedPattern.FAST_BLINK,
    "stopped": LedPattern.OFF,
}


class GpioPanel:
    """The buttons and LED of one :class:`GpioConfig`; a no-op when :attr:`active` is false.

    Button callbacks run on gpiozero's thread: they should only hand the event
    on (put it on a queue), not do the work.
    """

    def __init__(self, config: GpioConfig, devices: dict[str, Any], reason: str = "") -> None:
        self.config = config
        self.reason = reason
        self._devices = devices
        self.pattern = LedPattern.OFF

    @property
    def active(self) -> bool:
        return bool(self._devices)

    def show(self, pattern: LedPattern) -> None:
        """Set the status LED (remembered in :attr:`pattern` even without one)."""
        self.pattern = pattern
        led = self._devices.get("led")
        if led is None:
            return
        if pattern is LedPattern.ON:
            led.on()
        elif pattern is LedPattern.OFF:
            led.off()
        else:
            on_s, off_s = pattern.value
            led.blink(on_time=on_s, off_time=off_s, background=True)

    def show_camera_state(self, state: str) -> None:
        self.show(LED_FOR_CAMERA_STATE[state])

    def close(self) -> None:
        """Turn the LED off and release the pins; safe to call twice."""
        self.show(LedPattern.OFF)
        for device in self._devices.values():
            device.close()
        self._devices = {}


def open_gpio(
    config: GpioConfig = GpioConfig(),
    *,
    on_knock: Callable[[], None] | None = None,
    on_undo: Callable[[], None] | None = None,
    pin_factory: Any = None,
) -> GpioPanel:
    """The panel for ``config``; never fails for lack of gpiozero or of a Pi (see :attr:`GpioPanel.reason`).

    ``pin_factory`` is a gpiozero pin factory (``None``: gpiozero's default,
    which finds the Pi's pins; ``gpiozero.pins.mock.MockFactory()`` in tests).
    """
    if not config.enabled:
        return GpioPanel(config, {}, "GPIO off by configuration")
    try:
        import gpiozero
    except ImportError:
        return _inactive(config, "gpiozero is not installed (on Raspberry Pi OS: sudo apt install python3-gpiozero)")
    devices: dict[str, Any] = {}
    try:
        with warnings.catch_warnings():  # gpiozero warns about every pin library it tries
            warnings.simplefilter("ignore")
            for role, callback in (("knock", on_knock), ("undo", on_undo)):
                pin = getattr(config, role)
                if pin is not None:
                    button = gpiozero.Button(
                        pin, pull_up=True, bounce_time=config.bounce_s or None, pin_factory=pin_factory
                    )
                    button.when_pressed = callback
                    devices[role] = button
            if config.led is not None:
                devices["led"] = gpiozero.LED(config.led, pin_factory=pin_factory)
    except gpiozero.BadPinFactory as exc:
        _close_all(devices)
        return _inactive(config, f"no GPIO pins here, not a Raspberry Pi? ({exc})")
    except gpiozero.GPIOZeroError as exc:
        _close_all(devices)
        return _inactive(config, f"cannot claim the GPIO pins ({type(exc).__name__}: {exc})")
    panel = GpioPanel(config, devices)
    log.info("GPIO on: %s", ", ".join(f"{role} GPIO{getattr(config, role)}" for role in devices))
    return panel


def _inactive(config: GpioConfig, reason: str) -> GpioPanel:
    log.info("GPIO off: %s; buttons and status LED are not used", reason)
    return GpioPanel(config, {}, reason)


def _close_all(devices: dict[str, Any]) -> None:
    for device in devices.values():
        device.close()
