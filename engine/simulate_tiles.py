"""A tile Rummy simulator: simple players take turns, the camera reads the common table with noise.

Players lay out the groups and runs the meld solver finds in their rack (the first laying out
only when it is worth the opening points), else draw a tile; now and then a player makes a
mistake (lays three tiles that are no group), so the truth holds illegal turns too, judged by
:func:`engine.tiles.check_turn` on the true tables; an illegal turn's tiles go back to the rack. New groups go in
rows on the table, tiles side by side. Each turn is a few frames with a hand over the table
(tiles under it hidden), then still frames read with the noise of :class:`engine.simulate.Noise`,
then the turn button.

>>> game = simulate_tiles(3, turns=6)
>>> len(game.truth), all(e.kind in ("turn", "draw") for e in game.truth)
(6, True)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from engine.cards import parse_tile
from engine.simulate import Noise, Pace
from engine.tile_tracker import AS_READ, NO_TILE, NOT_AS_READ, STRAY_REACH, TileDoubt, TileEvent, TileSighting, TileTrackerOptions
from engine.tiles import TileRules, check_turn, tile_value

ROW_CM = 5.0
"""Rows of groups on the table lie this far apart."""
STEP_CM = 3.0
"""Tiles of one group lie side by side, this far apart centre to centre."""
GROUP_GAP_CM = 6.0
"""Groups in one row lie this much further apart than tiles of one group (about two tiles' room between
them): a gap of one tile's room reads as a tile missing (:func:`vision.tiles.grouping.gaps`)."""
TABLE_CM = (80.0, 60.0)


@dataclass(frozen=True)
class TileFrame:
    """One frame: the tiles read, whether the table is still, the true tiles (code, x, y), whether
    the player presses the turn button after this frame, and the reader's doubts."""

    frame_id: int
    sightings: tuple[TileSighting, ...]
    still: bool
    table: tuple[tuple[str, float, float], ...]
    end_turn: bool = False
    doubts: tuple[TileDoubt, ...] = ()

    def tile_at(self, x: float, y: float) -> str:
        """The true tile nearest a point: what a player answers when asked."""
        return min(self.table, key=lambda t: (t[1] - x) ** 2 + (t[2] - y) ** 2)[0]

    def answer(self, question: TileEvent, tile_cm: tuple[float, float] = TileTrackerOptions().tile_cm) -> str | None:
        """What a player answers a question, looking at the table, truthfully; None where no answer
        offered is true.

        A tile read unsurely: the tile there. A doubt about a place: the tile that lies there (one
        tile's size around it; where two do, the place is no one tile's; one not offered is picked
        from the set: :attr:`~engine.tile_tracker.TileEvent.any_tile`) or "no tile here"
        (:data:`NO_TILE`), as the player sees at the mark;
        where that answer is not offered, and for a doubt about the whole table, "the table is as
        read" (:data:`AS_READ`) when the tiles marked on the photo (``question.groups``) are the
        table's, else "none of these" (:data:`NOT_AS_READ`; None where that is not offered either).

        >>> frame = TileFrame(0, (), True, (("R5", 10.0, 20.0), ("R6", 13.0, 20.0), ("R7", 16.0, 20.0)))
        >>> gap = TileEvent(1, "doubt", 0, groups=(("R5", "R6"),), position=(16.2, 20.1),
        ...                 candidates=("R7", "R4", "JK", NO_TILE, AS_READ))
        >>> frame.answer(gap), frame.answer(TileEvent(2, "doubt", 0, groups=(("R5", "R6", "R7"),), candidates=(AS_READ,)))
        ('R7', 'AS_READ')
        >>> frame.answer(TileEvent(3, "doubt", 0, groups=(("R5", "R6", "R7"),), position=(30.0, 20.0), candidates=(NO_TILE, AS_READ)))
        'NO_TILE'
        >>> frame.answer(TileEvent(4, "doubt", 0, groups=(("R5", "R6"),), candidates=(AS_READ, NOT_AS_READ)))
        'NOT_AS_READ'
        >>> frame.answer(TileEvent(5, "doubt", 0, groups=(("R5", "R7"),), position=(13.0, 20.0), candidates=(NO_TILE, AS_READ)))
        'R6'
        """
        if question.kind == "reading":
            return self.tile_at(*question.position)
        if question.position is not None:
            x, y = question.position
            near = [t for t in self.table if math.hypot((t[1] - x) / tile_cm[0], (t[2] - y) / tile_cm[1]) <= STRAY_REACH]
            here = near[0][0] if len(near) == 1 else NO_TILE if not near else None   # two tiles at the mark: no one tile's
            if here in question.candidates or (question.any_tile and here not in (None, NO_TILE)):
                return here     # a tile not offered is named with the tile picker
        as_read = Counter(code for group in question.groups for code in group) == Counter(t[0] for t in self.table)
        answer = AS_READ if as_read else NOT_AS_READ
        return answer if answer in question.candidates else None


