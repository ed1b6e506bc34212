"""Tile Rummy (Ravensburger Rummy, rules text 002): groups, the table solver, turn checking, scoring.

Tiles 1-13 in four colours, each twice, plus 4 jokers (or 2 by agreement); 14 tiles each.
Tile codes are parsed by :mod:`engine.cards` (``R7``, ``Y13``, ``JK``; Ravensburger colours
Y G B R, Rummikub colours K B O R). Groups ("Satz") are 3-4 tiles of one number in different
colours, runs ("Reihe") 3 or more consecutive numbers of one colour, 1..13, no wrap. The
table solver is the one meld solver (:class:`engine.wildmelds.WildSolver`) in partition mode.

>>> from engine.cards import parse_tiles
>>> result = partition(parse_tiles("R5 R6 R7 Y9 G9 JK B1 B2 B3 B4"))
>>> result.valid, [" ".join(group) for group in result.groups]
(True, ['Y9 G9 JK', 'B1 B2 B3 B4', 'R5 R6 R7'])
>>> partition(parse_tiles("R5 R6 R8")).reason
'R5 fits no group or run with these tiles'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Iterable, Sequence

from engine.cards import (
    RAVENSBURGER, CardError, DuplicateCardError, Joker, Tile, TilePalette, check_multiplicity, format_cards,
    parse_tiles,
)
from engine.melds import MeldRules
from engine.wildmelds import WildMeld, WildMeldError, WildSolver, tile_pieces

JOKER_POINTS = 25
"""A joker's value: in the opening (002: "immer 25 Punkte") and on the rack at the end."""
TILES_EACH = 14


class TileRuleError(ValueError):
    """Input the tile rules cannot take: wrong tiles, a winner with tiles left."""


@dataclass(frozen=True)
class TileRules:
    """The options of 002 (defaults: the Ravensburger rulebook).

    >>> TileRules().opening_points, TileRules().turn_seconds, TileRules(jokers=2).jokers
    (40, 120, 2)
    """

    palette: TilePalette = RAVENSBURGER
    jokers: int = 4
    """4, or 2 "by agreement"."""
    opening_points: int = 40
    joker_opening_represented: bool = False
    """Count a joker in the opening as the tile it stands for (other rulebooks) instead of 25."""
    turn_seconds: int = 120
    """The two-minute limit per turn (002 "Zeitbegrenzung")."""

    def __post_init__(self) -> None:
        if self.jokers not in (2, 4):
            raise TileRuleError(f"tile Rummy is played with 4 jokers or 2, got {self.jokers}")

    @property
    def meld_rules(self) -> MeldRules:
        return MeldRules(rank_values=tuple(range(1, 14)), decks=2, jokers=self.jokers, joker_value=JOKER_POINTS)

    def solver(self) -> WildSolver:
        return _solver(self)

    def timer(self) -> dict:
        """The turn timer as data for the dashboard."""
        return {
            "seconds": self.turn_seconds,
            "penalty": "take back every tile not placed in a valid group or run",
            "rule": "002 Zeitbegrenzung: each turn must be finished within 2 minutes",
        }


_SOLVERS: dict[TileRules, WildSolver] = {}


def _solver(rules: TileRules) -> WildSolver:
    if rules not in _SOLVERS:
        _SOLVERS[rules] = WildSolver(rules.meld_rules, tile_pieces(rules.palette))
    return _SOLVERS[rules]


def tile_value(tile: Tile | Joker) -> int:
    """Penalty value on the rack: the number, a joker 25."""
    return JOKER_POINTS if isinstance(tile, Joker) else tile.number


