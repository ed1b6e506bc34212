"""Tile reader accuracy on rendered tables in the held-out font, and the whole table check.

1. Tables of each palette (``--tables`` each, the held-out font, rows and scattered tiles at
   any turn, hands over some tiles): tile accuracy (every tile at least 95 % visible: read
   right / misread / missed), rows grouped right, extra readings. A second line per palette
   on tables as light and colourless as the tile faces, which the outline finder does not
   handle (reported, not hidden).
2. Turns (``--turns``): a table of valid combinations, and the table after a turn -- a new
   combination laid (legal), a run extended (legal), three tiles that make no combination
   (illegal) or a table tile gone (illegal). Both photos go through the reader; the groups
   it reads (and the tiles new on the table as the rack's) go through ``engine.tiles.check_turn``:
   the two readings are judged as `rummyref check-turn` judges two photos
   (``rummyref.turn_photos.judge_turn``), and a turn counts as right when the verdict (legal or
   not) equals the engine's verdict on the true tables. Where a reading lists doubts (signs of a
   missed tile) or is impossible (a tile three times), where a tile read less sure than
   ``--confirm-below`` or doubted as misread could change the verdict (every tile of the set, a
   joker or none in its place), and so could a table tile that seems to have turned into another
   (one photo's misread), or where a whole row of the table before is not read after the turn
   (far likelier missed than taken back), the turn is "needs confirmation" and never guessed --
   unless the photo after the turn shows a combination left broken, read surely, with no sign of a
   missed tile near it: that turn is illegal whatever the rest is (since session 26).
   ``--ask-every-unsure`` asks wherever a tile is unsure, doubted or may be missed (before session
   25). The camera sees the table, not the racks: a turn whose true tables alone give another
   verdict than the true rack (a table tile taken back and its twin laid from the rack) cannot be
   told by any reading and is counted apart ("not to be told from the tables"). Since session 27 the
   two photos of a turn are taken as the referee takes them, by one still camera over one table
   (``render_tile_turn``: the same tiles in the same places but for the turn's changes, the same
   light; fresh sensor noise and a little exposure drift), and judged by what changed between them
   (``vision.tiles.change``); ``--independent-photos`` photographs each table on its own table, in
   its own light, with its own tile set and layout, and judges without comparing (before session 27).
   The turns are photographed as ``hardware.fov`` plans the mount, the whole
   table in view with a margin (``TileSceneParams.in_view``); ``--cut-by-frame`` photographs them as
   before session 24, when the camera's tilt cut a tile at the frame's edge in about a fifth of the
   turns (there a reader that never guesses asks, as the rest of such a row may lie beyond). Turns
   whose photos cut a tile are counted either way.

Run: ``python benchmarks/eval_tiles.py`` (``--help`` for the counts and the seed).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import PALETTES, parse_tiles  # noqa: E402
from engine.tiles import TileRules, check_turn, parse_groups  # noqa: E402
from rummyref.turn_photos import DESPITE_BROKEN, DESPITE_UNSURE, UNSURE, read_turn  # noqa: E402
from rummyref.turn_photos import judge_turn as judge_turn_photos  # noqa: E402
from vision.synth.tiles import deal_rows, render_tile_scene, render_tile_turn, turn_params  # noqa: E402
from vision.tiles.evaluation import evaluate_tables  # noqa: E402
from vision.tiles.reader import TileReader  # noqa: E402

TURN_KINDS = ("new combination", "extend a run", "no combination", "tile gone")


def _box_left(palette, rows: list[list[str]]) -> list[str]:
    box = Counter({f"{c}{n}": 2 for c in palette.colours for n in range(1, 14)})
    box.subtract(Counter(code for row in rows for code in row))
    return [code for code, n in box.items() for _ in range(max(0, n))]


def make_turn(rng: np.random.Generator, palette, kind: str) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """Rows before, rows after and the tiles played from the rack, for one kind of turn."""
    before = deal_rows(rng, palette, int(rng.integers(3, 7)), jokers=0.2, mixed=0.0)
    after = [list(row) for row in before]
    left = _box_left(palette, before)
    if kind in ("new combination", "tile gone"):
        new = next(row for row in (deal_rows(rng, palette, 1, 0.0, 0.0)[0] for _ in range(50))
                   if not Counter(row) - Counter(left))
        after.append(new)
        played = list(new)
        if kind == "tile gone":
            row = after[int(rng.integers(len(before)))]
            row.pop(int(rng.integers(len(row))))
        return before, after, played
    if kind == "extend a run":
        for row in rng.permutation(len(after)):
            codes = [c for c in after[row] if c != "JK"]
            if len({c[0] for c in codes}) == 1 and len({c for c in codes}) == len(codes) >= 2 and len(after[row]) == len(codes):
                colour, top = codes[0][0], max(int(c[1:]) for c in codes)
                if top < 13 and f"{colour}{top + 1}" in left and sorted(int(c[1:]) for c in codes) == list(range(top - len(codes) + 1, top + 1)):
                    after[row].append(f"{colour}{top + 1}")
                    return before, after, [f"{colour}{top + 1}"]
        return make_turn(rng, palette, "new combination")
    for _ in range(100):        # three tiles that are neither a group nor a run
        new = [str(code) for code in rng.choice(left, 3, replace=False)]
        numbers, colours = {c[1:] for c in new}, {c[0] for c in new}
        if len(numbers) > 1 and len(colours) > 1:
            after.append(new)
            return before, after, new
    raise RuntimeError("no invalid combination found")


def verdict(before, after, played, rules: TileRules):
    return check_turn(before, after, played, opened=True, rules=rules)


def doubt_kind(doubt: str) -> str:
    """A reader's doubt without its positions and counts.

    >>> doubt_kind("the blob at (315, 80) cut into 3 tile(s) of unusual width")
    'the blob at # cut into # tile(s) of unusual width'
    """
    return re.sub(r"\([\d., -]+\)|\d+", "#", doubt)


def stoppers(readings, confirm_below: float) -> set[str]:
    """What stops a turn read as ``readings`` (before and after): the kinds of doubt listed
    (:func:`doubt_kind`) and "a tile read unsure" where a tile is read less sure than ``confirm_below``.

    >>> from vision.tiles.reader import TableReading, TileObservation
    >>> unsure = TableReading((TileObservation("R7", 0.5, ((0, 0), (1, 0), (1, 1), (0, 1)), 0),))
    >>> sorted(stoppers([unsure, TableReading((), ("the tile at (3, 4) touches the frame's edge",))], 0.7))
    ['a tile read unsure', "the tile at # touches the frame's edge"]
    """
    kinds = {doubt_kind(d) for r in readings for d in r.doubts}
    return kinds | ({UNSURE} if min(r.least_confidence() for r in readings) < confirm_below else set())


def cut_by_frame(scene) -> bool:
    """Whether a tile of a rendered scene lies partly or wholly beyond the frame's edge."""
    height, width = scene.image.shape[:2]
    return any(t.outline[:, 0].min() < 0 or t.outline[:, 1].min() < 0 or t.outline[:, 0].max() > width - 1
               or t.outline[:, 1].max() > height - 1 for t in scene.tiles)


