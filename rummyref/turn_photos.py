"""A tile Rummy turn judged from two photos of the table, one before it and one after it.

The camera sees the table, not the racks: the tiles new on the table are the ones played. The
verdict is the engine's (:func:`engine.tiles.check_turn`) on the two readings, given only where
no tile the reader may have missed or misread could change it; otherwise the turn needs
confirmation, and :attr:`TurnRuling.asked` says why. It is never guessed:

- a reading that lists a sign of a missed tile (:attr:`vision.tiles.reader.TableReading.missing_doubts`),
  or that holds a tile more often than the set does, is asked about;
- so is a turn after which a whole row of the table is not read (far likelier missed than taken back),
  and one whose table before it reads with a combination that is none (the table before a turn is
  valid: such a reading has a row read apart or a tile read twice);
- a tile read less sure than ``confirm_below``, or doubted as misread, and a table tile that seems
  to have turned into another (one photo's misread; by one still camera, only a tile read where the
  table tile gone lay: :func:`_where_one_went`), are tried as every tile, a joker and none
  (:func:`engine.tiles.check_turn_despite`); where that can change the verdict, the turn is asked.
  A tile read below the bar in a combination that the other photo shows too (or extended, or
  shortened), that tile in it read surely, is taken as read: tiles do not change, so it is the
  same tile seen twice.

Where both photos are by one still camera (:func:`vision.tiles.change.table_change`), the turn is judged
by what changed. The table before a turn is valid (it was judged at the end of the turn before), so a
row that lies where the photos are alike (no change within :data:`CLEAR` tile heights of any of its
tiles) is as valid after the turn as before and plays no part in it: such rows are left out of both
readings where each photo's are read alike (the same tiles in the same places), and where all of them
are (one at least), so are the signs of a missed tile that lie where nothing changed (a tile missed
there is missed in both photos, and it lies in a row that did not change). A change that no tile read in
either photo covers is a sign of a missed tile (:data:`CHANGE_UNREAD`); one in the photo after the turn
where a tile was read before it and its face changed (:data:`FACE_GONE`) is not: that tile was taken
away (a tile there would show a face as before); nor is one in the photo before the turn where a tile is
read after it, its face come there: that tile was laid on bare table; nor one that only one photo shows,
where nothing changed, no tile is read in either photo and no row near a change could hold a tile (the
same pixels read as bare table in the other photo); nor a doubt about a blob's count of tiles whose
tiles the other photo read and cut alike without doubting them; nor one about a place beside rows (the
room between two rows in one line, a row laid in line with another; the place beyond a row's end; a
patch of face colour with no tile near it but tiles laid in the turn) whose middle did not change, where
neither photo reads a tile and the other photo shows no sign (a tile laid there would change the place;
one lying there before the turn would lie at the end of a row in the photo before it, which shows no
sign there); nor a hand over the table whose pixels did not change, a tile height and more from every
change and 1.5 from every row near one (a hand moves between two photos a turn apart; a patch of the
cloth that passes for one stays). Both photos are read in one light, and a change no tile read covers is
read again by its own colour, the whole photo and the changed part on its own (:func:`read_turn`). A
tile read alike in one place in both photos, cut alike, is as sure as its surer reading. A tile one photo
found but could not read is the tile the other photo reads in its place, where that place did not change
(:func:`_read_in_other`).

A tile read in one place in both photos, its face unchanged there, but read as two tiles, is one
tile (one photo's misread), and so is one read alike but unsurely in both or doubted as misread in
either: it is tried as every tile in both at once
(:func:`engine.tiles.check_turn_despite`'s ``same``), and a table before the turn that reads with
a combination that is none is not asked about where such a tile may mend it.

One thing is illegal whatever the rest of the table is: a combination left broken on the table
after the turn. Where the photo after the turn shows one whose every tile is read surely, with no
sign of a missed tile near it (a tile's place, or a row's tiles where the row may hold more) and
none about no place at all (a hand), the turn is ruled illegal for that reason even where doubts
elsewhere stop every other reason.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.tiles import (
    TileRuleError, TileRules, TurnCheck, broken_groups, check_turn_despite, groups_gone, parse_groups,
    replaced_in_place,
)
from vision.tiles.change import TableChange, table_change
from vision.tiles.reader import (
    BEYOND_END, HAND, NOT_BETWEEN, PATCH, ROOM, UNREADABLE, UNUSUAL_WIDTH, Doubt, TableReading, TileObservation,
    TileReader,
)

CONFIRM_BELOW = 0.7
"""A tile read less sure than this may be another (chosen on rendered tables: readings at least
this sure were all right)."""

NEAR_BROKEN = 2.0
"""A sign of a missed tile this many tile heights from a tile of a broken combination may be a
tile of it (the next tile of its row lies about one tile width away)."""

SURE_TWICE = 0.9
"""A tile read less sure than the bar in one photo is taken as read where the other photo shows
its combination too, that tile in it read at least this sure (:func:`_unsure_places`)."""

CLEAR = 1.5
"""A tile this many tile heights from every change between the photos lies where the table did not change
(the next tile of its row would lie one tile width on)."""

FACE_GONE = 0.6
"""A tile read before the turn whose outline changed this much between the photos, with no tile read there
after it, was taken away: another tile in its place would leave its face's colour as it was. (And one read
after the turn so, with none read there before it, was laid on bare table.)"""

ONE_OUTLINE = 0.15
"""Two tiles read in two photos of one still camera are cut alike where no corner of theirs lies this many
tile heights from the other's (tiles cut alike lie a few hundredths of a height apart)."""

