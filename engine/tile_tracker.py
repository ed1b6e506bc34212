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
a turn that ends while the table is unsettled or a question is open is one too; so is a turn
whose still table settled on different tiles in different windows (nothing moved, so one of the
readings is wrong, and the latest is not simply taken). After such a turn the table before the
next one is unknown, so that turn is a question as well; the table settled at its end is the
reference again from then on, tentatively: that unread turn may have been illegal and taken
back, so a later turn that lacks tiles of it is a question too. Whether the player of an unread
turn has made the first laying out is unknown too: a later turn of theirs that is legal only if
they had is a question. So is a table read with a tile where the settled table has none in some
still frames (its readings dropped in most), or with a tile more often than the set holds. An
answer about a tile holds while that tile lies on the table: a tile laid later on the spot of one
taken back is read afresh.

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

from engine.cards import CardError, parse_tile
from engine.tiles import TileRules, check_turn

TileEventKind = Literal["turn", "draw", "reading"]
STRAY_REACH = 0.75
"""How far (in tile sizes) a reading may lie from a settled tile and still be a reading of it: far
beyond the jitter of one tile's readings, short of the next tile in a row (a tile's width and a
gap away)."""


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
            object.__setattr__(self, "code", str(parse_tile(self.code)))
        except CardError as error:
            raise TileTrackerError(f"tile sighting {self.code!r}: {error}") from None


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
    or a question (``needs_confirmation``)."""

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
        self._window: list[list[TileSighting]] = []
        self._overrides: list[tuple[float, float, str, str]] = []
        self._pending: dict[int, _Tile] = {}
        self._period: Counter[str] | None = None
        """The tile counts settled in this still period; a later window that settles other counts
        without the table moving means the readings disagree, and the table is not known."""
        self._disagree = False
        self._unsure = 0
        self._tentative = False
        """The reference table was read at the end of an unread turn, which may yet be taken back."""

    @property
    def player(self) -> str:
        return self.players[self.turn % len(self.players)]

    def update(self, frame_id: int, sightings: Sequence[TileSighting], still: bool) -> list[TileEvent]:
        """Take one frame; returns the questions it raises (turns end with :meth:`end_turn`)."""
        if not still:
            self._window.clear()
            self._now, self._period, self._disagree = None, None, False
            return []
        self._window.append([self._corrected(s) for s in sightings])
        del self._window[:-self.options.window]
        if len(self._window) < self.options.window:
            return []
        settled = self._settled()
        if settled is None or self._disagree:
            return []
        counts = Counter(t.code for t in settled)
        if self._period is not None and counts != self._period:
            self._now, self._disagree = None, True  # nothing moved, yet the tiles differ: asked, not the latest taken
            return []
        self._now, self._period = settled, counts
        for seq, tile in list(self._pending.items()):  # a doubtful tile taken away needs no answer
            if not any(t.code == tile.code and math.dist((t.x, t.y), (tile.x, tile.y)) <= self.options.confirm_radius_cm
                       for t in settled):
                del self._pending[seq]
        return self._question(settled, frame_id)

    def confirm(self, seq: int, code: str) -> list[TileEvent]:
        """Answer question ``seq``: the tile there is ``code``."""
        if seq not in self._pending:
            raise TileTrackerError(f"event #{seq} is not waiting for a confirmation")
        tile = self._pending.pop(seq)
        self._overrides.append((tile.x, tile.y, tile.code, str(parse_tile(code))))
        self._window = [[self._corrected(s) for s in frame] for frame in self._window]
        if self._now is not None:
            self._now = self._settled()
            self._period = Counter(t.code for t in self._now) if self._now is not None else None
        return []

    def end_turn(self, frame_id: int) -> list[TileEvent]:
        """The player to move ends the turn (button or timer): commit it, checked by the engine."""
        events = self._judge_turn(frame_id)
        self._forget_answers()
        return events

    def _forget_answers(self) -> None:
        """Keep the answers about tiles that lie on the reference table: an answer holds for the tile
        it was given about, and a tile taken back (an illegal turn) may later have another tile laid in
        its place, which is read afresh (an answer kept would turn its right reading into a wrong one)."""
        radius = self.options.confirm_radius_cm
        self._overrides = [(x, y, read, code) for x, y, read, code in self._overrides
                           if any(t.code == code and math.dist((t.x, t.y), (x, y)) <= radius for t in self.table)]

    def _judge_turn(self, frame_id: int) -> list[TileEvent]:
        player = self.player
        disagree, self._period, self._disagree = self._disagree, None, False  # the next turn reads afresh
        if self._now is None or self._pending or self._unsure:
            return [self._unread_turn(frame_id, player, disagree)]
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
        parse = lambda codes: [parse_tile(c) for c in codes]  # noqa: E731 - one-line conversion
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
        """Tiles read in a frame of the window where the settled table has none (code at table cm): a
        tile whose readings were dropped in most frames settles as absent, and the next turn would
        count it as played. A misread lies where a tile is, so it does not count: a reading within
        :data:`STRAY_REACH` of a tile's size from a settled tile is one of that tile."""
        width, height = self.options.tile_cm
        stray = {f"{s.code} at ({s.x:.0f}, {s.y:.0f})" for frame in self._window for s in frame
                 if all(math.hypot((s.x - t.x) / width, (s.y - t.y) / height) > STRAY_REACH for t in self._now)}
        return sorted(stray)

    def _lacks(self, tiles: list[_Tile]) -> bool:
        """Whether ``tiles`` miss any tile of the reference table."""
        return bool(Counter(t.code for t in self.table) - Counter(t.code for t in tiles))

    def _unread_turn(self, frame_id: int, player: str, disagree: bool = False, why: str | None = None,
                     reanchor: bool = True) -> TileEvent:
        """The turn is a question; the table settled now (if any, with no question open, and trusted:
        ``reanchor``) is the next reference."""
        why = why or ("a question about a tile is open" if self._pending else
                      "the still table's readings disagree (tiles read in some frames, not in others)"
                      if disagree else
                      "the table was not still long enough to read" if self._now is None else
                      f"turn #{self._unsure} could not be read, so the table before this one is unknown")
        event = self._emit("turn", frame_id, player, needs_confirmation=True, detail=f"{player}'s turn ended but {why}")
        self.turn += 1
        if not self.opened[player]:
            self.opened[player] = None
        if reanchor and self._now is not None and not self._pending:
            self.table, self._unsure, self._tentative = self._now, 0, True  # known again, unless taken back
        else:
            self._unsure = self._unsure or event.seq
        return event

    # --- reading ------------------------------------------------------------------------------

    def _corrected(self, s: TileSighting) -> TileSighting:
        for x, y, read, code in self._overrides:
            if read == s.code and math.dist((x, y), (s.x, s.y)) <= self.options.confirm_radius_cm:
                return TileSighting(code, 1.0, s.x, s.y)
        return s

    def _settled(self) -> list[_Tile] | None:
        """The tiles on the table if every tile count is agreed by a quorum of the window."""
        counts = [Counter(s.code for s in frame) for frame in self._window]
        agreed: Counter[str] = Counter()
        for code in set().union(*counts):
            votes = Counter(c[code] for c in counts).most_common(1)[0]
            if votes[1] < self.options.quorum:
                return None
            agreed[code] = votes[0]
        agreed = +agreed
        for frame, count in zip(reversed(self._window), reversed(counts)):
            if +count == agreed:
                return [_Tile(s.code, s.x, s.y, s.confidence) for s in frame]
        return None

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
        return [[t.code for t in g] for g in sorted(groups, key=lambda g: (round(g[0].y), g[0].x))]

    def _emit(self, kind: TileEventKind, frame_id: int, player: str | None = None, **fields) -> TileEvent:
        event = TileEvent(len(self.events) + 1, kind, frame_id, player, **fields)
        self.events.append(event)
        return event
