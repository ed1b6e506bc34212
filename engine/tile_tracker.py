"""The tile Rummy tracker: the table before and after each turn, checked by :func:`engine.tiles.check_turn`.

The camera sees the common table (racks stay hidden). Each frame gives :class:`TileSighting`
values (tile code, confidence, table cm) and whether the table is still. The tracker settles the
table over ``window`` still frames: a tile count agreed by ``quorum`` of them (two of each tile
exist, so tiles are counted, not just seen). Tiles lying side by side in a row form one group,
ordered left to right. The end of a turn comes from the turn button or timer
(:meth:`TileTracker.end_turn`); the tracker then compares the table with the one at the end of
the last turn: tiles added are what the player played from the rack, and the engine checks the
turn (tiles taken away, invalid groups, the first laying out worth 40 points). A turn that
changes nothing is a draw from the pool.

It never guesses: a tile read below ``min_confidence`` is a ``needs_confirmation`` question, and
a turn that ends while the table is unsettled or a question is open is one too. The tracker asks
about a tile at its place where the readings alone would decide the turn: a tile of the table
before that is not read there now (missed, or taken away: an illegal turn), a tile read in some
still frames where the settled table has none, and a tile that one window of the still table
settled and a later one did not (nothing moved, so one of the readings is wrong, and the latest
is not simply taken). After a turn left a question the table before the
next one is unknown, so that turn is a question as well; the table settled at its end is the
reference again from then on, tentatively: that unread turn may have been illegal and taken
back, so a later turn that lacks tiles of it is a question too. Whether the player of an unread
turn has made the first laying out is unknown too: a later turn of theirs that is legal only if
they had is a question. So is a table read with a tile more often than the set holds. An
answer about a tile holds while that tile lies on the table: a tile laid later on the spot of one
taken back is read afresh.

A reading may also carry :class:`TileDoubt` values: the reader's signs that a tile may be missed or
misread at some place (a gap of one tile's room in a row, a patch of face colour, a blob cut into
tiles of odd width). Each place is a ``doubt`` question once the still table settles: it says where,
what was read there, and offers the tiles that fit the row there (:func:`engine.tiles.fitting_tiles`),
"no tile here" (:data:`NO_TILE`), "the table is as read" (:data:`AS_READ`) and "none of these"
(:data:`NOT_AS_READ`); any other tile of the set answers a question about one place too
(:attr:`TileEvent.any_tile`: the dashboard's tile picker). The answer settles the place (a tile added there or named, a tile read there
dropped), or the whole still table; the turn is then judged as usual. Unanswered or answered "none of
these", the turn is a question.

>>> t = TileTracker(("Ann", "Ben"), options=TileTrackerOptions(window=1, quorum=1))
>>> row = [TileSighting(code, 0.95, x, 20) for code, x in [("B10", 10), ("B11", 13), ("B13", 19)]]
>>> [question] = t.update(1, row, still=True, doubts=[TileDoubt("one tile's room in a row", 16, 20)])
>>> question.describe(), question.candidates
('#1 doubt needs confirmation: B12 or JK or NO_TILE or AS_READ or NOT_AS_READ', ('B12', 'JK', 'NO_TILE', 'AS_READ', 'NOT_AS_READ'))
>>> t.confirm(question.seq, "B12")
[]
>>> [e.describe() for e in t.end_turn(1)]
['#2 turn Ann B10 B11 B12 B13: legal (opening 46)']

>>> t = TileTracker(("Ann", "Ben"), options=TileTrackerOptions(window=1, quorum=1))
>>> row = [TileSighting(code, 0.95, 10 + 3 * i, 20) for i, code in enumerate(["R10", "R11", "R12", "R13"])]
>>> t.update(1, row, still=True)
[]
>>> [e.describe() for e in t.end_turn(1)]
['#1 turn Ann R10 R11 R12 R13: legal (opening 46)']
>>> [e.describe() for e in t.end_turn(2)]
['#2 draw Ben']
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Literal, Sequence

from engine.cards import CardError, parse_tile, tile_set_of
from engine.tiles import TileRules, check_turn, fitting_tiles

TileEventKind = Literal["turn", "draw", "reading", "doubt"]
NO_TILE = "NO_TILE"
"""The answer to a doubt about a place: no tile lies there (a tile read there is none)."""
AS_READ = "AS_READ"
"""The answer to a doubt: the still table is exactly as read (every tile marked on the photo, rightly)."""
NOT_AS_READ = "NOT_AS_READ"
"""The answer to a doubt: none of the answers offered is true (the players record the turn by hand):
the question stays open, so the turn is a question."""
STRAY_REACH = 0.75
"""How far (in tile sizes) a reading may lie from a settled tile and still be a reading of it: far
beyond the jitter of one tile's readings, short of the next tile in a row (a tile's width and a
gap away)."""
ONE_TILE = 0.8
"""Places closer than this share of a tile's width (and height) are about one tile
(:meth:`TileTracker._one_tile`): a reader's doubts scatter over a tile's face, and tiles side by
side lie a full width apart."""
DOUBT_TILES = 4
"""The most tiles a doubt offers (with "no tile here", "the table is as read" and "none of these", 7
answers: the dashboard's most)."""


class TileTrackerError(ValueError):
    """A tile tracker set up or driven inconsistently."""


@dataclass(frozen=True)
class TileSighting:
    """One tile read in one frame: its code (``R7``, ``JK``), how sure, where (table cm)."""

    code: str
    confidence: float
    x: float
    y: float

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "code", str(parse_tile(self.code, tile_set_of(self.code))))
        except CardError as error:
            raise TileTrackerError(f"tile sighting {self.code!r}: {error}") from None