def group_of(tiles: Sequence, rules: TileRules = TileRules()) -> WildMeld:
    """Check one group or run as laid on the table (jokers keep their places when the order
    makes sense; otherwise any reading counts).

    >>> from engine.cards import parse_tiles
    >>> group_of(parse_tiles("R5 JK R7")).stands_for[1]
    Tile('R6')
    >>> group_of(parse_tiles("R12 R13 R1"))
    Traceback (most recent call last):
    ...
    engine.wildmelds.WildMeldError: R12 R13 R1: not a run: the ranks do not fit one sequence of 3 within A..K (never round the corner)
    """
    kind = tile_pieces(rules.palette)
    try:
        return WildMeld.of(tiles, ace_high=False, kind_of=kind, ordered=True)
    except WildMeldError:
        return WildMeld.of(tiles, ace_high=False, kind_of=kind)


def fitting_tiles(left: Sequence, right: Sequence, rules: TileRules = TileRules()) -> list[str]:
    """The tiles that make ``left + [tile] + right`` a group or run: what may lie where a row has a
    doubtful place (a tile missed between or beside tiles read, or one read unsurely), numbered tiles
    first, the joker last (it fits wherever anything does). Tiles that fit in the row's order come
    first; only where none does, those that fit in some order (a row read the other way round).

    >>> from engine.cards import parse_tiles as t
    >>> fitting_tiles(t("R5 R6"), t("R8")), fitting_tiles(t("Y9 G9"), [])
    (['R7', 'JK'], ['B9', 'R9', 'JK'])
    >>> fitting_tiles(t("R12 R13"), []), fitting_tiles(t("R2"), t("B7"))
    (['R11', 'JK'], [])
    """
    kind = tile_pieces(rules.palette)
    codes = [f"{colour}{n}" for colour in rules.palette.colours for n in range(1, 14)] + ["JK"]
    for ordered in (True, False):
        fitting = []
        for code in codes:
            try:
                WildMeld.of([*left, *parse_tiles([code], rules.palette), *right], ace_high=False, kind_of=kind,
                            ordered=ordered)
            except WildMeldError:
                continue
            fitting.append(code)
        if fitting != ["JK"] and fitting:
            return fitting
    return []


# --- the table solver ------------------------------------------------------------------------


@dataclass(frozen=True)
class PartitionResult:
    valid: bool
    groups: tuple[tuple[str, ...], ...]
    """One partition into groups and runs (tile codes, jokers as JK), if valid."""
    reason: str | None


def partition(tiles: Sequence, rules: TileRules = TileRules()) -> PartitionResult:
    """Can ``tiles`` be laid out as valid groups and runs, every tile used?"""
    solver = rules.solver()
    try:
        solver.count(tiles)
    except WildMeldError as error:
        raise TileRuleError(str(error)) from None
    if not tiles:
        return PartitionResult(True, (), None)
    found = solver.partition(tiles)
    if found is not None:
        return PartitionResult(True, tuple(tuple(m.codes()) for m in found.melds), None)
    return PartitionResult(False, (), _why_not(tiles, rules))


def _why_not(tiles: Sequence, rules: TileRules) -> str:
    jokers = sum(isinstance(t, Joker) for t in tiles)
    naturals = [t for t in tiles if not isinstance(t, Joker)]
    if not naturals:
        return f"{jokers} joker(s) alone: a group needs at least 3 tiles"
    have = set(naturals)
    for tile in naturals:
        colours = {t.colour for t in have if t.number == tile.number}
        in_group = len(colours) + jokers >= 3
        in_run = any(
            sum(Tile(tile.colour, n) in have for n in range(low, low + 3)) + jokers >= 3
            for low in range(max(1, tile.number - 2), min(tile.number, 11) + 1)
        )
        if not (in_group or in_run):
            return f"{tile} fits no group or run with these tiles"
    return (f"every tile fits some group or run, but no partition uses all {len(tiles)} tiles at once "
            f"({jokers} joker(s))")


# --- turn checking --------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnCheck:
    legal: bool
    violations: tuple[str, ...]
    opening_points: int | None
    """Points of the player's first laying out, when this turn is one."""


def _label(index: int, group: Sequence) -> str:
    return f"group {index + 1} ({format_cards(group)})"


