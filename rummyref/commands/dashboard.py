"""`rummyref dashboard`: the scoreboard and manual scorekeeper on the local network, no camera needed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "dashboard",
        help="serve the phone dashboard (scoreboard, manual scoring, history) without a camera",
        description="Serve the phone dashboard on the local network. Players watch on their phones; "
        "changes need the table PIN printed here (the QR code's link carries it).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--data", type=Path, default=Path("data"), help="folder of the game record (SQLite) and snapshots")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0: the whole local network)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port")
    parser.add_argument("--pin", help="table PIN (default: generated once and kept in the record)")
    parser.add_argument("--public-url", help="address phones use, for the QR code (default: this machine's LAN address)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webui import create_app
    from webui.serving import banner, lan_url, serve
    from webui.store import StoreError

    if not 0 < args.port < 65536:
        print(f"--port must be 1..65535, got {args.port}", file=sys.stderr)
        return 2
    config = {"DATABASE": str(args.data / "record.sqlite3")}
    if args.pin:
        if not (args.pin.isdigit() and 4 <= len(args.pin) <= 12):
            print("--pin must be 4 to 12 digits", file=sys.stderr)
            return 2
        config["PIN"] = args.pin
    if args.public_url:
        config["PUBLIC_URL"] = args.public_url.rstrip("/")
    try:
        app = create_app(config)
    except StoreError as exc:
        print(f"cannot open the record: {exc}", file=sys.stderr)
        return 1
    url = app.config.get("PUBLIC_URL") or lan_url(args.host, args.port)
    print(banner(app, url), flush=True)
    serve(app, host=args.host, port=args.port)
    return 0