@dataclass(frozen=True)
class TileDoubt:
    """A sign in one frame's reading that a tile may be missed or misread (``why``), at a place of the
    table (cm), or somewhere unknown (``x``, ``y`` None: a hand over the table). The tracker's own
    doubts name the ``tile`` they are about: one of the table before that is not read at its place
    now, or one read in some still frames where the settled table has none."""

    why: str
    x: float | None = None
    y: float | None = None
    tile: str | None = None

    @property
    def place(self) -> tuple[float, float] | None:
        return None if self.x is None or self.y is None else (self.x, self.y)


@dataclass(frozen=True)
class TileTrackerOptions:
    """``window``/``quorum`` as for Gin; tiles of ``tile_cm`` (w, h) closer than ``gap_cm`` side by
    side in one row are one group; an answer holds for a reading within ``confirm_radius_cm``."""

    window: int = 6
    quorum: int = 4
    min_confidence: float = 0.8
    tile_cm: tuple[float, float] = (2.8, 3.8)
    gap_cm: float = 1.5
    confirm_radius_cm: float = 1.0

    def __post_init__(self) -> None:
        if not (isinstance(self.window, int) and self.window >= 1 and self.window / 2 < self.quorum <= self.window):
            raise TileTrackerError(f"need window >= 1 and window/2 < quorum <= window, got {self.window}, {self.quorum}")