CHANGED_CROP = 2.0
"""A change no tile read covers is read again in a crop this many tile heights around it
(:func:`_read_where_changed`)."""

ON_CHANGE = 0.3
"""A row read in such a crop is taken only where this share of each of its tiles changed at least: a tile
that lay there in both photos changed next to nothing; one laid, most of it (less where its face has the
table's colour)."""

APART = 1.25
"""A row read in such a crop is taken only where each of its tiles lies this many tile heights from every
tile read: beside a row read (its next tile, or a row on top of it) it may be part of that row, which the
crop did not read, and is left to the players."""

SMALLEST_TILE = 12.0
"""The height (pixels) of the smallest tile looked for where no tile is read in either photo (the reader's least)."""

SAME_FACE = 2.0
"""Two face colours (Lab) within this of each other in every channel are one: a photo is not read again by the
colour of what changed where it was read by that colour already."""

PLACE_MIDDLE = 0.5
"""The middle of a place beside rows (the room between two rows in one line, the place beyond a row's end):
a square this many tile heights wide around it."""

PLACE_CHANGED = 0.1
"""A place beside rows did not change where under ``PLACE_CHANGED`` of the pixels of its middle (a square
``PLACE_MIDDLE`` tile heights wide) changed: a tile laid there changes all of it, one laid beside it (a row
laid in line with another, or ending there) only its edges."""

STILL = 0.05
"""A tile's place did not change between the photos where under this share of the pixels inside its outline
changed: a tile laid or taken there changes most of them, another tile put in its place its number's (about
a tenth), one laid beside it an edge's shadow (tiles where nothing changed: none at all)."""

CHANGE_UNREAD = "a change on the table at ({:.0f}, {:.0f}) where no tile is read"

UNSURE = "a tile read unsure"
DOUBTS = "doubts"
DOUBTED = "a tile doubted as misread"
SWAPPED = "a table tile read as another in the other photo"
ROW_GONE = "a whole row of the table before not read after the turn"
IMPOSSIBLE = "impossible reading"
BROKEN_BEFORE = "the table before the turn read with a combination that is none"

DESPITE_UNSURE = "unsure tiles"
DESPITE_BROKEN = "a broken combination"


@dataclass(frozen=True)
class TurnRuling:
    """The verdict on a turn from two photos (``check``), or ``None`` with why the players are asked.

    ``despite``: what the verdict was given despite: :data:`DESPITE_UNSURE` (tiles read unsurely
    or doubted that no tile in their place could change it), :data:`DESPITE_BROKEN` (signs of a
    missed tile away from a combination left broken), or ``""``.
    """

    check: TurnCheck | None
    asked: str = ""
    despite: str = ""
    rows_unchanged: int | None = None
    """Rows of the table before the turn taken as they were, lying where the photos did not change
    (:func:`by_change`); ``None`` where the photos were not compared."""

    @property
    def verdict(self) -> str:
        """``legal``, ``illegal`` or ``needs confirmation``."""
        return "needs confirmation" if self.check is None else "legal" if self.check.legal else "illegal"

    def to_json(self) -> dict:
        found = {"verdict": self.verdict}
        if self.check is None:
            found["why"] = self.asked
        else:
            found["violations"] = list(self.check.violations)
            if self.check.opening_points is not None:
                found["opening_points"] = self.check.opening_points
        if self.despite:
            found["despite"] = self.despite
        found["rows_unchanged"] = self.rows_unchanged
        return found


def read_turn(reader: TileReader, before: np.ndarray, after: np.ndarray,
              compare: bool = True) -> tuple[TableReading, TableReading, TableChange | None]:
    """Both photos read, and what changed between them (:func:`vision.tiles.change.table_change`;
    ``None`` where they are not compared: ``compare`` false, or not one still camera's). Photos by
    one still camera are taken in one light: where their readings went by different face colours,
    each is read again by the other's, and the reading that has no more signs of a missed tile and
    at least as many tiles, and is better in one of the two, is kept. The reader's pick of a face
    colour (the one that explains the most tile-shaped blobs) can flip between two photos a minute
    apart, with a few tiles more or a slight exposure drift, and lose a whole table. A change no
    tile read covers is read again by its own colour (:func:`_read_changes_again`), and where that
    reading is kept, the other photo is read again by its face colour too."""
    change = table_change(before, after) if compare else None
    images = (before, after)
    readings = [reader.read(photo) for photo in images]
    if change is not None:
        _read_in_one_light(reader, images, readings)
        if _read_changes_again(reader, images, readings, change):
            _read_in_one_light(reader, images, readings)
    return readings[0], readings[1], change


def _read_in_one_light(reader: TileReader, images: tuple[np.ndarray, np.ndarray], readings: list[TableReading]) -> None:
    """Where the two readings went by different face colours, each photo read again by the other's,
    that reading kept where it is better (:func:`_better`; in place)."""
    first = list(readings)
    for photo, image in enumerate(images):
        other = first[1 - photo].face
        # However little the two differ (not :data:`SAME_FACE`): a slightly other colour reads some rows better.
        if other is not None and other != first[photo].face:
            again = reader.read(image, face=other)
            if _better(again, first[photo]):
                readings[photo] = again