def check_turn(before: Sequence[Sequence], after: Sequence[Sequence], rack_played: Sequence, opened: bool,
               rules: TileRules = TileRules(), drew: bool = False) -> TurnCheck:
    """Is a turn legal? ``before``/``after``: the table's groups (tiles in table order);
    ``rack_played``: the tiles the player added from the rack; ``opened``: whether the player
    had made the first laying out before this turn; ``drew``: the player took a tile this turn.

    >>> from engine.cards import parse_tiles as t
    >>> check = check_turn([t("B8 G8 Y8 R8")], [t("B8 G8 Y8"), t("R7 R8 R9")], t("R7 R9"), opened=True)
    >>> check.legal, check.violations
    (True, ())
    >>> print(*check_turn([], [t("R10 R11 R12")], t("R10 R11 R12"), opened=False).violations)
    the first laying out is worth 33 points; it needs at least 40 from the player's own tiles
    """
    violations: list[str] = []
    table_before = Counter(tile for group in before for tile in group)
    played = Counter(rack_played)
    table_after = Counter(tile for group in after for tile in group)
    for tile, n in ((table_before + played) - table_after).items():
        from_table = min(n, table_before[tile])
        if from_table:
            if isinstance(tile, Joker):
                violations.append("a joker taken from the table is not on the table again: a freed joker must be used in the same turn")
            else:
                violations.append(f"{tile} was on the table and is missing after the turn: every tile on the table must stay there")
        if n - from_table:
            violations.append(f"{tile} was played from the rack but is not on the table")
    for tile in (table_after - (table_before + played)):
        violations.append(f"{tile} is on the table but was neither there before nor played from the rack")
    if drew and rack_played:
        violations.append("a player who draws a tile lays out nothing in that turn; laying out waits until the next turn (002)")
    if not rack_played and Counter(map(_key, before)) != Counter(map(_key, after)):
        violations.append("the table was rearranged but no tile was played from the rack: a turn lays out tiles or draws one")
    melds, broken = _combinations(after, rules)
    violations += broken.values()
    violations += _split_violations(before, after)
    violations += _joker_violations(before, after, rules)
    opening = None
    if not opened and rack_played:
        opening, opening_problems = _opening(before, after, rack_played, melds, rules)
        violations += opening_problems
    return TurnCheck(not violations, tuple(violations), opening)


def broken_groups(table: Sequence[Sequence], rules: TileRules = TileRules()) -> dict[int, str]:
    """The groups of ``table`` that are no valid group or run, by index, each with the rule it
    breaks (the words :func:`check_turn` gives).

    >>> from engine.cards import parse_tiles as t
    >>> broken_groups([t("R1 R2 R3"), t("G7 B9 Y11")])
    {1: 'group 2 (G7 B9 Y11) is not a valid group or run: neither a set (B9 has another rank) nor a run (two suits)'}
    """
    return _combinations(table, rules)[1]


def _combinations(table: Sequence[Sequence], rules: TileRules) -> tuple[dict[int, WildMeld], dict[int, str]]:
    """The valid groups and runs of ``table`` and the broken ones (:func:`broken_groups`), by index."""
    melds, broken = {}, {}
    for index, group in enumerate(table):
        try:
            melds[index] = group_of(group, rules)
        except WildMeldError as error:
            broken[index] = f"{_label(index, group)} is not a valid group or run: {_reason(error)}"
    return melds, broken