@dataclass(frozen=True)
class TileEvent:
    """A committed turn (``played`` from the rack, ``groups`` after it, the engine's verdict), a draw,
    or a question (``needs_confirmation``): a tile read unsurely (``reading``), or a doubt of the
    reader (``doubt``: its place ``position`` (None: somewhere), the tile read there ``read``, the
    table as read in ``groups``, the answers in ``candidates``)."""

    seq: int
    kind: TileEventKind
    frame_id: int
    player: str | None = None
    played: tuple[str, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    legal: bool | None = None
    violations: tuple[str, ...] = ()
    opening_points: int | None = None
    needs_confirmation: bool = False
    candidates: tuple[str, ...] = ()
    position: tuple[float, float] | None = None
    detail: str = ""
    read: str | None = None

    @property
    def any_tile(self) -> bool:
        """Whether any tile of the set answers this question besides its ``candidates`` (the dashboard's
        tile picker): a question about one place, where the tile lying there may be one that neither
        the reading nor its row suggests."""
        return self.kind in ("reading", "doubt") and self.position is not None

    def key(self) -> tuple:
        """What the event says about the game, to compare with the truth."""
        return (self.kind, self.player, tuple(sorted(self.played)), self.legal)

    def describe(self) -> str:
        parts = [f"#{self.seq}", self.kind] + ([self.player] if self.player else []) + list(self.played)
        text = " ".join(parts)
        if self.kind == "turn":
            text += ": legal" if self.legal else ": ILLEGAL - " + "; ".join(self.violations)
            if self.opening_points is not None and self.legal:
                text += f" (opening {self.opening_points})"
        if self.needs_confirmation:
            text += f" needs confirmation: {' or '.join(self.candidates) or self.detail}"
        return text


def _read_at_times(code: str, x: float, y: float) -> TileDoubt:
    """The tracker's doubt about a tile read at ``x``, ``y`` in some still frames and not in others."""
    return TileDoubt(f"{code} is read here in some still frames and not in others", x, y, code)


@dataclass(frozen=True)
class _Tile:
    code: str
    x: float
    y: float
    confidence: float


class TileTracker:
    """Tracks the turns of one tile Rummy game; ``players`` in turn order, the first one starts."""

    def __init__(self, players: Sequence[str], rules: TileRules = TileRules(),
                 options: TileTrackerOptions = TileTrackerOptions()) -> None:
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise TileTrackerError(f"tile Rummy is tracked for 2-4 players with different names, got {list(players)!r}")
        self.players, self.rules, self.options = tuple(players), rules, options
        self.events: list[TileEvent] = []
        self.turn = 0
        self.opened: dict[str, bool | None] = {p: False for p in self.players}
        """Whether each player has made the first laying out; None: unknown (a turn of theirs was not read)."""
        self.table: list[_Tile] = []
        """The table as settled at the end of the last turn."""
        self._now: list[_Tile] | None = []
        self._frames: list[tuple[tuple[TileSighting, ...], tuple[TileDoubt, ...]]] = []
        """The still frames of the window as read; ``_window`` is their tiles after the answers."""
        self._window: list[list[TileSighting]] = []
        self._overrides: list[tuple[float, float, str, str | None]] = []
        """Answers about a tile read: (x, y, read, what lies there; None: no tile)."""
        self._added: list[tuple[float, float, str, int]] = []
        """Answers that a tile lies where none was read: (x, y, tile, the turn of the answer)."""
        self._settled_places: list[tuple[float, float]] = []
        """Doubts answered this still period (no tile there, or which one)."""
        self._as_read = False
        """This still period's table was answered "as read": its doubts are settled."""
        self._pending: dict[int, _Tile] = {}
        self._open: dict[int, TileDoubt] = {}
        self._frame_id = 0
        """The last frame taken: questions an answer brings are asked at it."""
        self._period: Counter[str] | None = None
        """The tile counts settled in this still period; a later window that settles other counts
        without the table moving means the readings disagree about some tiles (``_wavering``)."""
        self._wavering: list[TileDoubt] = []
        """Tiles one window of this still period settled and a later one did not (or the other way):
        nothing moved, so one of the readings is wrong, and the latest is not simply taken; each is
        asked about at its place."""
        self._unsure = 0
        self._tentative = False
        """The reference table was read at the end of an unread turn, which may yet be taken back."""

    @property
    def player(self) -> str:
        return self.players[self.turn % len(self.players)]

    def update(self, frame_id: int, sightings: Sequence[TileSighting], still: bool,
               doubts: Sequence[TileDoubt] = ()) -> list[TileEvent]:
        """Take one frame and the reader's doubts about it; returns the questions it raises (turns end
        with :meth:`end_turn`)."""
        if not still:
            self._frames.clear()
            self._window.clear()
            self._now, self._period, self._wavering = None, None, []
            self._settled_places, self._as_read = [], False  # the table may change: its doubts are asked afresh
            self._open.clear()
            return []
        self._frame_id = frame_id
        self._frames.append((tuple(sightings), tuple(doubts)))
        del self._frames[:-self.options.window]
        self._correct_window()
        if len(self._window) < self.options.window:
            return []
        settled = self._settled()
        if settled is None:
            return []
        counts = Counter(t.code for t in settled)
        if self._period is not None and counts != self._period and self._now is not None:
            # nothing moved, yet the tiles differ: asked at their places, not the latest taken
            self._waver(self._now, settled)
        self._now, self._period = settled, counts
        for seq, tile in list(self._pending.items()):  # a doubtful tile taken away needs no answer
            if not any(t.code == tile.code and math.dist((t.x, t.y), (tile.x, tile.y)) <= self.options.confirm_radius_cm
                       for t in settled):
                del self._pending[seq]
        return self._question(settled, frame_id) + self._doubt_questions(settled, frame_id)

    def awaits(self, seq: int) -> bool:
        """True while question ``seq`` waits for an answer: an answer ("the table is as read"), a move
        of the table or the turn's end can settle or drop other open questions, and :meth:`confirm`
        refuses an answer to those."""
        return seq in self._open or seq in self._pending

    def confirm(self, seq: int, code: str) -> list[TileEvent]:
        """Answer question ``seq``: the tile there is ``code``; a doubt may also be answered
        :data:`NO_TILE` (no tile lies at its place) or :data:`AS_READ` (the table is as read). An answer
        that cannot be placed (:meth:`_settle_doubt`) leaves the question open, as "none of these" does."""
        if seq in self._open:
            if code == NOT_AS_READ or not self._settle_doubt(self._open[seq], code):
                return []
            self._open.pop(seq, None)
        elif seq in self._pending:
            tile = self._pending.pop(seq)
            self._overrides.append((tile.x, tile.y, tile.code, None if code == NO_TILE else str(parse_tile(code, self.rules.palette))))
        else:
            raise TileTrackerError(f"event #{seq} is not waiting for a confirmation")
        self._correct_window()
        if self._now is None:
            return []
        self._now = self._settled()
        self._period = Counter(t.code for t in self._now) if self._now is not None else None
        if self._now is None:
            return []
        own = self._own_doubts(self._now)
        answered = self._answered_places(earlier=False)
        for open_seq, doubt in list(self._open.items()):    # the answer may have settled other doubts
            if (doubt.tile is not None and doubt not in own) or (
                    doubt.place and any(self._one_tile(doubt.place, p) for p in answered)):
                del self._open[open_seq]
        return self._doubt_questions(self._now, self._frame_id)

    def end_turn(self, frame_id: int) -> list[TileEvent]:
        """The player to move ends the turn (button or timer): commit it, checked by the engine."""
        events = self._judge_turn(frame_id)
        self._forget_answers()
        self._settled_places, self._as_read = [], False
        self._open.clear()  # moot: the turn they were about is asked
        return events

    def _forget_answers(self) -> None:
        """Keep the answers about tiles that lie on the reference table: an answer holds for the tile
        it was given about, and a tile taken back (an illegal turn) may later have another tile laid in
        its place, which is read afresh (an answer kept would turn its right reading into a wrong one)."""
        radius = self.options.confirm_radius_cm
        self._overrides = [(x, y, read, code) for x, y, read, code in self._overrides
                           if any(t.code == code and math.dist((t.x, t.y), (x, y)) <= radius for t in self.table)]
        self._added = [(x, y, code, turn) for x, y, code, turn in self._added
                       if any(t.code == code and self._near((t.x, t.y), (x, y)) for t in self.table)]

    def _judge_turn(self, frame_id: int) -> list[TileEvent]:
        player = self.player
        self._period, self._wavering = None, []  # the next turn reads afresh
        if self._now is None or self._pending or self._open or self._unsure:
            return [self._unread_turn(frame_id, player)]
        before, after = self._groups(self.table), self._groups(self._now)
        played = Counter(t.code for t in self._now) - Counter(t.code for t in self.table)
        glimpsed = self._glimpsed_missing()
        if glimpsed:
            return [self._unread_turn(frame_id, player, reanchor=False,
                                      why=f"{', '.join(glimpsed)} of the table before is read in some "
                                          "still frames and not in others: taken away or hidden?")]
        overfull = sorted(f"{code} {n} times" for code, n in Counter(t.code for t in self._now).items()
                          if n > (self.rules.jokers if code == "JK" else 2))
        if overfull:
            return [self._unread_turn(frame_id, player, reanchor=False,
                                      why=f"the table is read with {', '.join(overfull)}, more than the set holds")]
        stray = self._glimpsed_elsewhere()
        if stray:
            return [self._unread_turn(frame_id, player, reanchor=False,
                                      why=f"{', '.join(stray)} is read in some still frames where the settled table "
                                          "has no tile: laid there, or a reading dropped?")]
        if self._tentative and self._lacks(self._now):
            return [self._unread_turn(frame_id, player, why="tiles read after an unread turn are missing: that turn may "
                                                        "have been taken back, so the table before this one is unknown")]
        if not played and sorted(map(sorted, before)) == sorted(map(sorted, after)):
            self.turn += 1
            self.table, self._tentative = self._now, False
            return [self._emit("draw", frame_id, player)]
        if not played and not self._lacks(self._now):
            # The same tiles in other groups: a rearrangement without laying out (002 forbids it), or
            # tiles of one row read apart; from positions alone the two look alike, so it is asked.
            return [self._unread_turn(frame_id, player, why="the table holds the same tiles in other groups: "
                                                            "rearranged without laying out, or a row read apart")]
        parse = lambda codes: [parse_tile(c, self.rules.palette) for c in codes]  # noqa: E731 - one-line conversion
        checks = {opened: check_turn([parse(g) for g in before], [parse(g) for g in after], parse(played.elements()),
                                     opened, self.rules)
                  for opened in ((True, False) if self.opened[player] is None else (self.opened[player],))}
        if len({c.legal for c in checks.values()}) > 1:
            return [self._unread_turn(frame_id, player, why=f"whether {player} had made the first laying out is unknown "
                                                        f"(a turn of theirs was not read), and this turn is legal only if so")]
        # Legal either way, or illegal either way: then the violations that hold whatever came before.
        check = checks[True] if True in checks else checks[False]
        self.turn += 1
        if check.legal:
            self.opened[player] = True
            self.table, self._tentative = self._now, False
        # An illegal turn is taken back (002: the tiles go back to the rack): the table before it stays the reference.
        return [self._emit("turn", frame_id, player, played=tuple(sorted(played.elements())), groups=tuple(map(tuple, after)),
                           legal=check.legal, violations=check.violations, opening_points=check.opening_points)]

    def _glimpsed_missing(self) -> list[str]:
        """Tiles of the reference table that the settled table lacks but a frame of the window still
        shows: dropped readings are far likelier than tiles that come and go, so they are asked about."""
        now = Counter(t.code for t in self._now)
        seen = [Counter(s.code for s in frame) for frame in self._window]
        missing = Counter(t.code for t in self.table) - now
        return sorted(code for code in missing if any(count[code] > now[code] for count in seen))

    def _glimpsed_elsewhere(self) -> list[str]:
        """The stray readings of the window (:meth:`_strays`) as code at table cm."""
        return sorted({f"{s.code} at ({s.x:.0f}, {s.y:.0f})" for s in self._strays(self._now)})

    def _strays(self, settled: list[_Tile]) -> list[TileSighting]:
        """Tiles read in a frame of the window where the settled table has none: a tile whose readings
        were dropped in most frames settles as absent, and the next turn would count it as played. A
        misread lies where a tile is, so it does not count: a reading within :data:`STRAY_REACH` of a
        tile's size from a settled tile is one of that tile. One reading per code and place."""
        width, height = self.options.tile_cm
        found: dict[tuple[str, int, int], TileSighting] = {}
        for frame in self._window:
            for s in frame:
                if all(math.hypot((s.x - t.x) / width, (s.y - t.y) / height) > STRAY_REACH for t in settled):
                    found.setdefault((s.code, round(s.x), round(s.y)), s)
        return list(found.values())

    def _lacks(self, tiles: list[_Tile]) -> bool:
        """Whether ``tiles`` miss any tile of the reference table."""
        return bool(Counter(t.code for t in self.table) - Counter(t.code for t in tiles))

    def _unread_turn(self, frame_id: int, player: str, why: str | None = None, reanchor: bool = True) -> TileEvent:
        """The turn is a question; the table settled now (if any, with no question open, and trusted:
        ``reanchor``) is the next reference."""
        why = why or ("a question about a tile is open" if self._pending or self._open else
                      "the table was not still long enough to read" if self._now is None else
                      f"turn #{self._unsure} could not be read, so the table before this one is unknown")
        event = self._emit("turn", frame_id, player, needs_confirmation=True, detail=f"{player}'s turn ended but {why}")
        self.turn += 1
        if not self.opened[player]:
            self.opened[player] = None
        if reanchor and self._now is not None and not self._pending and not self._open:
            self.table, self._unsure, self._tentative = self._now, 0, True  # known again, unless taken back
        else:
            self._unsure = self._unsure or event.seq
        return event

    # --- reading ------------------------------------------------------------------------------

    def _correct_window(self) -> None:
        self._window = [self._corrected(sightings, doubts) for sightings, doubts in self._frames]

    def _corrected(self, sightings: Sequence[TileSighting], doubts: Sequence[TileDoubt]) -> list[TileSighting]:
        """A frame's tiles after the answers: tiles named or dropped, tiles added where none was read
        (an answer of an earlier turn only where the reader doubts that place again)."""
        corrected = []
        for s in sightings:
            answer = next((code for x, y, read, code in self._overrides
                           if read == s.code and math.dist((x, y), (s.x, s.y)) <= self.options.confirm_radius_cm), s.code)
            if answer is not None:
                corrected.append(s if answer == s.code else TileSighting(answer, 1.0, s.x, s.y))
        for x, y, code, turn in self._added:
            if turn != self.turn and not any(d.place and self._same_place(d.place, (x, y)) for d in doubts):
                continue
            if not any(self._near((s.x, s.y), (x, y)) for s in corrected):
                corrected.append(TileSighting(code, 1.0, x, y))
        return corrected

    def _same_place(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether two doubts are about one place (within ``confirm_radius_cm``): closer than
        :meth:`_near`, so that a doubt about a tile missed beside one asked or answered about is
        asked too."""
        return math.dist(a, b) <= self.options.confirm_radius_cm

    def _recurring_doubts(self) -> list[TileDoubt]:
        """The reader's doubts of the window's frames that a quorum of them share (at one tile's place,
        or about the whole table). The table is still, so a tile missed lies there in every frame; a
        sign that comes and goes is the reading's noise, as a tile read in fewer frames is."""
        frames = [doubts for _, doubts in self._frames]

        def alike(a: TileDoubt, b: TileDoubt) -> bool:
            return (a.place is None) == (b.place is None) and (a.place is None or self._one_tile(a.place, b.place))

        return [doubt for doubts in frames for doubt in doubts
                if sum(any(alike(doubt, other) for other in theirs) for theirs in frames) >= self.options.quorum]

    def _one_tile(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether two places are too close for a tile at each (they would overlap by more than
        :data:`ONE_TILE` of a tile's size both ways): doubts there are about one tile, and an answer
        about one settles the other. Tiles side by side in a row are two."""
        width, height = self.options.tile_cm
        return abs(a[0] - b[0]) < ONE_TILE * width and abs(a[1] - b[1]) < ONE_TILE * height

    def _near(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether two places are one tile's (within :data:`STRAY_REACH` of a tile's size)."""
        width, height = self.options.tile_cm
        return math.hypot((a[0] - b[0]) / width, (a[1] - b[1]) / height) <= STRAY_REACH

    # --- the reader's doubts ------------------------------------------------------------------

    def _doubt_questions(self, settled: list[_Tile], frame_id: int) -> list[TileEvent]:
        """A question for each doubt of the window's frames and of the tracker's own (:meth:`_own_doubts`)
        at a place not yet asked or answered; one about the whole table once every place is answered
        (the table it shows is then the corrected one)."""
        if self._as_read:
            return []
        events = []
        asked = list(self._open.values())
        doubts = self._recurring_doubts() + self._own_doubts(settled)
        # The tracker's own doubts first: they name the tile and its place as it lay, and a doubt of
        # the reader on the same tile (its face is larger than a doubt's mark) is then settled by them.
        for doubt in sorted(doubts, key=lambda d: (d.place is None, d.tile is None)):
            place = doubt.place
            if place is None:
                if asked:
                    continue
            elif any(self._one_tile(place, p) for p in self._answered_places(earlier=doubt.tile is None)) or any(
                    d.place and self._one_tile(place, d.place) for d in asked):
                continue
            here = self._tile_at(settled, place)
            choices = self._fitting(settled, place, here, doubts, doubt.tile) + ([NO_TILE] if place else []) + [
                AS_READ, NOT_AS_READ]
            event = self._emit("doubt", frame_id, needs_confirmation=True, candidates=tuple(choices),
                               position=place and (round(place[0], 1), round(place[1], 1)),
                               groups=tuple(map(tuple, self._groups(settled))), detail=doubt.why,
                               read=here.code if here else None)
            self._open[event.seq] = doubt
            asked.append(doubt)
            events.append(event)
        return events

    def _own_doubts(self, settled: list[_Tile]) -> list[TileDoubt]:
        """The tracker's doubts about the settled table, each at its place: a tile of the table before
        that is not read there now (missed by the reader, or taken away: an illegal turn), and a tile
        read in some still frames where the settled table has none (laid there and dropped from most
        readings, or a misreading of the bare table). Unasked, either decides the turn on the reader's
        word alone. None while the table before is unknown (the turn is asked anyway)."""
        if self._unsure:
            return []
        missing = Counter(t.code for t in self.table) - Counter(t.code for t in settled)
        unsure = [(p.x, p.y) for p in self._pending.values()]   # asked already: which tile is read there
        doubts = [TileDoubt(f"{t.code} lay here at the end of the last turn and is not read now", t.x, t.y, t.code)
                  for t in self.table if missing[t.code]
                  and not any(s.code == t.code and self._near((s.x, s.y), (t.x, t.y)) for s in settled)
                  and not any(self._near(p, (t.x, t.y)) for p in unsure)]
        return doubts + self._wavering + [_read_at_times(s.code, s.x, s.y) for s in self._strays(settled)]

    def _waver(self, before: list[_Tile], after: list[_Tile]) -> None:
        """Note the tiles of one settled table that the other lacks at their places (:attr:`_wavering`);
        a table answered "as read" is asked about again (the answer was about the other one)."""
        def lacking(tiles: list[_Tile], others: list[_Tile]) -> list[_Tile]:
            return [t for t in tiles if not any(o.code == t.code and self._near((o.x, o.y), (t.x, t.y)) for o in others)]

        for t in lacking(before, after) + lacking(after, before):
            if not any(w.tile == t.code and self._one_tile((w.x, w.y), (t.x, t.y)) for w in self._wavering):
                self._wavering.append(_read_at_times(t.code, t.x, t.y))
        self._as_read = False

    def _answered_places(self, earlier: bool = True) -> list[tuple[float, float]]:
        """Places a doubt is no longer asked about: answered this still period, or where an answer put
        a tile the reader missed (this turn, or with ``earlier`` an earlier one: it holds while that
        tile lies on the table, where the reader doubts the place again: :meth:`_corrected`)."""
        return self._settled_places + [(x, y) for x, y, _, turn in self._added if earlier or turn == self.turn]

    def _tile_at(self, tiles: list[_Tile], place: tuple[float, float] | None) -> _Tile | None:
        """The tile read nearest ``place`` if it is the tile at that place."""
        near = [t for t in tiles if place and self._near((t.x, t.y), place)]
        return min(near, key=lambda t: math.dist((t.x, t.y), place), default=None)

    def _fitting(self, tiles: list[_Tile], place: tuple[float, float] | None, here: _Tile | None,
                 doubts: Sequence[TileDoubt], named: str | None = None) -> list[str]:
        """What may lie at ``place``: the tile read there first, the tile the doubt ``named``, then the
        tiles that make its row a group or run with the tile there (:func:`engine.tiles.fitting_tiles`),
        at most :data:`DOUBT_TILES`. The other places of ``doubts`` where no tile was read count as
        tiles of the row that may be anything (jokers): two tiles missed side by side still have a row."""
        if place is None:
            return []
        probe = here or _Tile("?", place[0], place[1], 0.0)
        unknown: list[_Tile] = []
        for other in (d.place for d in doubts):
            if other and not any(self._same_place(other, p) for p in [place] + [(u.x, u.y) for u in unknown]) \
                    and self._tile_at(tiles, other) is None:
                unknown.append(_Tile("JK", *other, 0.0))
        rows = self._rows([t for t in tiles if t is not here] + unknown + [probe])
        row = next(r for r in rows if probe in r)
        at = row.index(probe)
        left, right = ([parse_tile(t.code, self.rules.palette) for t in part] for part in (row[:at], row[at + 1:]))
        fitting = fitting_tiles(left, right, self.rules) if left or right else []
        first = ([here.code] if here else []) + ([named] if named else [])
        return list(dict.fromkeys(first + fitting))[:DOUBT_TILES]

    def _settle_doubt(self, doubt: TileDoubt, answer: str) -> bool:
        """Take an answer to a doubt; False where it cannot be placed: a tile named where a tile read
        beside the mark (on its face: :meth:`_one_tile`) leaves no room for another, and it is not
        that tile (which of the two the players meant is not known)."""
        if answer == AS_READ:
            self._as_read = True
            self._open.clear()
            return True
        place = doubt.place
        if place is None:
            raise TileTrackerError(f"a doubt with no place ({doubt.why}) is answered {AS_READ}, got {answer!r}")
        code = None if answer == NO_TILE else str(parse_tile(answer, self.rules.palette))
        now = self._now or []
        here = self._tile_at(now, place)
        if here is not None:
            self._overrides.append((here.x, here.y, here.code, code))
            self._settled_places.append(place)
            return True
        beside = [t.code for t in now if self._one_tile(place, (t.x, t.y))]
        if code is not None and beside and code not in beside:
            return False
        named = None if code in beside else code      # a tile read beside the mark is the one the players name
        if doubt.tile is not None:      # the readings of the tile named there in some frames: renamed or dropped
            self._overrides.append((place[0], place[1], doubt.tile, named))
        if named is not None:
            self._added.append((place[0], place[1], named, self.turn))
        self._settled_places.append(place)
        return True

    def _settled(self) -> list[_Tile] | None:
        """The tiles on the table if every tile count is agreed by a quorum of the window: the latest
        frame that read them all, else each tile as the latest frame that agrees on its count read it
        (no frame read every tile; the tiles some frames read and others did not are asked about at
        their places: :meth:`_own_doubts`)."""
        counts = [Counter(s.code for s in frame) for frame in self._window]
        agreed: Counter[str] = Counter()
        for code in set().union(*counts):
            votes = Counter(c[code] for c in counts).most_common(1)[0]
            if votes[1] < self.options.quorum:
                return None
            agreed[code] = votes[0]
        agreed = +agreed
        latest = list(zip(reversed(self._window), reversed(counts)))
        for frame, count in latest:
            if +count == agreed:
                return [_Tile(s.code, s.x, s.y, s.confidence) for s in frame]
        return [_Tile(s.code, s.x, s.y, s.confidence) for code, n in agreed.items()
                for s in next(frame for frame, count in latest if count[code] == n) if s.code == code]

    def _question(self, tiles: list[_Tile], frame_id: int) -> list[TileEvent]:
        events = []
        for tile in tiles:
            if tile.confidence >= self.options.min_confidence:
                continue
            if any(p.code == tile.code and math.dist((p.x, p.y), (tile.x, tile.y)) <= self.options.confirm_radius_cm
                   for p in self._pending.values()):
                continue
            event = self._emit("reading", frame_id, needs_confirmation=True, candidates=(tile.code,),
                               position=(round(tile.x, 1), round(tile.y, 1)),
                               detail=f"{tile.code} read with confidence {tile.confidence:.2f}")
            self._pending[event.seq] = tile
            events.append(event)
        return events

    def _groups(self, tiles: list[_Tile]) -> list[list[str]]:
        """Rows of tiles lying side by side, each ordered left to right, as tile codes."""
        return [[t.code for t in row] for row in self._rows(tiles)]

    def _rows(self, tiles: list[_Tile]) -> list[list[_Tile]]:
        """Rows of tiles lying side by side, each ordered left to right."""
        width, height = self.options.tile_cm
        groups: list[list[_Tile]] = []
        for tile in sorted(tiles, key=lambda t: (t.x, t.y)):
            for group in groups:
                last = group[-1]
                if abs(last.y - tile.y) < height / 2 and 0 < tile.x - last.x <= width + self.options.gap_cm:
                    group.append(tile)
                    break
            else:
                groups.append([tile])
        return sorted(groups, key=lambda g: (round(g[0].y), g[0].x))

    def _emit(self, kind: TileEventKind, frame_id: int, player: str | None = None, **fields) -> TileEvent:
        event = TileEvent(len(self.events) + 1, kind, frame_id, player, **fields)
        self.events.append(event)
        return event