def _read_changes_again(reader: TileReader, images: tuple[np.ndarray, np.ndarray], readings: list[TableReading],
                        change: TableChange) -> bool:
    """Where the photos changed and no tile read in either covers it, the photo in which that part is
    the lighter (a face came or went there) read again by its colour (the lighter half of its pixels),
    that reading kept where it is better (:func:`_better`; in place; whether it was). Tiles in a light of
    another colour (a tinted lamp's pool), or dim ones on a table a lamp's glare lights more than them,
    are not of the face colour the reader went by, nor lighter than the table there. Where no tile is
    read at all, every change of at least :data:`SMALLEST_TILE`'s area is looked at. Where the whole photo
    read so is not better, the changed part is read on its own (:func:`_read_where_changed`)."""
    patches = change.unexplained_mask(*(_read_so_far(readings) or ([], 0.7 * SMALLEST_TILE ** 2)))
    if not patches.any():
        return False
    labs = [cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[cv2.resize(patches.astype(np.uint8), image.shape[1::-1],
                                                              interpolation=cv2.INTER_NEAREST) > 0]
            for image in images]
    photo = int(np.mean(labs[1][:, 0]) > np.mean(labs[0][:, 0]))
    pixels = labs[photo].astype(np.float32)
    lighter = pixels[pixels[:, 0] >= np.median(pixels[:, 0])]
    face = (float(np.median(lighter[:, 0])), float(np.median(lighter[:, 1])) - 128, float(np.median(lighter[:, 2])) - 128)
    if not _same_face(face, readings[photo].face):
        again = reader.read(images[photo], face=face)
        if _better(again, readings[photo]):
            readings[photo] = again
            return True
    again = _read_where_changed(reader, images[photo], readings[photo], patches, face, change)
    if again is not None and _better(again, readings[photo]):
        readings[photo] = again
        return True
    return False


def _read_where_changed(reader: TileReader, image: np.ndarray, reading: TableReading, patches: np.ndarray,
                        face: tuple[float, float, float], change: TableChange) -> TableReading | None:
    """``reading`` with the rows read in a crop of ``image`` around the changed ``patches`` (no tile read
    there; :data:`CHANGED_CROP` tile heights around them) by the colour of what changed (``face``), where
    every tile of such a row lies on the change (:data:`ON_CHANGE`) and apart from the tiles read
    (:data:`APART`); with the crop's signs of a missed tile near them (:data:`NEAR_BROKEN`). None where the
    crop reads no such row. The whole frame read by that colour may lose tiles that are not of it (a row
    laid under a tinted lamp, the table's other rows in daylight); the changed part read on its own does not."""
    ys, xs = np.nonzero(patches)
    # Where no tile is read, the patch's narrower side stands for a tile's height.
    height = (float(np.median([t.height for t in reading.tiles])) if reading.tiles
              else max(SMALLEST_TILE, min(np.ptp(xs), np.ptp(ys)) * change.scale))
    reach = CHANGED_CROP * height / change.scale
    x0, y0 = (max(0, int((low - reach) * change.scale)) for low in (xs.min(), ys.min()))
    x1, y1 = (int((high + 1 + reach) * change.scale) for high in (xs.max(), ys.max()))
    crop = reader.read(np.ascontiguousarray(image[y0:y1, x0:x1]), face=face)
    first_row = max((t.row for t in reading.tiles), default=-1) + 1
    rows = [[t.moved(x0, y0) for t in row] for row in crop.rows]
    rows = [row for row in rows if all(change.share(t.outline) >= ON_CHANGE and not any(
        math.dist(t.center, seen.center) < APART * t.height for seen in reading.tiles) for t in row)]
    if not rows:
        return None
    laid = tuple(replace(t, row=first_row + number) for number, row in enumerate(rows) for t in row)
    doubts = tuple(moved for moved in (d.moved(x0, y0) for d in crop.doubts) if _doubt_points(moved) and all(
        any(math.dist(p, t.center) < NEAR_BROKEN * t.height for t in laid) for p in _doubt_points(moved)))
    return TableReading(reading.tiles + laid, reading.doubts + doubts, reading.face)


def _same_face(face: tuple[float, float, float], other: tuple[float, float, float] | None) -> bool:
    """Whether two face colours are one (:data:`SAME_FACE`).

    >>> _same_face((200.0, 1.0, 9.0), (201.5, 0.0, 8.0)), _same_face((200.0, 1.0, 9.0), (200.0, 1.0, 12.0))
    (True, False)
    """
    return other is not None and bool(np.allclose(face, other, atol=SAME_FACE))


def _read_so_far(readings) -> tuple[list[np.ndarray], float] | None:
    """The outlines of the tiles read in either photo, and a tile face's area (frame pixels; None where no tile is read)."""
    tiles = [t for reading in readings for t in reading.tiles]
    if not tiles:
        return None
    height = float(np.median([t.height for t in tiles]))
    return [np.asarray(t.outline, np.float32) for t in tiles], 0.7 * height ** 2


def _better(reading: TableReading, than: TableReading) -> bool:
    """Whether ``reading`` has no more signs of a missed tile and at least as many tiles, and is better in one."""
    doubts, other_doubts = len(reading.missing_doubts), len(than.missing_doubts)
    return (doubts <= other_doubts and len(reading.tiles) >= len(than.tiles)
            and (doubts < other_doubts or len(reading.tiles) > len(than.tiles)))