def replaced_in_place(before: Sequence[Sequence], after: Sequence[Sequence]) -> list[tuple]:
    """Tiles of the table that seem to have turned into others: (gone, new, (group, position)) where
    tiles of a group before left the table (``gone`` one of them) and group ``group`` after the turn,
    at least as long, holds the rest of that group (at least one tile) and, at ``position``, ``new``:
    a tile not on the table before. Tiles do not change; a reading of one photo that took tiles for
    others (a colour or number misread, or a font's 5 read as 6 in a whole group) looks so, and a
    turn check from photos must not rule on it as tiles taken from the table.

    >>> from engine.cards import parse_tiles as t
    >>> replaced_in_place([t("Y5 R5 G5"), t("R1 R2 R3")], [t("Y5 R5 B5"), t("R1 R2 R3"), t("Y9 R9 B9")])
    [(Tile('G5'), Tile('B5'), (0, 2))]
    >>> [(str(g), str(n), at) for g, n, at in replaced_in_place([t("Y5 B5 G5 R5")], [t("Y6 B6 G5 R6")])]
    [('Y5', 'Y6', (0, 0)), ('Y5', 'B6', (0, 1)), ('Y5', 'R6', (0, 3))]
    >>> replaced_in_place([t("Y5 R5 G5")], [t("Y5 R5"), t("G1 G2 G3")])
    []
    """
    old, now = Counter(t for g in before for t in g), Counter(t for g in after for t in g)
    gone, new = old - now, now - old
    found = []
    for group in before:
        left = Counter(group) - gone            # the group's tiles still on the table
        if left == Counter(group) or not left:
            continue
        first_gone = next(t for t in group if t in gone)
        for number, later in enumerate(after):
            if len(later) >= len(group) and not left - Counter(later):
                found += [(first_gone, other, (number, position)) for position, other in enumerate(later)
                          if other in new and not any(f[2] == (number, position) for f in found)]
    return found


def groups_gone(before: Sequence[Sequence], after: Sequence[Sequence]) -> list[list]:
    """The groups of the table before the turn none of whose tiles is on the table after it: a whole
    combination taken back, or, far likelier, a row the camera did not read.

    >>> from engine.cards import parse_tiles as t
    >>> groups_gone([t("R11 G11 B11"), t("Y1 G1 B1")], [t("Y1 G1 B1"), t("G5 G6 G7")])
    [[Tile('R11'), Tile('G11'), Tile('B11')]]
    """
    now = Counter(t for g in after for t in g)
    return [list(group) for group in before if not Counter(group) & now]


UNSURE_LIMIT = 2
"""The most unsure tiles :func:`check_turn_despite` tries every alternative of (55 to the power of it)."""