@dataclass
class SimulatedTiles:
    seed: int
    players: tuple[str, ...]
    frames: list[TileFrame]
    truth: list[TileEvent]
    rules: TileRules = TileRules()
    """The rules played by, the tile set among them."""


def _all_tiles(rules: TileRules) -> list[str]:
    numbered = [f"{colour}{n}" for colour in rules.palette.colours for n in range(1, 14)] * 2
    return numbered + ["JK"] * rules.jokers


def simulate_tiles(seed: int, players: int = 4, turns: int = 30, rules: TileRules = TileRules(), noise: Noise = Noise(),
                   pace: Pace = Pace(), mistakes: float = 0.1, doubts: Doubts | None = None) -> SimulatedTiles:
    """Play ``turns`` turns of ``players`` players from ``seed``; the same seed gives the same game
    (``doubts``: the reader's doubts too, drawn after the game's own draws)."""
    rng = random.Random(seed)
    names = ("Ann", "Ben", "Cleo", "Dan")[:players]
    pool = _all_tiles(rules)
    rng.shuffle(pool)
    racks = {name: [pool.pop() for _ in range(14)] for name in names}
    opened = {name: False for name in names}
    groups: list[list[str]] = []
    places: list[tuple[float, float]] = []  # where each group starts
    frames: list[TileFrame] = []
    truth: list[TileEvent] = []
    solver = rules.solver()

    def table() -> tuple[tuple[str, float, float], ...]:
        return tuple((code, x + i * STEP_CM, y) for group, (x, y) in zip(groups, places) for i, code in enumerate(group))

    def place(length: int) -> tuple[float, float]:
        if not places:
            return (4.0, 6.0)
        x, y = places[-1]
        x += (len(groups[-1]) - 1) * STEP_CM + GROUP_GAP_CM + STEP_CM
        if x + length * STEP_CM > TABLE_CM[0] - 2:
            x, y = 4.0, y + ROW_CM
        return (x, y)

    def tiles(codes: list[str]) -> list:
        return [parse_tile(c, rules.palette) for c in codes]

    for turn in range(turns):
        name = names[turn % players]
        rack = racks[name]
        arranged = solver.arrange(tiles(rack))
        melds = [[str(t) for t in meld.pieces] for meld in arranged.melds]
        points = sum(tile_value(t) for meld in melds for t in tiles(meld))
        if rng.random() < mistakes and len(rack) >= 3:
            melds = [rng.sample(rack, 3)]  # a mistake: three tiles that are (usually) no group
        elif not opened[name] and points < rules.opening_points:
            melds = []
        before = [list(g) for g in groups]
        if melds:
            for meld in melds:
                for code in meld:
                    rack.remove(code)
                places.append(place(len(meld)))
                groups.append(meld)
            played = [c for meld in melds for c in meld]
            check = check_turn([tiles(g) for g in before], [tiles(g) for g in groups], tiles(played), opened[name], rules)
            opened[name] = opened[name] or check.legal
            truth.append(TileEvent(0, "turn", 0, name, tuple(sorted(played)), tuple(map(tuple, groups)), check.legal,
                                   check.violations, check.opening_points))
        else:
            if pool:
                rack.append(pool.pop())
            truth.append(TileEvent(0, "draw", 0, name))
        _film(frames, table(), rng, noise, pace, doubts)
        if melds and not truth[-1].legal:  # taken back to the rack (002); the next turn shows the table without them
            del groups[len(before):], places[len(before):]
            rack += played
    return SimulatedTiles(seed, names, frames, truth, rules)


@dataclass(frozen=True)
class Doubts:
    """The tile reader's doubts (:class:`~engine.tile_tracker.TileDoubt`) in the simulated readings: a
    tile missed in every still frame of a turn with a doubt at its place (``missed``, per tile and
    turn), and a doubt where no tile lies (``false``, per turn: a patch of the table that looks like a
    tile face)."""

    missed: float = 0.0
    false: float = 0.0