def judge_turn(before: TableReading, after: TableReading, rules: TileRules = TileRules(), opened: bool = True,
               confirm_below: float = CONFIRM_BELOW, strict: bool = False,
               change: TableChange | None = None) -> TurnRuling:
    """The turn between two readings of the table, or why it must be confirmed (module docstring).
    ``strict``: ask wherever a tile is read unsurely, doubted or may be missed, even where it
    cannot change the verdict (the rule before session 25). ``change``: where the two photos
    differ, if they are by one still camera: the turn is judged by what changed.

    >>> from vision.tiles.reader import Doubt, TileObservation
    >>> square = lambda x, y: ((x, y), (x + 8, y), (x + 8, y + 8), (x, y + 8))
    >>> def reading(rows, doubts=()):
    ...     return TableReading(tuple(TileObservation(code, 0.99, square(10 * c, 10 * r), r)
    ...                               for r, row in enumerate(rows) for c, code in enumerate(row.split())), doubts)
    >>> before = reading(["R1 R2 R3"])
    >>> judge_turn(before, reading(["R1 R2 R3", "G5 G6 G7"])).verdict
    'legal'
    >>> patch = Doubt("a tile-sized patch of face colour at (200, 200) is no tile found", (200, 200))
    >>> judge_turn(before, reading(["R1 R2 R3", "G5 G6 G7"], [patch])).asked
    'doubts'
    >>> ruling = judge_turn(before, reading(["R1 R2 R3", "G5 B9 Y11"], [patch]))
    >>> ruling.verdict, ruling.despite, ruling.check.violations[0][:24]
    ('illegal', 'a broken combination', 'group 2 (G5 B9 Y11) is n')
    >>> near = Doubt("a tile-sized patch of face colour at (35, 14) is no tile found", (35, 14))
    >>> judge_turn(before, reading(["R1 R2 R3", "G5 B9 Y11"], [near])).asked
    'doubts'
    """
    if change is None or strict:
        return _judge_readings(before, after, rules, opened, confirm_below, strict, None)
    judged = by_change(before, after, change, rules, confirm_below)
    return replace(_judge_readings(*judged, rules, opened, confirm_below, strict, change),
                   rows_unchanged=len(before.rows) - len(judged[0].rows))


def _judge_readings(before: TableReading, after: TableReading, rules: TileRules, opened: bool, confirm_below: float,
                    strict: bool, change: TableChange | None) -> TurnRuling:
    """:func:`judge_turn` on two readings, those of photos compared (``change``) without what did not change."""
    readings = (before, after)
    try:
        tables = [parse_groups(r.groups, rules) for r in readings]
    except TileRuleError:
        return TurnRuling(None, IMPOSSIBLE)
    unsure = any(r.least_confidence() < confirm_below for r in readings)
    doubted = any(r.doubts for r in readings)
    if strict and (unsure or doubted):
        return TurnRuling(None, " and ".join(why for why, seen in ((UNSURE, unsure), (DOUBTS, doubted)) if seen))

    # With the photos compared, a tile read as two in one place, its face unchanged there, is one tile;
    # the tiles that seem to have turned into others elsewhere (replaced_in_place) are looked for with it
    # read alike in both.
    twice = _in_one_place(before, after, change, confirm_below) if change is not None else []
    linked = {place for pair in twice for place in pair}
    places = [place for place in _unsure_places(readings, tables, rules, confirm_below) if place not in linked]
    alike = [list(group) for group in tables[0]]
    for (_, group, position), (_, other_group, other_position) in twice:
        alike[group][position] = tables[1][other_group][other_position]
    swapped = [(1, *place) for _, _, place in replaced_in_place(alike, tables[1])
               if (1, *place) not in linked and (change is None or _where_one_went(before, after, place))]

    def unless_broken(why: str) -> TurnRuling:
        asked = TurnRuling(None, why)
        return asked if strict else _broken_for_sure(readings, tables, rules, places + swapped + sorted(linked),
                                                     asked)

    if any(r.missing_doubts for r in readings):
        return unless_broken(DOUBTS)
    # The table before the turn was valid: a row read apart, a tile read twice; unless a tile read
    # otherwise in the other photo, where nothing changed, may mend it (check_turn_despite tries that).
    if any(not any((0, group, position) in linked for position in range(len(tables[0][group])))
           for group in broken_groups(tables[0], rules)):
        return unless_broken(BROKEN_BEFORE)
    if groups_gone(*tables):
        return TurnRuling(None, ROW_GONE)
    check = check_turn_despite(*tables, places + swapped, opened=opened, rules=rules, same=twice)
    if check is not None:
        return TurnRuling(check, despite=DESPITE_UNSURE if places or swapped or twice else "")
    return unless_broken(UNSURE if unsure else SWAPPED if swapped or twice else DOUBTED)


def _where_one_went(before: TableReading, after: TableReading, place: tuple[int, int]) -> bool:
    """Whether the tile read after the turn at ``place`` (group, position) lies where a tile read before it
    and gone from the table after it lay. One still camera took both photos: a table tile that seems to have
    turned into another (:func:`engine.tiles.replaced_in_place`; one photo's misread) lies where it lay, and
    a tile read elsewhere was laid there (a tile taken from a row, its twin laid in a new row).

    >>> square = lambda x: ((x, 0), (x + 30, 0), (x + 30, 40), (x, 40))
    >>> before = TableReading(tuple(TileObservation(c, 0.99, square(30 * k), 0) for k, c in enumerate(["K3", "K4", "K5"])))
    >>> after = TableReading(tuple(TileObservation(c, 0.99, square(30 * k), 0) for k, c in enumerate(["K6", "K4", "K5"])))
    >>> _where_one_went(before, after, (0, 0)), _where_one_went(before, after, (0, 1))
    (True, False)
    """
    gone = Counter(t.tile for t in before.tiles) - Counter(t.tile for t in after.tiles)
    tile = after.rows[place[0]][place[1]]
    return any(math.dist(tile.center, t.center) < 0.5 * tile.height for t in before.tiles if t.tile in gone)