def check_turn_despite(before: Sequence[Sequence], after: Sequence[Sequence],
                       unsure: Iterable[tuple[int, int, int]], opened: bool,
                       rules: TileRules = TileRules(), limit: int = UNSURE_LIMIT,
                       same: Iterable[tuple[tuple[int, int, int], tuple[int, int, int]]] = ()) -> TurnCheck | None:
    """The turn's check as the camera sees it (the tiles new on the table are the ones played) when
    it does not hang on the tiles read unsurely: ``unsure`` names each as (photo, group, position),
    photo 0 the table ``before``, 1 ``after``. Each is tried as every tile of the set, a joker and no
    tile at all (an alternative that puts more copies of a tile on a table than the set holds cannot
    be, nor can one that breaks a combination of the table before the turn: that table is valid);
    when every way gives the same verdict, legal or not, that verdict stands as read, else
    ``None``: a player must say what the tile is. ``None`` too for more than ``limit`` unsure tiles,
    and for an unsure tile in a group of fewer than three (a row read apart, a tile missed).
    An illegal verdict keeps the reasons that hold every way (where none does, it says so and
    gives the reasons as read). ``same``: pairs of places, one in each photo, that are one tile
    seen twice (read as two): each pair is tried as one tile, every way in both places at once,
    and counts as one unsure tile.

    A run laid from the rack is legal only as read, so an unsure tile in it must be asked; a turn
    that leaves three tiles which make no combination is illegal whatever a tile read elsewhere is:

    >>> from engine.cards import parse_tiles as t
    >>> before = [t("R1 R2 R3"), t("B5 G5 Y5")]
    >>> check_turn_despite(before, before + [t("G7 G8 G9")], [(1, 2, 1)], opened=True) is None
    True
    >>> check = check_turn_despite(before, before + [t("G7 B9 Y11")], [(1, 0, 1), (0, 1, 2)], opened=True)
    >>> check.legal, check.violations[0]
    (False, 'group 3 (G7 B9 Y11) is not a valid group or run: neither a set (B9 has another rank) nor a run (two suits)')

    A tile the photos read as B7 before and G7 after the turn is one tile either way:

    >>> run = t("B5 B6 B7 B8")
    >>> check_turn_despite([run], [t("B5 B6 G7 B8"), t("G1 G2 G3")], [], opened=True).legal
    False
    >>> check_turn_despite([run], [t("B5 B6 G7 B8"), t("G1 G2 G3")], [], opened=True, same=[((0, 0, 2), (1, 0, 2))]).legal
    True
    """
    tables = [[list(group) for group in before], [list(group) for group in after]]
    same = [tuple(sorted(pair)) for pair in same]
    linked = {place for pair in same for place in pair}
    slots = [(place,) for place in sorted(set(unsure) - linked)] + sorted(set(same))
    unsure = sorted(set(unsure) | linked)
    for photo, group, position in unsure:
        if photo not in (0, 1) or not 0 <= group < len(tables[photo]) or not 0 <= position < len(tables[photo][group]):
            raise TileRuleError(f"no tile at photo {photo}, group {group + 1}, position {position + 1}")

    def judged(table_before, table_after) -> TurnCheck:
        added = Counter(t for g in table_after for t in g) - Counter(t for g in table_before for t in g)
        return check_turn(table_before, table_after, list(added.elements()), opened, rules)

    def holds(table) -> bool:
        tiles = [t for g in table for t in g]
        try:
            check_multiplicity(tiles, list(map(str, tiles)), 2, rules.jokers)
        except DuplicateCardError:
            return False
        return True

    as_read = judged(*tables)
    if not unsure:
        return as_read
    # A group of one or two tiles is likelier a row read apart or a tile missed than a pair laid; with
    # a tile read unsurely in it, the reading itself is in doubt, not just that tile.
    if len(slots) > limit or any(len(tables[photo][group]) < 3 for photo, group, _ in unsure):
        return None
    alternatives = [Tile(c, n) for c in rules.palette.colours for n in range(1, 14)] + [Joker(), None]
    # The table before a turn is valid (it was judged at the end of the turn before): a way that
    # breaks one of its combinations cannot be, nor can a reading of it that does; nor one tile read
    # as two (``same``).
    reference = None if same or broken_groups(tables[0], rules) else as_read
    common = set(reference.violations) if reference else set()
    for tiles in product(alternatives, repeat=len(slots)):
        changed = [[list(group) for group in table] for table in tables]
        for places, tile in zip(slots, tiles):
            for photo, group, position in places:
                changed[photo][group][position] = tile
        changed = [[[t for t in group if t is not None] for group in table] for table in changed]
        changed = [[group for group in table if group] for table in changed]
        if all(map(holds, changed)) and not broken_groups(changed[0], rules):
            check = judged(*changed)
            if reference is None:
                reference, common = check, set(check.violations)
            if check.legal != reference.legal:
                return None
            common &= set(check.violations)
    if reference is None or reference.legal:
        return reference
    # The reasons given are those that hold whatever the unsure tiles are; a reason that names one of
    # them as read may not (each way breaks a rule, not always the same one).
    kept = tuple(v for v in reference.violations if v in common)
    return TurnCheck(False, kept or (f"illegal whatever the {len(unsure)} tile(s) read unsurely are; as read: "
                                     + "; ".join(reference.violations),), reference.opening_points)


def _key(group: Sequence) -> tuple:
    return tuple(sorted(map(str, group)))


def _reason(error: WildMeldError) -> str:
    text = str(error)
    return text.split(": ", 1)[1] if ": " in text else text


