#!/usr/bin/env bash
# Install rummyref on Raspberry Pi OS (64-bit; Bookworm with Python 3.11 or Trixie with 3.13) and
# start it at boot with systemd.
#
#   sudo hardware/install-pi.sh --players "Ann,Ben"            # Pi camera, Gin, port 8000
#   sudo hardware/install-pi.sh --camera usb:0 --no-service     # USB webcam, start by hand
#   hardware/install-pi.sh --dry-run                            # print what it would do
#
# The venv is created with --system-site-packages: picamera2 and libcamera come from the OS
# (apt), pip cannot install them. Settings go to /etc/default/rummyref; edit that file and
# `sudo systemctl restart rummyref` to change camera, game or players later.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=/opt/rummyref
camera=picamera2:0
game=gin
players="Player 1,Player 2"
host=0.0.0.0
port=8000
run_user=${SUDO_USER:-pi}
threads=""       # recognizer threads; default from the Pi model below
frame_size=1280x720
service=yes
dry_run=no
os_release=${OS_RELEASE:-/etc/os-release}  # another file only to test this script elsewhere
pi_model=${PI_MODEL_FILE:-/proc/device-tree/model}  # likewise

usage() {
    sed -n '2,12s/^# \{0,1\}//p' "$0"
    cat <<USAGE
options:
  --camera URL      camera for the service (default $camera; see hardware/README.md)
  --game NAME       game for the service: gin, wiener or tiles (default $game)
  --players LIST    comma-separated player names (default "$players")
  --port N          dashboard port (default $port)
  --user NAME       account the service runs as (default: the one running sudo, else pi)
  --threads N       onnxruntime threads for the recognizer (default 3 on a Pi 4 or 5: one core
                    stays free for the camera, the dashboard and the system; 1 elsewhere)
  --frame-size WxH  camera frame size (default $frame_size; see hardware/README.md)
  --prefix DIR      where the venv goes (default $prefix)
  --no-service      install only; no systemd unit
  --dry-run         print the commands and files instead of running and writing them
USAGE
}

while [ $# -gt 0 ]; do
    case $1 in
        --camera) camera=${2:?--camera needs a value}; shift 2 ;;
        --game) game=${2:?--game needs a value}; shift 2 ;;
        --players) players=${2:?--players needs a value}; shift 2 ;;
        --port) port=${2:?--port needs a value}; shift 2 ;;
        --user) run_user=${2:?--user needs a value}; shift 2 ;;
        --threads) threads=${2:?--threads needs a value}; shift 2 ;;
        --frame-size) frame_size=${2:?--frame-size needs a value}; shift 2 ;;
        --prefix) prefix=${2:?--prefix needs a value}; shift 2 ;;
        --no-service) service=no; shift ;;
        --dry-run) dry_run=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-pi.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
done
venv=$prefix/venv

step() { printf '\n== %s\n' "$*"; }
run() {
    printf '+ %s\n' "$*"
    [ "$dry_run" = yes ] || "$@"
}
# write_file PATH: stdin becomes the file (shown instead in a dry run).
write_file() {
    if [ "$dry_run" = yes ]; then
        printf '+ write %s:\n' "$1"
        sed 's/^/    /'
    else
        cat >"$1"
        printf '+ wrote %s\n' "$1"
    fi
}
fail() {
    if [ "$dry_run" = yes ]; then
        echo "(dry run) would stop here: $*"
    else
        echo "install-pi.sh: $*" >&2
        exit 1
    fi
}

case $port in ''|*[!0-9]*) echo "install-pi.sh: --port must be a number, not '$port'" >&2; exit 2 ;; esac
case $threads in *[!0-9]*|0) echo "install-pi.sh: --threads must be a whole number from 1, not '$threads'" >&2; exit 2 ;; esac
case $frame_size in [1-9]*x[1-9]*) ;; *) echo "install-pi.sh: --frame-size must look like 1280x720, not '$frame_size'" >&2; exit 2 ;; esac