def _in_one_place(before: TableReading, after: TableReading, change: TableChange, confirm_below: float) -> list[tuple]:
    """Pairs of places ((0, group, position), (1, group, position)) of a tile read in both photos in one
    place, whose face did not change there (:data:`FACE_GONE`), and cut alike (:func:`_one_outline`), read
    as two tiles (one photo's misread), or read alike but less sure than ``confirm_below`` in both or
    doubted as misread in either: one tile, whatever it is in one photo it is in the other too. (A row cut
    at another pitch in one photo has tiles near the other's, each partly its neighbour: no such pairs.)"""
    doubted = [set(reading.unsure_places(0.0)) for reading in (before, after)]
    return [((0, *place), (1, *other_place)) for (place, tile), (other_place, other) in _one_place(before, after, change)
            if _one_outline(tile, other)
            and (other.tile != tile.tile or max(tile.confidence, other.confidence) < confirm_below
                 or place in doubted[0] or other_place in doubted[1])]


def _one_place(before: TableReading, after: TableReading, change: TableChange) -> list[tuple]:
    """Pairs ((group, position), tile) of the two readings, a tile before and a tile after the turn in one
    place, whose face did not change there (:data:`FACE_GONE`): one tile, seen twice."""
    return [((place, tile), (other_place, other)) for place, tile in _places(before) if change.share(tile.outline) < FACE_GONE
            for other_place, other in _places(after) if math.dist(tile.center, other.center) < 0.3 * tile.height]


def _one_outline(tile: TileObservation, other: TileObservation) -> bool:
    """Whether two tiles read in two photos have one outline (every corner within :data:`ONE_OUTLINE`
    tile heights, either way up): one tile cut alike, not a row cut into too few tiles in one photo."""
    corners = list(other.outline)
    return min(max(math.dist(p, q) for p, q in zip(tile.outline, corners[k:] + corners[:k])) for k in range(4)
               ) < ONE_OUTLINE * tile.height


def _cut_alike(before: TableReading, after: TableReading, change: TableChange) -> list[tuple[TileObservation, TileObservation]]:
    """Pairs of tiles, one before the turn and one after it, read alike in one place, its face unchanged
    there, and cut alike (:func:`_one_outline`): one tile, seen twice. (A row cut into too few tiles in
    one photo has its tiles' centres near those of the other's, and reads some as the tiles there: those
    are no such pairs.)"""
    return [(tile, other) for (_, tile), (_, other) in _one_place(before, after, change)
            if other.tile == tile.tile and _one_outline(tile, other)]


def _doubt_points(doubt) -> list:
    """The places a doubt is about (:class:`vision.tiles.reader.Doubt`'s ``at``, else its ``near``; none for words alone)."""
    return [doubt.at] if getattr(doubt, "at", None) is not None else list(getattr(doubt, "near", ()))


def _surer_where_alike(before: TableReading, after: TableReading, seen_twice: list[tuple[TileObservation, TileObservation]]
                       ) -> tuple[TableReading, TableReading]:
    """Both readings, each tile seen twice (:func:`_cut_alike`) as sure in both as its surer reading: it is
    one tile, and one photo reads it surely enough."""
    surer: dict[int, float] = {}
    for tile, other in seen_twice:
        surer[id(tile)] = surer[id(other)] = max(tile.confidence, other.confidence, surer.get(id(tile), 0.0))
    return tuple(replace(reading, tiles=tuple(replace(t, confidence=surer.get(id(t), t.confidence)) for t in reading.tiles))
                 for reading in (before, after))


def _read_in_other(before: TableReading, after: TableReading, change: TableChange) -> tuple[TableReading, TableReading]:
    """Both readings, each tile that one photo found but could not read (:data:`UNREADABLE`) read as the other
    photo reads the tile whose outline holds its centre, where that tile's place did not change
    (:data:`STILL`): the same pixels, the same tile, seen twice. It joins the row that holds its neighbours of
    the other photo's row, read alike in their places (:func:`_copied_into_row`), as sure as the other photo
    reads it (below the bar in both, it is one unsure tile: :func:`_in_one_place`); where every tile of the
    other photo's row is such a tile, they are that row. A row's doubt that a tile between tiles was not read
    (:data:`NOT_BETWEEN`) goes where every tile of that row is then read.

    >>> import numpy as np
    >>> square = lambda x: ((x, 0), (x + 30, 0), (x + 30, 40), (x, 40))
    >>> unread = Doubt(f"the tile at (75, 20) {UNREADABLE}", (75.0, 20.0))
    >>> row = lambda codes, sure: tuple(TileObservation(c, sure, square(30 * k), 0) for k, c in enumerate(codes) if c)
    >>> before = TableReading(row(["K3", "K4", None, "K6"], 0.99), (unread,))
    >>> after = TableReading(row(["K3", "K4", "K5", "K6"], 0.5))
    >>> first, second = _read_in_other(before, after, TableChange(np.zeros((10, 20), bool), 8.0))
    >>> first.groups, first.doubts, first.tiles[2].confidence, second is after
    ([['K3', 'K4', 'K5', 'K6']], (), 0.5, True)
    """
    readings = [before, after]
    for photo in (0, 1):
        reading, other = readings[photo], readings[1 - photo]
        tiles, filled = list(reading.tiles), []
        unread = [d for d in reading.doubts if getattr(d, "at", None) is not None and d.endswith(UNREADABLE)]
        # A row of the other photo whose every tile this photo found but could not read is that row.
        sources = {d: _source(d.at, tiles, other, change) for d in unread}
        for group, row in enumerate(other.rows):
            found = {source[0][1]: d for d, source in sources.items() if source is not None and source[0][0] == group}
            if len(found) == len(row):
                number = max((t.row for t in tiles), default=-1) + 1
                tiles += [TileObservation(t.tile, t.confidence, t.outline, number) for t in row]
                filled += found.values()
        for doubt in unread:
            source = _source(doubt.at, tiles, other, change) if doubt not in filled else None
            copied = _copied_into_row(source, tiles, other) if source is not None else None
            if copied is not None:
                tiles = copied
                filled.append(doubt)
        if filled:
            def all_read(doubt) -> bool:
                return doubt.endswith(NOT_BETWEEN) and all(
                    any(math.dist(point, t.center) < 0.3 * t.height for t in tiles) for point in doubt.near)
            doubts = tuple(d for d in reading.doubts if d not in filled and not all_read(d))
            readings[photo] = TableReading(tuple(tiles), doubts, reading.face)
    return readings[0], readings[1]