def _split_violations(before: Sequence[Sequence], after: Sequence[Sequence]) -> list[str]:
    """002 Umbauen: taking part of a combination leaves at least 3 of its tiles together.

    A combination taken apart completely is fine, and tiles taken may join any others (the
    rulebook's own example: blue 4 and 5 split off blue 1-5 to join a blue 3). What breaks the
    rule is what is left behind: a group made only of 1-2 tiles of one old combination.
    """
    problems = []
    for a_index, group in enumerate(after):
        if not 0 < len(group) < 3:
            continue
        for b_index, old in enumerate(before):
            if len(old) > len(group) and not Counter(group) - Counter(old):
                problems.append(
                    f"{_label(a_index, group)} is what is left of split combination {b_index + 1} "
                    f"({format_cards(old)}): a split must leave at least 3 of its tiles together"
                )
                break
    return problems


def _joker_violations(before: Sequence[Sequence], after: Sequence[Sequence], rules: TileRules) -> list[str]:
    """002: a joker on the table may be used elsewhere only after the tile it stands for replaced it.

    Each old combination with jokers is followed to its home after the turn: a combination left as it
    was is its own home; for the others, the combination holding most of its natural tiles and, among
    those (a table may hold one run twice, once with a joker), the one that accounts for most of its
    jokers, kept there or replaced by the tiles they stood for. A joker kept is claimed by its old
    combination, so two combinations cannot both count it, whatever order the table is read in.
    """
    problems = []
    unclaimed = [sum(isinstance(t, Joker) for t in group) for group in after]
    with_jokers = [(b_index, old) for b_index, old in enumerate(before) if any(isinstance(t, Joker) for t in old)]
    unchanged: dict[tuple, list[int]] = {}
    for a_index, group in enumerate(after):
        unchanged.setdefault(_key(group), []).append(a_index)
    left = []
    for b_index, old in with_jokers:
        if unchanged.get(_key(old)):
            unclaimed[unchanged[_key(old)].pop()] = 0        # its own home, every joker kept
        else:
            left.append((b_index, old))
    for b_index, old in left:
        jokers = sum(isinstance(t, Joker) for t in old)
        try:
            meld = group_of(old, rules)
        except WildMeldError:
            continue
        naturals = Counter(t for t in old if not isinstance(t, Joker))
        stand_ins = _stand_ins(old, meld)

        def accounted(index: int) -> tuple[int, int, int]:
            """Natural tiles shared with ``after[index]``, jokers kept or replaced there, jokers kept."""
            group = after[index]
            kept = min(jokers, unclaimed[index])
            replaced = min(jokers - kept, len(stand_ins.laid(Counter(group) - Counter(old))))
            return sum((Counter(group) & naturals).values()), kept + replaced, kept

        home = max(range(len(after)), key=accounted, default=None)
        covered = 0
        if home is not None:
            _, covered, kept = accounted(home)
            unclaimed[home] -= kept
        if covered < jokers:
            problems.append(
                f"a joker was taken from combination {b_index + 1} ({format_cards(old)}) without putting "
                f"{stand_ins.text} in its place (002: a joker is freed only by the tile it stands for)"
            )
    return problems


@dataclass(frozen=True)
class _StandIns:
    """What may replace the jokers of a combination: the tiles they stand for in a run, a tile of the
    group's number in a colour it lacks in a group; ``text`` names them for a ruling."""

    run_tiles: tuple = ()
    number: int | None = None
    colours: frozenset = frozenset()
    text: str = ""

    def laid(self, added: Counter) -> list:
        """The tiles among ``added`` that may replace one of the jokers."""
        if self.number is not None:
            return [t for t in added.elements()
                    if not isinstance(t, Joker) and t.number == self.number and t.colour not in self.colours]
        return [t for t in added.elements() if t in self.run_tiles]