step "checking the system"
# shellcheck source=/dev/null
codename=$( (. "$os_release" && echo "${VERSION_CODENAME:-unknown}") 2>/dev/null || echo unknown)
case $codename in
    bookworm) echo "Raspberry Pi OS / Debian 12 Bookworm (Python 3.11)" ;;
    trixie) echo "Raspberry Pi OS / Debian 13 Trixie (Python 3.13)" ;;
    *) echo "warning: '$codename' is not Bookworm or Trixie; trying anyway" ;;
esac
model=$( (tr -d '\0' <"$pi_model") 2>/dev/null || echo "not a Raspberry Pi")
case $model in
    *"Raspberry Pi 5"*|*"Raspberry Pi 4"*|*"Compute Module 4"*|*"Compute Module 5"*) default_threads=3 ;;  # 4 cores
    *) default_threads=1 ;;
esac
threads=${threads:-$default_threads}
echo "$model: recognizer threads $threads, frames $frame_size (measured figures: hardware/README.md)"
arch=$(uname -m)
[ "$arch" = aarch64 ] || fail "64-bit Raspberry Pi OS is needed (this is $arch; onnxruntime has no 32-bit ARM build)"
[ "$(id -u)" = 0 ] || fail "run it with sudo: it installs Debian packages and a systemd service"
id "$run_user" >/dev/null 2>&1 || fail "there is no user '$run_user' to run the service (use --user)"

step "Debian packages"
export DEBIAN_FRONTEND=noninteractive
run apt-get update -q
# picamera2 and libcamera for the Pi camera, gpiozero+lgpio for buttons/LED (Pi 4 and 5),
# v4l-utils to list USB webcams (v4l2-ctl --list-devices).
run apt-get install -y -q python3-venv python3-pip python3-picamera2 python3-gpiozero python3-lgpio v4l-utils

step "Python environment in $venv"
run mkdir -p "$prefix"
run python3 -m venv --system-site-packages "$venv"
run "$venv/bin/pip" install -q --upgrade pip
run "$venv/bin/pip" install -q "$repo"
# The venv may bring a newer numpy than the OS packages were built for; simplejpeg (used by
# picamera2) then fails to import. Reinstalling it inside the venv builds it for that numpy.
if [ "$dry_run" = yes ] || ! "$venv/bin/python" -c "import picamera2" 2>/dev/null; then
    run "$venv/bin/pip" install -q --force-reinstall --no-deps simplejpeg
fi
if [ "$dry_run" = no ] && ! "$venv/bin/python" -c "import picamera2" 2>/tmp/rummyref-picamera2.log; then
    echo "warning: picamera2 does not import in the venv (see /tmp/rummyref-picamera2.log);" \
         "USB, network and file cameras still work"
fi
run "$venv/bin/rummyref" --version

if [ "$service" = no ]; then
    step "done; start it with: $venv/bin/rummyref run --camera $camera --game $game --players \"$players\" --threads $threads --frame-size $frame_size"
    exit 0
fi

step "service settings in /etc/default/rummyref"
if [ -e /etc/default/rummyref ] && [ "$dry_run" = no ]; then
    echo "keeping the existing /etc/default/rummyref"
else
    write_file /etc/default/rummyref <<SETTINGS
# rummyref service settings; after a change: sudo systemctl restart rummyref
RUMMYREF_CAMERA="$camera"
RUMMYREF_GAME="$game"
RUMMYREF_PLAYERS="$players"
RUMMYREF_HOST="$host"
RUMMYREF_PORT="$port"
RUMMYREF_THREADS="$threads"
RUMMYREF_FRAME_SIZE="$frame_size"
# more options for \`rummyref run\` (see rummyref run --help), separated by spaces; once your deck
# is learned (the dashboard's deck page), read with it: RUMMYREF_ARGS="--deck grandmas-deck"
RUMMYREF_ARGS=""
SETTINGS
fi

step "systemd unit"
sed -e "s|@VENV@|$venv|g" -e "s|@USER@|$run_user|g" "$repo/hardware/rummyref.service" \
    | write_file /etc/systemd/system/rummyref.service
run systemctl daemon-reload
run systemctl enable --now rummyref.service

address=$(hostname -I 2>/dev/null | awk '{print $1}')
step "done: the dashboard is at http://${address:-this-pi}:$port (logs: journalctl -u rummyref -f)"