def _source(at, tiles: list[TileObservation], other: TableReading, change: TableChange
            ) -> tuple[tuple[int, int], TileObservation] | None:
    """The one tile ``other`` reads whose outline holds ``at``, with its (group, position), where its place
    did not change (:data:`STILL`) and ``tiles`` (the photo that could not read it) holds none within half a
    tile height of ``at``; else ``None``."""
    sources = [(place, tile) for place, tile in _places(other) if change.share(tile.outline) < STILL
               and cv2.pointPolygonTest(np.asarray(tile.outline, np.float32), tuple(map(float, at)), False) >= 0]
    if len(sources) != 1 or any(math.dist(t.center, at) < 0.5 * t.height for t in tiles):
        return None
    return sources[0]


def _copied_into_row(source: tuple[tuple[int, int], TileObservation], tiles: list[TileObservation],
                     other: TableReading) -> list[TileObservation] | None:
    """``tiles`` (one photo's, in reading order) with the tile of ``other`` at ``source`` (:func:`_source`)
    put into the row of ``tiles`` that holds its neighbours of ``other``'s row (read alike, cut alike, in their
    places): between two such neighbours that are next to each other, or beyond the end tile of a row of at
    least two where it is the one neighbour found; ``None`` where there is no such single place."""
    (group, position), tile = source
    row = other.rows[group]
    mates = [next((i for i, t in enumerate(tiles) if t.tile == mate.tile and _one_outline(t, mate)
                   and math.dist(t.center, mate.center) < 0.3 * mate.height), None)
             for k in (position - 1, position + 1) if 0 <= k < len(row) for mate in [row[k]]]
    mates = [i for i in mates if i is not None]
    if not mates or len({tiles[i].row for i in mates}) != 1:
        return None
    number = tiles[mates[0]].row
    members = [i for i, t in enumerate(tiles) if t.row == number]
    spots = sorted(members.index(i) for i in mates)
    if len(spots) == 2:
        if spots[1] != spots[0] + 1:
            return None
        slot = members[spots[1]]
    else:
        end = spots[0]
        if len(members) < 2 or end not in (0, len(members) - 1):
            return None
        mate, inward = tiles[members[end]], tiles[members[1 if end == 0 else -2]]
        # beyond the end: on the side of the end tile away from the row's next tile
        if np.dot(np.subtract(tile.center, mate.center), np.subtract(inward.center, mate.center)) >= 0:
            return None
        slot = members[0] if end == 0 else members[-1] + 1
    copy = TileObservation(tile.tile, tile.confidence, tile.outline, number)
    return tiles[:slot] + [copy] + tiles[slot:]


def _places(reading: TableReading) -> list[tuple[tuple[int, int], TileObservation]]:
    """Each tile of a reading with its (group, position) in :attr:`TableReading.groups`."""
    return [((group, position), tile) for group, row in enumerate(reading.rows) for position, tile in enumerate(row)]


def _unsure_places(readings: tuple[TableReading, TableReading], tables: list[list[list]], rules: TileRules,
                   confirm_below: float) -> list[tuple[int, int, int]]:
    """(photo, group, position) of each tile read less sure than ``confirm_below`` or doubted as
    misread, but a tile the other photo reads surely: one read below the bar (and not doubted) in a
    valid combination that the other photo shows too, tile for tile or extended or shortened
    (:func:`_one_holds_the_other`), that tile in it read at least :data:`SURE_TWICE` sure. Tiles do
    not change, so the same combination on both photos is the same tiles, seen twice."""
    rows = [r.rows for r in readings]
    places = []
    for photo, reading in enumerate(readings):
        misread = set(reading.unsure_places(0.0))
        broken = broken_groups(tables[photo], rules)
        for group, position in reading.unsure_places(confirm_below):
            code = rows[photo][group][position].tile
            codes = Counter(tile.tile for tile in rows[photo][group])
            seen_twice = (group, position) not in misread and group not in broken and any(
                _one_holds_the_other(Counter(tile.tile for tile in row), codes)
                and any(tile.tile == code and tile.confidence >= SURE_TWICE for tile in row) for row in rows[1 - photo])
            if not seen_twice:
                places.append((photo, group, position))
    return places


def _one_holds_the_other(first: Counter, second: Counter) -> bool:
    """Whether one combination holds all tiles of the other, at least three (a row extended or shortened)."""
    smaller = min(first.total(), second.total())
    return smaller >= 3 and (not first - second or not second - first)


