"""`rummyref run`: the camera referee and its dashboard in one process (the job the Pi starts at boot)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="watch a card table with a camera and serve the live dashboard",
        description="Read the table through a camera (camera -> recognizer, or tile reader -> tracker -> record), record "
        "every event with a JPEG of what was read, and serve the dashboard to the players' phones. "
        "Stop with Ctrl-C or SIGTERM; the record stays intact.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--camera", required=True,
                        help="camera: picamera2:0, usb:0, http://phone:8080/video, rtsp://..., file:game.mp4, dir:frames/")
    parser.add_argument("--game", default="gin", choices=["gin", "wiener", "tiles"],
                        help="the game on the table: Gin Rummy, Knock/Wiener Rummy (001: two decks with jokers, 2-6 "
                        "players), or tile Rummy (002; a turn ends when the players tap on the dashboard's turn clock "
                        "whose turn begins, or press the knock button)")
    parser.add_argument("--tiles", default="ravensburger", choices=["ravensburger", "rummikub"],
                        help="tile Rummy: the tile set (Ravensburger: yellow, green, blue, red; Rummikub style: black, "
                        "blue, orange, red)")
    parser.add_argument("--players", required=True, help='the players, comma-separated: "Ann,Ben" (Gin: two; Wiener '
                        'Rummy: 2-6 and tile Rummy: 2-4, in seat order clockwise)')
    parser.add_argument("--dealer", help="Gin: who deals the first hand (default: the second player); Wiener Rummy: who "
                        "deals the first round (default: the first player); tile Rummy: who begins the first round "
                        "(default: the first player)")
    parser.add_argument("--data", type=Path, default=Path("data"), help="folder of the game record and snapshots")
    parser.add_argument("--host", default="0.0.0.0", help="address to serve the dashboard on")
    parser.add_argument("--port", type=int, default=8000, help="TCP port of the dashboard")
    parser.add_argument("--pin", help="table PIN (default: generated once and kept in the record)")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads for the recognizer")
    parser.add_argument("--deck", metavar="NAME", help="read with a deck learned on the dashboard's deck page or by "
                        "`rummyref learn-deck` (default: the shipped recognizer)")
    parser.add_argument("--frame-size", default="1280x720", help="frame size asked of the camera (picamera2, USB)")
    parser.add_argument("--table-cm", help="width x height of the playing area between the markers, cm (default: "
                        "80x60 for Gin and tile Rummy, 100x80 for Wiener Rummy's 2-6 seats)")
    parser.add_argument("--corners", help="without markers: the table's four image corners as JSON "
                        "[[x,y],...] clockwise from top left (a moved camera then goes unnoticed); default: the "
                        "corners last tapped on the dashboard's camera page, else the markers")
    parser.add_argument("--gpio", default="off", help='GPIO buttons and LED, e.g. "knock=17,undo=27,led=22" or "on" '
                        '(the defaults) or "off"')
    parser.set_defaults(run=run)


MOST_PLAYERS = {"gin": 2, "wiener": 6, "tiles": 4}


def parse_size(text: str, what: str) -> tuple[float, float]:
    """``'1280x720'`` -> ``(1280.0, 720.0)``; anything else names the option."""
    try:
        width, height = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must look like 1280x720, got {text!r}") from None
    if width <= 0 or height <= 0:
        raise argparse.ArgumentTypeError(f"{what} must be positive, got {text!r}")
    return width, height


def parse_players(text: str, most: int = 2) -> tuple[str, ...]:
    """Two (up to ``most``) different names, comma-separated.

    >>> parse_players("Ann, Ben"), parse_players("Ann,Ben,Cy", most=4)
    (('Ann', 'Ben'), ('Ann', 'Ben', 'Cy'))
    >>> parse_players("Ann,Ann")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --players needs two different names separated by commas, got 'Ann,Ann'
    """
    names = tuple(name.strip() for name in text.split(","))
    if not 2 <= len(names) <= most or not all(names) or len(set(names)) != len(names):
        count = "two" if most == 2 else f"two to {most}"
        raise argparse.ArgumentTypeError(f'--players needs {count} different names separated by commas, got {text!r}')
    return names


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    try:
        points = json.loads(text)
        corners = tuple((float(x), float(y)) for x, y in points)
    except (ValueError, TypeError):
        raise argparse.ArgumentTypeError(f"--corners must be JSON like [[100,50],[1180,60],[1200,700],[80,690]], got {text!r}") from None
    if len(corners) != 4:
        raise argparse.ArgumentTypeError(f"--corners needs four points, got {len(corners)}")
    return corners


def run(args: argparse.Namespace) -> int:
    try:
        players = parse_players(args.players, MOST_PLAYERS[args.game])
        frame_w, frame_h = parse_size(args.frame_size, "--frame-size")
        table_cm = parse_size(args.table_cm, "--table-cm") if args.table_cm else None
        corners = parse_corners(args.corners) if args.corners else None
    except argparse.ArgumentTypeError as error:
        print(f"rummyref run: {error}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"rummyref run: --port must be 1..65535, got {args.port}", file=sys.stderr)
        return 2
    if args.threads < 1:
        print(f"rummyref run: --threads must be at least 1, got {args.threads}", file=sys.stderr)
        return 2
    if args.dealer is not None and args.dealer not in players:
        print(f"rummyref run: --dealer {args.dealer!r} is not one of the players {', '.join(map(repr, players))}",
              file=sys.stderr)
        return 2
    if args.deck and args.game == "tiles":
        print("rummyref run: --deck is a learned card deck; tile Rummy reads with the set taught by "
              "`rummyref learn-tiles`, if any", file=sys.stderr)
        return 2
    first = args.dealer or (players[1] if args.game == "gin" else players[0])

    from hardware.cameras import CameraUrlError, parse_camera_url
    from hardware.gpio import GpioConfig, open_gpio
    from rummyref.pipeline import PipelineConfig
    from rummyref.table import TableError, open_table
    from vision.decks import DeckProfile

    try:
        deck = DeckProfile.load(args.deck) if args.deck else None
    except (FileNotFoundError, ValueError) as error:
        print(f"rummyref run: --deck: {error}", file=sys.stderr)
        return 2
    if args.game == "tiles":
        from vision.tiles.learn import learned_profile

        deck = learned_profile(args.tiles)      # as `rummyref recognize --tiles SET` does
        print(f"tile set {args.tiles}: " + ("read with the tiles learned by `rummyref learn-tiles`" if deck else
              "read with the shipped tile reader (teach it yours with `rummyref learn-tiles`)"), flush=True)

    try:
        parse_camera_url(args.camera)
        gpio_config = GpioConfig.parse(args.gpio) if args.gpio != "on" else GpioConfig()
    except (CameraUrlError, ValueError) as error:
        print(f"rummyref run: {error}", file=sys.stderr)
        return 2
    try:
        options = {"set": args.tiles} if args.game == "tiles" else {}
        table = open_table(args.data, args.pin, players, first, "rummyref run", game=args.game, options=options)
    except TableError as error:
        print(f"rummyref run: {error}", file=sys.stderr)
        return 1
    corners_size = None     # corners given here are in the camera's own frames
    if corners is None:
        from webui.camera import stored_corners

        # corners tapped on the dashboard's camera page are the fallback when none are given here
        tapped = stored_corners(table.store)
        corners = tuple(map(tuple, tapped["corners"])) if tapped else None
        corners_size = tuple(tapped["size"]) if tapped else None
    if deck is None and args.game != "tiles":
        from engine.tracker import UNLEARNED_DECK_CONFIDENCE

        print(f"WARNING: no deck learned (--deck): the shipped recognizer reads some decks' small indices wrongly "
              f"and surely (a 5 as a 6), so the referee asks about every card it reads less than "
              f"{UNLEARNED_DECK_CONFIDENCE:g} sure; teach it yours first with `rummyref learn-deck` or the dashboard's "
              "deck page", flush=True)
    if corners is None:
        print("table geometry: from the four corner markers (print them with `rummyref markers`)", flush=True)
    else:
        print("WARNING: table corners set by hand; without markers a bumped camera cannot be noticed", flush=True)

    pipeline_config = PipelineConfig(camera=args.camera, players=players, first_dealer=first,
                                     table_cm=table_cm or _default_table_cm(args.game), corners=corners, corners_size=corners_size, threads=args.threads,
                                     frame_size=(int(frame_w), int(frame_h)), deck=deck, tiles=args.tiles)
    reading = "tile reader" if args.game == "tiles" else "recognizer"
    print(f"loading the {reading} ({args.threads} thread{'s' if args.threads > 1 else ''})...", flush=True)
    if args.game == "tiles":
        print("tile Rummy: tap whose turn begins on the dashboard's turn clock; each tap ends the turn before it, "
              "which the referee then judges", flush=True)
    elif args.game == "wiener":
        print("Wiener Rummy: each round is settled from the layouts after the knock and recorded; answer the "
              "referee's questions on the dashboard, and record there any round it cannot settle", flush=True)
    try:
        pipeline = table.pipeline(pipeline_config, on_camera=lambda status: panel.show_camera_state(status.state),
                                  game=args.game)
    except ValueError as error:     # a learned deck fitted to another classifier than the installed one
        print(f"rummyref run: {'learned tiles' if args.game == 'tiles' else '--deck'}: {error}", file=sys.stderr)
        return 2
    panel = open_gpio(gpio_config, on_knock=lambda: pipeline.press("knock"), on_undo=lambda: pipeline.press("undo"))
    if gpio_config.enabled and not panel.active:
        print(f"GPIO: {panel.reason}", flush=True)

    def announce() -> None:
        print(f"match {table.match_id}: {' vs '.join(players)}, camera {args.camera}", flush=True)

    return table.run(pipeline, args.host, args.port, "run", announce=announce, on_end=lambda: _report_end(pipeline),
                     on_stop=panel.close)


def _default_table_cm(game: str) -> tuple[float, float]:
    """The playing area the game's zones are laid out on: Wiener Rummy's 2-6 seats need more room."""
    from rummyref.pipeline import PipelineConfig
    from rummyref.wiener_pipeline import TABLE_CM

    return TABLE_CM if game == "wiener" else PipelineConfig.table_cm


def _report_end(pipeline) -> None:
    if pipeline.stats.errors:
        print(f"the pipeline stopped: {pipeline.stats.errors[-1]} (the dashboard stays up)", flush=True)
    else:
        print(f"the camera has no more frames ({pipeline.stats.frames} read); the dashboard stays up", flush=True)
