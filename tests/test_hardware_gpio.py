"""GPIO buttons and status LED with gpiozero's own mock pins, and the no-op fallbacks."""

from __future__ import annotations

import logging
import sys
import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import GpioConfig, LedPattern, open_gpio


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # the button connects the pulled-up pin to GND
    factory.pin(pin).drive_high()


def test_buttons_call_back_and_led_follows_the_pattern(factory) -> None:
    events: list[str] = []
    panel = open_gpio(
        GpioConfig(bounce_s=0), on_knock=lambda: events.append("knock"), on_undo=lambda: events.append("undo"),
        pin_factory=factory,
    )
    assert panel.active and panel.reason == ""
    press(factory, 17)
    press(factory, 27)
    press(factory, 17)
    deadline = time.monotonic() + 2
    while len(events) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert events == ["knock", "undo", "knock"]

    led = factory.pin(22)
    panel.show(LedPattern.ON)
    assert led.state
    panel.show_camera_state("waiting")  # slow blink: 1 s on, 1 s off
    assert panel.pattern is LedPattern.SLOW_BLINK
    panel.show(LedPattern.FAST_BLINK)
    led.clear_states()
    time.sleep(0.6)
    transitions = len(led.states) - 1  # the first entry is the state when cleared
    assert 3 <= transitions <= 5  # one every 0.15 s; a slow blink would make at most one
    panel.close()
    assert not led.state
    panel.close()  # idempotent


def test_pins_are_configurable_and_parts_can_be_left_out(factory) -> None:
    events: list[str] = []
    panel = open_gpio(GpioConfig.parse("knock=5,undo=none,led=6"), on_knock=lambda: events.append("k"),
                      pin_factory=factory)
    press(factory, 5)
    press(factory, 27)  # the default undo pin is not in use
    time.sleep(0.05)
    assert events == ["k"]
    panel.show(LedPattern.ON)
    assert factory.pin(6).state
    panel.close()


def test_bad_gpio_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="led pin must be a BCM number from 2 to 27, not 40"):
        GpioConfig(led=40)
    with pytest.raises(ValueError, match="GPIO22 is given to both undo and led"):
        GpioConfig.parse("undo=22")
    with pytest.raises(ValueError, match="pairs like knock=17,undo=27,led=22"):
        GpioConfig.parse("knock=seventeen")
    with pytest.raises(ValueError, match="not 'buzzer=4'"):
        GpioConfig.parse("buzzer=4")


def test_off_a_pi_the_panel_is_a_logged_no_op(caplog) -> None:
    # The real gpiozero, with its default pin factory, on a machine that is not a Pi.
    with caplog.at_level(logging.INFO, logger="hardware.gpio"):
        panel = open_gpio(GpioConfig(), on_knock=lambda: None)
    assert not panel.active
    assert "not a Raspberry Pi" in panel.reason
    assert any("GPIO off: no GPIO pins here" in r.getMessage() for r in caplog.records)
    panel.show(LedPattern.FAST_BLINK)
    assert panel.pattern is LedPattern.FAST_BLINK
    panel.close()


def test_without_gpiozero_the_panel_is_a_logged_no_op(monkeypatch, caplog) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    with caplog.at_level(logging.INFO, logger="hardware.gpio"):
        panel = open_gpio(GpioConfig())
    assert not panel.active
    assert "gpiozero is not installed" in panel.reason
    assert any("sudo apt install python3-gpiozero" in r.getMessage() for r in caplog.records)


def test_a_pin_already_taken_does_not_crash(factory, caplog) -> None:
    from gpiozero import LED

    taken = LED(22, pin_factory=factory)
    with caplog.at_level(logging.INFO, logger="hardware.gpio"):
        panel = open_gpio(GpioConfig(), pin_factory=factory)
    assert not panel.active
    assert "cannot claim the GPIO pins (GPIOPinInUse" in panel.reason
    taken.close()
    # The buttons claimed before the failure were released: the pins can be used again.
    again = open_gpio(GpioConfig(), pin_factory=factory)
    assert again.active
    again.close()


def test_gpio_can_be_switched_off() -> None:
    panel = open_gpio(GpioConfig.parse("off"))
    assert not panel.active and panel.reason == "GPIO off by configuration"