def _broken_for_sure(readings: tuple[TableReading, TableReading], tables: list[list[list]], rules: TileRules,
                     unsure: list[tuple[int, int, int]], asked: TurnRuling) -> TurnRuling:
    """The turn ruled illegal for the combinations broken on the table after it (``readings[1]``,
    ``tables[1]``) that no missed or misread tile can mend, else ``asked``. Such a combination has
    at least three tiles (a piece of one or two is likelier a row read apart than a pair laid; a
    piece of three or more of a valid combination is one itself), no tile but a joker twice
    (likelier one tile read twice than laid so), no tile among ``unsure`` (read unsurely, doubted as
    misread or seemingly turned into another between the photos: (photo, group, position)), no sign
    of a missed tile within :data:`NEAR_BROKEN` tile heights of any of its tiles (nor of a row that
    may hold more tiles or go on beyond the frame: ``Doubt.near``), and no tile of it read alike, in
    its place, in a combination the photo before the turn reads broken too (the table before a turn
    is valid: that row was read wrong, a tile of it missed in both photos); and the photo lists no
    such sign that is about no place or row (a hand)."""
    before, after = readings
    table = tables[1]
    broken_before = [tile for group in broken_groups(tables[0], rules) for tile in before.rows[group]]
    doubts = after.missing_doubts
    if any(not _doubt_points(d) for d in doubts):
        return asked
    missed = [point for d in doubts for point in _doubt_points(d)]
    doubted = {group for photo, group, _ in unsure if photo == 1}
    rows = after.rows
    reasons = []
    for group, reason in broken_groups(table, rules).items():
        tiles = rows[group]
        if len(tiles) < 3:      # likelier a row read apart or a tile missed than a pair laid
            continue
        if any(n > 1 for code, n in Counter(t.tile for t in tiles).items() if code != "JK"):
            continue            # a tile twice: likelier one tile read twice (a row cut into a tile too many)
        if any(t.tile == b.tile and math.dist(t.center, b.center) < 0.3 * t.height for t in tiles for b in broken_before):
            continue            # read broken before the turn too: read wrong, not broken by the turn
        near = NEAR_BROKEN * max(t.height for t in tiles)
        if group not in doubted and not any(math.dist(t.center, at) < near for t in tiles for at in missed):
            reasons.append(reason)
    return TurnRuling(TurnCheck(False, tuple(reasons), None), despite=DESPITE_BROKEN) if reasons else asked