def _film(frames: list[TileFrame], placed: tuple[tuple[str, float, float], ...], rng: random.Random, noise: Noise,
          pace: Pace, doubting: Doubts | None = None) -> None:
    """A hand over the table, still frames read with noise (and the reader's doubts), then the turn button."""
    for _ in range(rng.randint(*pace.moving)):
        frames.append(TileFrame(len(frames), tuple(_read(t, rng, noise, None) for t in placed if rng.random() < 0.5), False, placed))
    doubts = {i: _lookalike(t[0], rng) for i, t in enumerate(placed) if rng.random() < noise.doubt}
    missed, doubted = _doubted(placed, rng, doubting) if doubting else (set(), ())
    count = rng.randint(*pace.still)
    for k in range(count):
        seen = tuple(_read(t, rng, noise, doubts.get(i)) for i, t in enumerate(placed)
                     if rng.random() >= noise.drop and i not in missed)
        frames.append(TileFrame(len(frames), seen, True, placed, end_turn=k == count - 1, doubts=doubted))


def _doubted(placed: tuple[tuple[str, float, float], ...], rng: random.Random,
             doubting: Doubts) -> tuple[set[int], tuple[TileDoubt, ...]]:
    """The tiles the reader misses this turn and its doubts: at each missed tile, and now and then
    on a bare patch of the table (far from every tile)."""
    missed = {i for i in range(len(placed)) if rng.random() < doubting.missed}
    doubts = [TileDoubt("a tile-sized patch of face colour is no tile found", round(placed[i][1] + rng.gauss(0, 0.3), 1),
                        round(placed[i][2] + rng.gauss(0, 0.3), 1)) for i in sorted(missed)]
    if rng.random() < doubting.false:
        x, y = rng.uniform(2, TABLE_CM[0] - 2), rng.uniform(2, TABLE_CM[1] - 2)
        if all(math.hypot(x - tx, y - ty) > 2 * STEP_CM for _, tx, ty in placed):
            doubts.append(TileDoubt("a tile-sized patch of face colour is no tile found", round(x, 1), round(y, 1)))
    return missed, tuple(doubts)


def _read(tile: tuple[str, float, float], rng: random.Random, noise: Noise, doubt: str | None) -> TileSighting:
    code, x, y = tile
    confidence = rng.uniform(*noise.confidence)
    if doubt is not None:
        code, confidence = doubt, rng.uniform(*noise.doubt_confidence)
    elif rng.random() < noise.flip:
        code = _lookalike(code, rng)
    return TileSighting(code, round(confidence, 3), x + rng.gauss(0, noise.jitter_cm), y + rng.gauss(0, noise.jitter_cm))


def _lookalike(code: str, rng: random.Random) -> str:
    """A tile a reader might confuse: same number other colour, or a neighbouring number."""
    if code == "JK":
        return "R1"
    colour, number = code[0], int(code[1:])
    if rng.random() < 0.5:
        return rng.choice([c for c in "YGBR" if c != colour]) + str(number)
    return colour + str(number % 13 + 1)


def track_tiles(game: SimulatedTiles, answer: bool = True,
                options: TileTrackerOptions | None = None) -> tuple[list[TileEvent], list[tuple[TileEvent, str | None]]]:
    """The game through a :class:`~engine.tile_tracker.TileTracker`; questions answered from the table
    (:meth:`TileFrame.answer`).

    Returns the turn and draw events committed (questions left out) and the questions with their
    answers (None: not answered).
    """
    from engine.tile_tracker import TileTracker

    options = options or TileTrackerOptions()
    tracker = TileTracker(game.players, game.rules, options)
    committed: list[TileEvent] = []
    asked: list[tuple[TileEvent, str | None]] = []
    for frame in game.frames:
        events = tracker.update(frame.frame_id, frame.sightings, frame.still, frame.doubts)
        while events:
            question = events.pop(0)
            # an earlier answer ("the table is as read") may have settled it
            reply = frame.answer(question, options.tile_cm) if answer and tracker.awaits(question.seq) else None
            asked.append((question, reply))
            if reply is not None:
                events += tracker.confirm(question.seq, reply)
        if frame.end_turn:
            committed += tracker.end_turn(frame.frame_id)
    return committed, asked