def _stand_ins(old: Sequence, meld: WildMeld) -> _StandIns:
    if meld.kind == "set":
        number = next(t.number for t in old if not isinstance(t, Joker))
        return _StandIns(number=number, colours=frozenset(t.colour for t in old if not isinstance(t, Joker)),
                         text=f"a {number} of a missing colour")
    run_tiles = tuple(s for p, s in zip(meld.pieces, meld.stands_for) if isinstance(p, Joker))
    return _StandIns(run_tiles=run_tiles, text=" or ".join(str(s) for s in run_tiles))


def _opening(before, after, rack_played, melds, rules: TileRules) -> tuple[int, list[str]]:
    """The first laying out: combinations of the player's own tiles worth >= 40 (joker 25)."""
    problems = []
    rack = Counter(rack_played)
    unchanged = Counter(map(_key, before))
    points = 0
    touched = []
    for index, group in enumerate(after):
        if unchanged[_key(group)]:
            unchanged[_key(group)] -= 1
            continue
        if index in melds and not Counter(group) - rack:
            rack -= Counter(group)
            meld = melds[index]
            for piece, stands in zip(meld.pieces, meld.stands_for):
                if isinstance(piece, Joker):
                    represented = rules.joker_opening_represented and stands is not None
                    points += stands.number if represented else JOKER_POINTS
                else:
                    points += piece.number
        else:
            touched.append((index, group))
    if points < rules.opening_points:
        problems.append(f"the first laying out is worth {points} points; it needs at least "
                        f"{rules.opening_points} from the player's own tiles")
        for index, group in touched:
            problems.append(f"{_label(index, group)} uses tiles from the table: before the first laying out of "
                            f"{rules.opening_points} points nothing may be added to the table's combinations")
    return points, problems


# --- the turn timer and the round end ------------------------------------------------------------


def overrun(after: Sequence[Sequence], rules: TileRules = TileRules()) -> tuple[list[list], list]:
    """Two minutes are up: the valid groups stay, the player takes back every other tile.

    >>> from engine.cards import parse_tiles as t
    >>> table, back = overrun([t("R1 R2 R3"), t("B5 B7")])
    >>> [format_cards(g) for g in table], format_cards(back)
    (['R1 R2 R3'], 'B5 B7')
    """
    table, back = [], []
    for group in after:
        try:
            group_of(group, rules)
            table.append(list(group))
        except WildMeldError:
            back.extend(group)
    return table, back


@dataclass(frozen=True)
class RoundScore:
    points: tuple[int, ...]
    """Plus points for the winner, minus points for the others; all 0 on a draw."""
    draw: bool


def score_round(racks: Sequence[Sequence], winner: int | None) -> RoundScore:
    """Penalties are the tiles left (joker 25); the winner gets their sum. ``winner`` None:
    the stock ran out first and the round is a draw.

    >>> from engine.cards import parse_tiles as t
    >>> score_round([[], t("R5 JK"), t("B13 Y1")], winner=0).points
    (44, -30, -14)
    """
    if winner is None:
        return RoundScore((0,) * len(racks), True)
    if not 0 <= winner < len(racks):
        raise TileRuleError(f"winner {winner} is not one of the {len(racks)} players")
    if racks[winner]:
        raise TileRuleError(f"player {winner} still has {format_cards(racks[winner])}: the winner has laid out every tile")
    penalties = [sum(tile_value(t) for t in rack) for rack in racks]
    total = sum(penalties)
    return RoundScore(tuple(total if p == winner else -n for p, n in enumerate(penalties)), False)


def parse_groups(groups: Iterable, rules: TileRules = TileRules(), what: str = "table") -> list[list]:
    """Parse a list of groups of tile codes (errors name the group)."""
    parsed = []
    for index, group in enumerate(groups):
        if not isinstance(group, (list, str)):
            raise TileRuleError(f"{what} group {index + 1} must be a list of tile codes, got {group!r}")
        try:
            parsed.append(parse_tiles(group, rules.palette, jokers=rules.jokers))
        except CardError as error:
            raise TileRuleError(f"{what} group {index + 1}: {error}") from None
    return parsed