def by_change(before: TableReading, after: TableReading, change: TableChange, rules: TileRules = TileRules(),
              confirm_below: float = CONFIRM_BELOW) -> tuple[TableReading, TableReading]:
    """The two readings without the rows that lie where the table did not change, and so without
    the signs of a missed tile there where both photos read those rows alike; with a sign of a
    missed tile (:data:`CHANGE_UNREAD`) added to ``after`` for each change no tile read covers
    (module docstring). Where the photos are read otherwise there, but one reads it cleanly (every
    row there a valid combination of tiles read at least ``confirm_below`` sure, no sign of a missed
    tile there) and the other finds no tile there it does not, the clean reading stands for both:
    the pixels are the same, so are the tiles.

    >>> import numpy as np
    >>> from vision.tiles.change import TableChange
    >>> square = lambda x, y: ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40))
    >>> def reading(rows, doubts=()):
    ...     return TableReading(tuple(TileObservation(code, 0.99, square(100 + 40 * c, 100 + 200 * r), r)
    ...                               for r, row in enumerate(rows) for c, code in enumerate(row.split())), doubts)
    >>> changed = np.zeros((90, 160), bool); changed[37:43, 12:28] = True     # where the second row was laid
    >>> glare = Doubt("a tile-sized patch of face colour at (600, 120) is no tile found", (600, 120))
    >>> first, second = by_change(reading(["R1 R2 R3"], [glare]), reading(["R1 R2 R3", "G5 G6 G7"], [glare]),
    ...                           TableChange(changed, 8.0))
    >>> first.groups, second.groups, second.doubts
    ([], [['G5', 'G6', 'G7']], ())
    """
    heights = [t.height for t in before.tiles + after.tiles]
    if not heights:
        return before, after
    before, after = _read_in_other(before, after, change)
    seen_twice = _cut_alike(before, after, change)
    before, after = readings = _surer_where_alike(before, after, seen_twice)
    rows = [r.rows for r in readings]
    quiet = [{n for n, row in enumerate(photo_rows) if all(change.distance(t.center) >= CLEAR * t.height for t in row)}
             for photo_rows in rows]
    # A row is where nothing changed in both photos or in neither: one that shares a tile's place with a
    # row of the other photo near a change is near it too (their tiles lie a little apart in each photo).
    while True:
        shared = [{n for n in quiet[photo] if any(
            math.dist(t.center, o.center) < 0.5 * t.height for t in rows[photo][n]
            for m, other in enumerate(rows[1 - photo]) if m not in quiet[1 - photo] for o in other)}
            for photo in (0, 1)]
        if not shared[0] and not shared[1]:
            break
        quiet = [quiet[0] - shared[0], quiet[1] - shared[1]]
    pairs = [(m, n) for m in quiet[0] for n in quiet[1] if _alike(rows[0][m], rows[1][n])]
    standing = [{m for m, _ in pairs}, {n for _, n in pairs}]
    height = float(np.median(heights))

    def near_change(doubt) -> bool:
        places = _doubt_points(doubt)
        return not places or any(change.distance(p) < CLEAR * height for p in places)

    def clean(photo: int) -> bool:
        """Whether a photo reads the part where nothing changed cleanly, and finds every tile there the other finds."""
        mine = [rows[photo][n] for n in quiet[photo]]
        others = [t for n in quiet[1 - photo] for t in rows[1 - photo][n]]
        try:
            valid = not broken_groups(parse_groups([[t.tile for t in row] for row in mine], rules), rules)
        except TileRuleError:
            return False
        return (valid and all(len(row) >= 3 and min(t.confidence for t in row) >= confirm_below for row in mine)
                and all(near_change(d) for d in readings[photo].doubts)
                and all(any(math.dist(t.center, seen.center) < 0.5 * t.height for row in mine for seen in row)
                        for t in others))

    # The photos agree where nothing changed: every row there is read alike in both, and one at least
    # is; or one photo reads it cleanly (and a row at least).
    if standing != quiet and any(quiet[photo] and clean(photo) for photo in (0, 1)):
        standing = quiet
    all_alike = standing == quiet and bool(standing[0] or standing[1])

    # The faces that came or went: tiles read in one photo only, the face's colour come or gone there.
    faces = [[np.asarray(t.outline, np.float32) for t in readings[photo].tiles if change.share(t.outline) >= FACE_GONE
              and not any(math.dist(t.center, seen.center) < 0.5 * t.height for seen in readings[1 - photo].tiles)]
             for photo in (0, 1)]

    def bare_there(doubt, photo: int) -> bool:
        """Whether a sign of a missed tile lies where the other photo shows a face that came or went: the table."""
        at = getattr(doubt, "at", None)
        return at is not None and any(cv2.pointPolygonTest(outline, at, False) >= 0 for outline in faces[1 - photo])

    changing = [t for photo in (0, 1) for n, row in enumerate(rows[photo]) if n not in quiet[photo] for t in row]

    def tile_within(at, reach: float) -> bool:
        """Whether either photo reads a tile within ``reach`` (pixels) of ``at``."""
        return any(math.dist(at, t.center) < reach for t in before.tiles + after.tiles)

    def sign_in_other(at, photo: int) -> bool:
        """Whether the other photo than ``photo`` shows a sign of a missed tile within 1.5 tile heights of ``at``."""
        return any(math.dist(at, p) < 1.5 * height for d in readings[1 - photo].doubts for p in _doubt_points(d))

    def bare_in_other(doubt, photo: int) -> bool:
        """Whether a sign of a missed tile of one photo lies where nothing changed, no tile is read in either
        photo, the other photo shows no sign, and no row near a change could hold a tile there."""
        at = getattr(doubt, "at", None)
        return (at is not None and change.distance(at) >= height and not tile_within(at, height)
                and not any(math.dist(at, t.center) < 1.5 * height for t in changing) and not sign_in_other(at, photo))

    def still_hand(doubt) -> bool:
        """Whether a doubt about a hand over the table is about pixels that did not change between the photos,
        a tile height and more from every change and 1.5 from every row near one: a hand moves between two
        photos a turn apart (its rim changes if nothing else); a patch of the table that passes for one stays."""
        return (doubt == HAND and bool(doubt.near)
                and all(change.distance(p) >= height for p in doubt.near)
                and not any(math.dist(p, t.center) < 1.5 * height for p in doubt.near for t in changing))

    laid = [outline.mean(axis=0) for outline in faces[1]]

    def only_laid_near(at) -> bool:
        """Whether every tile read within 1.5 tile heights of ``at`` (in either photo) was laid in the turn."""
        return all(any(math.dist(t.center, centre) < 0.2 * height for centre in laid)
                   for t in before.tiles + after.tiles if math.dist(at, t.center) < 1.5 * height)

    def place_in_other(doubt, photo: int) -> bool:
        """Whether a doubt about a place beside rows (the room between two rows in one line, the place beyond
        a row's end; a patch of face colour with no tile near it but tiles laid in the turn) is about a place
        whose middle did not change, where neither photo reads a tile and the other photo shows no sign of a
        missed tile."""
        at = getattr(doubt, "at", None)
        half = PLACE_MIDDLE * height / 2
        return (at is not None and (doubt.startswith((ROOM, BEYOND_END)) or doubt.startswith(PATCH) and only_laid_near(at))
                and change.share([(at[0] - half, at[1] - half), (at[0] + half, at[1] - half),
                                  (at[0] + half, at[1] + half), (at[0] - half, at[1] + half)]) < PLACE_CHANGED
                and not tile_within(at, 0.5 * height) and not sign_in_other(at, photo))

    cut_alike = [[tile.center for tile, _ in seen_twice], [other.center for _, other in seen_twice]]

    def counted_in_other(doubt, photo: int) -> bool:
        """Whether a doubt about a blob's count of tiles is about tiles the other photo cut alike, and doubts not."""
        near = getattr(doubt, "near", ())
        return (doubt.endswith(UNUSUAL_WIDTH) and bool(near)
                and all(any(math.dist(p, c) < 0.2 * height for c in cut_alike[photo]) for p in near)
                and not any(d.endswith(UNUSUAL_WIDTH) and math.dist(p, q) < 0.5 * height
                            for d in readings[1 - photo].doubts for q in _doubt_points(d) for p in near))

    def without(reading: TableReading, rows: set[int], extra: tuple = (), photo: int = 0) -> TableReading:
        tiles = tuple(t for n, row in enumerate(reading.rows) if n not in rows for t in row)
        doubts = tuple(d for d in reading.doubts if getattr(d, "misread", False)
                       or (near_change(d) or not all_alike) and not bare_there(d, photo) and not bare_in_other(d, photo)
                       and not counted_in_other(d, photo) and not place_in_other(d, photo)
                       and not still_hand(d))
        return TableReading(tiles, doubts + extra)

    unread = tuple(Doubt(CHANGE_UNREAD.format(*at), at) for at in change.unexplained(*_read_so_far(readings)))
    return without(before, standing[0]), without(after, standing[1], unread, photo=1)


def _alike(first: list[TileObservation], second: list[TileObservation]) -> bool:
    """Whether two rows read in two photos are the same tiles in the same places."""
    if len(first) != len(second):
        return False
    for order in (second, second[::-1]):
        if all(a.tile == b.tile and math.dist(a.center, b.center) < 0.3 * a.height for a, b in zip(first, order)):
            return True
    return False