def judge_turn(reader: TileReader, rng: np.random.Generator, palette_name: str, kind: str,
               confirm_below: float, doubts: Counter | None = None, alone: Counter | None = None,
               in_view: bool = True, ask_every_unsure: bool = False,
               despite: Counter | None = None, one_table: bool = True) -> tuple[str, str, bool]:
    """'right', 'wrong', 'confirm' or 'hidden' (the true tables alone give another verdict than
    the true rack) for one rendered turn, why a confirmation was asked (``doubts`` counts the
    kinds of doubt the two readings listed, ``alone`` the one thing that stopped a turn where
    only one did: :func:`stoppers`), and whether a photo cuts a tile at the frame's edge
    (:func:`cut_by_frame`; ``in_view``: :attr:`TileSceneParams.in_view`). A turn ruled despite
    unsure tiles or doubts (:attr:`rummyref.turn_photos.TurnRuling.despite`) counts its outcome in
    ``despite`` under (what it was ruled despite, outcome); ``ask_every_unsure``: the strict rule.
    ``one_table``: both photos by one still camera over one table (:func:`render_tile_turn`), judged
    by what changed (:func:`vision.tiles.change.table_change`); else each photo of its own table,
    light and set (before session 27)."""
    palette = PALETTES[palette_name]
    rules = TileRules(palette=palette)
    while True:
        before, after, played = make_turn(rng, palette, kind)
        params = turn_params(palette_name, in_view)
        seed = int(rng.integers(2**31))
        if one_table:
            scenes = render_tile_turn(np.random.default_rng(seed), params, before, after)
        else:
            scenes = [render_tile_scene(np.random.default_rng([seed, k]), params, rows) for k, rows in enumerate((before, after))]
        if all(len(scene.rows) == len(rows) for scene, rows in zip(scenes, (before, after))):
            break
    cut = any(cut_by_frame(scene) for scene in scenes)
    true_before, true_after = parse_groups(before, rules), parse_groups(after, rules)
    truth = verdict(true_before, true_after, parse_tiles(played, palette), rules)
    # The camera sees the table, not the racks: the tiles new on the table are what was played.
    # Where that gives another verdict (a table tile taken back and its twin laid from the rack),
    # no reading could tell; such turns are counted apart, the rest judged against the truth.
    if verdict(true_before, true_after, added_tiles(true_before, true_after), rules).legal != truth.legal:
        return "hidden", "", cut
    reader = reader.with_palette(palette, reader.profile)      # only the set's own colours compete
    *readings, change = read_turn(reader, *(scene.image for scene in scenes), compare=one_table)
    stopped_by = stoppers(readings, confirm_below)
    if doubts is not None:
        doubts.update({doubt_kind(d) for r in readings for d in r.doubts})
    ruling = judge_turn_photos(*readings, rules, opened=True, confirm_below=confirm_below, strict=ask_every_unsure,
                               change=change)
    if ruling.check is None:
        if alone is not None and len(stopped_by) == 1:
            alone.update(stopped_by)
        return "confirm", ruling.asked, cut
    outcome = "right" if ruling.check.legal == truth.legal else "wrong"
    if ruling.despite and despite is not None:
        despite[ruling.despite, outcome] += 1
    return outcome, "", cut


