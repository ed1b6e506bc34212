"""`rummyref` command line: a thin dispatcher over :mod:`rummyref.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys

from rummyref import __version__
from rummyref.commands import COMMAND_MODULES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummyref",
        description="A referee for real card tables: Gin Rummy, Knock/Wiener Rummy and tile Rummy.",
    )
    parser.add_argument("--version", action="version", version=f"rummyref {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"rummyref.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
