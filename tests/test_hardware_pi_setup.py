"""The Raspberry Pi installer and systemd unit: shell syntax, shellcheck, a dry run, systemd's verifier."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "hardware" / "install-pi.sh"
UNIT = ROOT / "hardware" / "rummyref.service"


def dry_run(tmp_path: Path, codename: str, *args: str) -> subprocess.CompletedProcess[str]:
    os_release = tmp_path / f"os-release-{codename}"
    os_release.write_text(f'PRETTY_NAME="Debian"\nID=debian\nVERSION_CODENAME={codename}\n')
    env = {**os.environ, "OS_RELEASE": str(os_release)}
    return subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", "--user", "root", *args], capture_output=True, text=True, env=env
    )


def test_script_is_valid_bash() -> None:
    result = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_script_passes_shellcheck() -> None:
    assert shutil.which("shellcheck"), "shellcheck is needed (apt install shellcheck; .ci/apt-packages.txt has it)"
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(("codename", "python"), [("bookworm", "3.11"), ("trixie", "3.13")])
def test_dry_run_installs_into_a_system_site_packages_venv_and_a_service(
    tmp_path: Path, codename: str, python: str
) -> None:
    result = dry_run(tmp_path, codename, "--camera", "usb:0", "--players", "Ann,Ben", "--port", "8080")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"Python {python}" in out
    assert "+ apt-get install -y -q python3-venv python3-pip python3-picamera2 python3-gpiozero" in out
    assert "+ python3 -m venv --system-site-packages /opt/rummyref/venv" in out
    assert f"+ /opt/rummyref/venv/bin/pip install -q {ROOT}" in out
    assert 'RUMMYREF_CAMERA="usb:0"' in out and 'RUMMYREF_PLAYERS="Ann,Ben"' in out
    assert 'RUMMYREF_PORT="8080"' in out
    assert "ExecStart=/opt/rummyref/venv/bin/rummyref run --camera ${RUMMYREF_CAMERA}" in out
    assert "User=root" in out and "@" not in out.split("write /etc/systemd/system/rummyref.service")[1]
    assert out.index("+ systemctl daemon-reload") < out.index("+ systemctl enable --now rummyref.service")
    if platform.machine() != "aarch64":
        assert "would stop here: 64-bit Raspberry Pi OS is needed" in out


def test_dry_run_on_another_system_warns(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "bullseye", "--no-service")
    assert result.returncode == 0
    assert "warning: 'bullseye' is not Bookworm or Trixie" in result.stdout
    assert "systemctl" not in result.stdout
    assert "done; start it with: /opt/rummyref/venv/bin/rummyref run --camera picamera2:0" in result.stdout


@pytest.mark.parametrize(
    ("args", "complaint"),
    [(["--colour", "red"], "unknown option '--colour'"), (["--port", "80a"], "--port must be a number")],
)
def test_bad_options_are_named(tmp_path: Path, args: list[str], complaint: str) -> None:
    result = dry_run(tmp_path, "bookworm", *args)
    assert result.returncode == 2
    assert complaint in result.stderr


def test_help_lists_the_options() -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "sudo hardware/install-pi.sh --players" in result.stdout and "--dry-run" in result.stdout


def test_unit_restarts_on_failure_and_passes_systemd_verify(tmp_path: Path) -> None:
    text = UNIT.read_text()
    assert "Restart=on-failure" in text and "WantedBy=multi-user.target" in text
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "rummyref").write_text("#!/bin/sh\n")
    (venv / "bin" / "rummyref").chmod(0o755)
    settings = tmp_path / "default"
    settings.write_text('RUMMYREF_CAMERA="picamera2:0"\n')
    unit = tmp_path / "rummyref.service"
    unit.write_text(
        text.replace("@VENV@", str(venv)).replace("@USER@", "root")
        .replace("EnvironmentFile=/etc/default/rummyref", f"EnvironmentFile={settings}")
    )
    assert shutil.which("systemd-analyze"), "systemd-analyze is needed (apt install systemd)"
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    # systemd reports unknown keys and bad values as warnings with exit status 0.
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.parametrize(("model", "threads"), [("Raspberry Pi 5 Model B Rev 1.0", "3"), ("Raspberry Pi 4 Model B Rev 1.5", "3"),
                                                 (None, "1")])
def test_recognizer_threads_and_frame_size_follow_the_pi_model(tmp_path: Path, model: str | None, threads: str) -> None:
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model.encode() + b"\0")  # the device tree's string ends with a NUL
    env = {**os.environ, "OS_RELEASE": str(tmp_path / "none"), "PI_MODEL_FILE": str(model_file)}
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--user", "root"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert f"{model or 'not a Raspberry Pi'}: recognizer threads {threads}, frames 1280x720" in result.stdout
    assert f'RUMMYREF_THREADS="{threads}"' in result.stdout and 'RUMMYREF_FRAME_SIZE="1280x720"' in result.stdout
    assert "--threads ${RUMMYREF_THREADS} --frame-size ${RUMMYREF_FRAME_SIZE}" in result.stdout


def test_threads_and_frame_size_can_be_chosen_and_are_checked(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "bookworm", "--threads", "2", "--frame-size", "1920x1080", "--no-service")
    assert result.returncode == 0, result.stderr
    assert "--threads 2 --frame-size 1920x1080" in result.stdout
    assert "--threads must be a whole number" in dry_run(tmp_path, "bookworm", "--threads", "0").stderr
    assert "--frame-size must look like 1280x720" in dry_run(tmp_path, "bookworm", "--frame-size", "big").stderr