def added_tiles(before, after) -> list:
    """The tiles on the table after a turn that were not on it before (as a multiset)."""
    return list((Counter(t for g in after for t in g) - Counter(t for g in before for t in g)).elements())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="rendered tables per palette (default 40)")
    parser.add_argument("--light-tables", type=int, default=10, help="light tables per palette (default 10)")
    parser.add_argument("--turns", type=int, default=100, help="rendered turns, half per palette (default 100)")
    parser.add_argument("--confirm-below", type=float, default=0.7,
                        help="a turn with a tile read less sure than this needs confirmation (default 0.7, chosen on "
                             "other rendered tables: readings at least that sure were all right)")
    parser.add_argument("--seed", type=int, default=7, help="seed (default 7)")
    parser.add_argument("--model-dir", type=Path, help="directory with tiles-classifier.onnx (default models/)")
    parser.add_argument("--ask-every-unsure", action="store_true",
                        help="ask wherever a tile is read below --confirm-below, doubted or may be missed, even where it cannot "
                             "change the verdict (`rummyref check-turn --strict`; the rule before session 25)")
    parser.add_argument("--cut-by-frame", action="store_true",
                        help="photograph the turns as before session 24: rows up to the frame's edge, which the "
                             "camera's tilt cuts in about a fifth of the turns (default: the whole table in view)")
    parser.add_argument("--independent-photos", action="store_true",
                        help="photograph each turn's two tables apart, each on its own table in its own light with its own "
                             "tile set and layout, and judge them without comparing the photos (before session 27; default: "
                             "one camera over one table, the photos alike but for the turn, judged by what changed)")
    args = parser.parse_args(argv)
    reader = TileReader(args.model_dir)
    started = time.monotonic()
    for number, palette in enumerate(PALETTES):
        score = evaluate_tables(reader, palette, args.seed + number, args.tables)
        print(f"{palette}, held-out font, {args.tables} tables: {score.summary()}", flush=True)
        if args.light_tables:
            light = evaluate_tables(reader, palette, args.seed + 100 + number, args.light_tables, light_tables=True)
            print(f"{palette}, held-out font, {args.light_tables} tables of any colour (light ones included): "
                  f"{light.summary()}", flush=True)
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    doubts: Counter = Counter()
    alone: Counter = Counter()
    cut_turns: Counter = Counter()
    despite: Counter = Counter()
    by_kind: dict[str, Counter] = {kind: Counter() for kind in TURN_KINDS}
    rng = np.random.default_rng(args.seed)
    for turn in range(args.turns):
        kind = TURN_KINDS[turn % len(TURN_KINDS)]
        result, why, cut = judge_turn(reader, rng, list(PALETTES)[turn % 2], kind, args.confirm_below, doubts, alone,
                                      in_view=not args.cut_by_frame, ask_every_unsure=args.ask_every_unsure,
                                      despite=despite, one_table=not args.independent_photos)
        cut_turns[result] += cut
        outcomes[result] += 1
        reasons[why] += bool(why)
        by_kind[kind][result] += 1
    if args.turns:
        print(f"turns: {args.turns}: engine's verdict {outcomes['right']} ({outcomes['right'] / args.turns:.2%}), "
              f"needs confirmation {outcomes['confirm']} ({outcomes['confirm'] / args.turns:.2%}), "
              f"wrong verdict {outcomes['wrong']} ({outcomes['wrong'] / args.turns:.2%}); "
              f"confirm below {args.confirm_below}; not to be told from the tables {outcomes['hidden']}")
        print("  confirmation asked for: " + ", ".join(f"{why} {n}" for why, n in reasons.most_common() if n))
        for what, words in ((DESPITE_UNSURE, "a tile was read unsure or doubted as misread (the verdict the same whatever it is)"),
                            (DESPITE_BROKEN, "signs of a missed tile (a combination left broken, read surely, none near it)")):
            print(f"  ruled although {words}: {despite[what, 'right'] + despite[what, 'wrong']} "
                  f"(right {despite[what, 'right']}, wrong {despite[what, 'wrong']})")
        print("  turns with a doubt of this kind: " + "; ".join(f"{what} {n}" for what, n in doubts.most_common()))
        print(f"  turns whose photos cut a tile at the frame's edge: {cut_turns.total()} (engine's verdict "
              f"{cut_turns['right']}, needs confirmation {cut_turns['confirm']}, wrong {cut_turns['wrong']}); "
              f"the other turns: engine's verdict {outcomes['right'] - cut_turns['right']} of "
              f"{args.turns - outcomes['hidden'] - cut_turns.total() + cut_turns['hidden']}")
        print("  turns stopped by this alone: " + "; ".join(f"{what} {n}" for what, n in alone.most_common()))
        for kind, counts in by_kind.items():
            print(f"  {kind}: right {counts['right']}, confirm {counts['confirm']}, wrong {counts['wrong']}, "
                  f"hidden {counts['hidden']}")
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
