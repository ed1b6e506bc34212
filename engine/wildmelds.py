"""The meld solver for two decks and jokers (Knock/Wiener Rummy, tile Rummy).

:func:`engine.melds.solver` delegates here when a :class:`~engine.melds.MeldRules` has
``decks > 1`` or ``jokers > 0``; one-deck games without jokers (Gin) keep the table-driven
fast path of :mod:`engine.melds`. Cards and tiles are both "pieces" with a suit (a colour for
tiles) and a rank (a number), so the same solver serves both games:

>>> from engine.cards import parse_cards
>>> from engine.melds import MeldRules, solver
>>> wiener = MeldRules(ace_high=True, decks=2, jokers=2, joker_value=20,
...                    rank_values=(11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10))
>>> solver(wiener).arrange(parse_cards("7H 7H JK JK 9H QS KS AS 5D 5C", decks=2)).describe()
'5D 5C JK | 7H JK 9H | QS KS AS + deadwood 7H = 7'

The joker rule implemented (001 and 002 set no limit): a joker stands for any card in a run
or a set, a meld may hold any number of jokers, and a set holds each suit at most once
(jokers stand for the missing suits, so a set is at most 4 pieces). A meld of jokers only is
a meld too (it needs three jokers, which tile Rummy has and Wiener Rummy does not).

How it works. Sets live at one rank and runs inside one suit, so a dynamic programme walks
the ranks upwards (A low to K, then the ace again on top when aces may be high). Its state
is, for every suit, how many runs are open and of which length (1, 2, or 3 and more), and the
jokers still unused. At each rank it chooses how many natural pieces of each suit go to sets,
how many are deadwood and how many jokers each suit's runs take, and how many jokers go to
sets; the run state then follows: runs of length 1 and 2 must be extended, the long runs are
extended as far as pieces allow (extending never loses against ending and restarting), the
rest start new runs. Sets at a rank are feasible when, with ``m`` sets, no suit has more than
``m`` pieces and the pieces number between ``3m`` and ``4m``. With aces high the aces of a
suit holding a queen or king are tried in every split between the bottom and the top.

Partition mode (tile tables: every piece melded) asks only whether the jokers suffice, so it is a
depth-first search that stops at the first partition, with three cuts that keep tables of up
to 106 tiles fast: a lower bound of the jokers each suit still needs (its runs solved alone,
its set pieces charged the jokers their sets must at least hold), a memo keyed without the
jokers (a state that failed with ``n`` jokers fails with fewer), and dominance (a state fails
where one with a suit's run longer, or one more long run, already failed).

The readable brute force :func:`reference_arrangements` (every partition into melds that
:meth:`WildMeld.of` accepts) is what the property tests compare against.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Iterable, Iterator, Sequence

from engine.cards import JOKER, SUITS, Card, Joker, RAVENSBURGER, Tile, TilePalette, format_cards

INFINITE = 1 << 40
_LONG = 3
"""Run length class "3 or more"."""


class WildMeldError(ValueError):
    """Pieces that do not form a meld (the message says why)."""


# --- reading and making pieces ------------------------------------------------------------


@dataclass(frozen=True)
class PieceKind:
    """How to read a piece as (suit index, rank) and make one back: cards or one tile palette.

    >>> CARD_PIECES.key(Card(12, "H")), CARD_PIECES.make(1, 12)
    ((1, 12), Card('QH'))
    >>> tile_pieces(RAVENSBURGER).make(3, 7)
    Tile('R7')
    """

    suits: str
    tiles: bool

    def key(self, piece: Card | Tile) -> tuple[int, int]:
        if self.tiles:
            if not isinstance(piece, Tile) or piece.colour not in self.suits:
                raise WildMeldError(f"{piece} is not a tile of colours {', '.join(self.suits)}")
            return self.suits.index(piece.colour), piece.number
        if not isinstance(piece, Card):
            raise WildMeldError(f"{piece} is not a playing card")
        return self.suits.index(piece.suit), piece.rank

    def make(self, suit: int, rank: int) -> Card | Tile:
        rank = 1 if rank == 14 else rank
        return Tile(self.suits[suit], rank) if self.tiles else Card(rank, self.suits[suit])


CARD_PIECES = PieceKind(SUITS, tiles=False)


def tile_pieces(palette: TilePalette) -> PieceKind:
    return PieceKind("".join(palette.colours), tiles=True)


# --- melds with jokers ----------------------------------------------------------------------


@dataclass(frozen=True)
class WildMeld:
    """A meld that may hold jokers: ``pieces`` in table order (runs from the low end),
    ``stands_for`` the natural piece at each place (a joker's meaning; None where a joker of a
    set or an all-joker meld may stand for several pieces).

    >>> from engine.cards import parse_cards
    >>> m = WildMeld.of(parse_cards("9H JK 7H", decks=2), ace_high=True)
    >>> m.kind, str(m), m.stands_for[1]
    ('run', '7H JK 9H', Card('8H'))
    >>> WildMeld.of(parse_cards("KS AS 2S")) # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.wildmelds.WildMeldError: KS AS 2S: not a run: ... (never round the corner)
    """

    kind: str
    pieces: tuple[Card | Tile | Joker, ...]
    stands_for: tuple[Card | Tile | None, ...]

    @classmethod
    def of(cls, pieces: Iterable, ace_high: bool = False, kind_of: PieceKind = CARD_PIECES,
           ordered: bool = False) -> "WildMeld":
        """Check ``pieces`` form a set or a run; a run is returned from its low end.

        With ``ordered`` the pieces are as they lie on the table: a run's jokers keep the
        places they have (``R5 JK R7`` means the joker is R6; ``R5 R6 JK`` means R7).
        """
        pieces = tuple(pieces)
        label = format_cards(pieces) or "(nothing)"
        if len(pieces) < 3:
            raise WildMeldError(f"{label}: a meld needs at least 3 pieces, this has {len(pieces)}")
        naturals = [p for p in pieces if not isinstance(p, Joker)]
        keys = [kind_of.key(p) for p in naturals]
        if not naturals:
            if len(pieces) > 13:
                raise WildMeldError(f"{label}: a run is at most 13 long")
            return cls("set" if len(pieces) <= 4 else "run", pieces, (None,) * len(pieces))
        ranks = {r for _, r in keys}
        suits = {s for s, _ in keys}
        if len(ranks) == 1:
            problem = cls._set_problem(pieces, keys)
            if problem is None:
                order = sorted(naturals, key=kind_of.key) + [JOKER] * (len(pieces) - len(naturals))
                return cls("set", tuple(order), tuple(None if isinstance(p, Joker) else p for p in order))
            if len(naturals) > 1 or len(pieces) > 13:
                raise WildMeldError(f"{label}: not a set: {problem}")
        if len(suits) != 1:
            odd = next(p for p, k in zip(naturals, keys) if k[1] != keys[0][1])
            raise WildMeldError(f"{label}: neither a set ({odd} has another rank) nor a run (two suits)")
        suit = keys[0][0]
        for low in cls._run_starts(pieces, keys, ace_high, ordered):
            places = list(range(low, low + len(pieces)))
            wanted = [kind_of.make(suit, r) for r in places]
            layout = cls._lay_out(pieces, wanted, ordered)
            if layout is not None:
                return cls("run", layout, tuple(wanted))
        raise WildMeldError(
            f"{label}: not a run: the ranks do not fit one sequence of {len(pieces)} within "
            f"A..{'K-A' if ace_high else 'K'} (never round the corner)"
        )

    @staticmethod
    def _set_problem(pieces: tuple, keys: list[tuple[int, int]]) -> str | None:
        suits = Counter(s for s, _ in keys)
        twice = [s for s, n in suits.items() if n > 1]
        if twice:
            return "a suit appears twice"
        if len(pieces) > 4:
            return f"a set has at most 4 pieces, this has {len(pieces)}"
        return None

    @staticmethod
    def _run_starts(pieces: tuple, keys: list[tuple[int, int]], ace_high: bool, ordered: bool) -> Iterator[int]:
        n = len(pieces)
        if ordered:
            for index, piece in enumerate(pieces):
                if not isinstance(piece, Joker):
                    rank = piece.number if isinstance(piece, Tile) else piece.rank
                    yield from (start for start in (rank - index, rank - index + 13 * (rank == 1))
                                if start >= 1 and start + n - 1 <= (14 if ace_high else 13))
                    return
        top = 14 if ace_high else 13
        # Lowest window first, so that a run with spare jokers reads them above its naturals.
        for low in range(1, top - n + 2):
            yield low

    @staticmethod
    def _lay_out(pieces: tuple, wanted: list, ordered: bool) -> tuple | None:
        """The pieces arranged along ``wanted`` (jokers in the gaps), or None if they do not fit."""
        if ordered:
            ok = all(isinstance(p, Joker) or p == w for p, w in zip(pieces, wanted))
            return pieces if ok else None
        left = Counter(p for p in pieces if not isinstance(p, Joker))
        jokers = len(pieces) - sum(left.values())
        layout = []
        for w in wanted:
            if left[w]:
                left[w] -= 1
                layout.append(w)
            else:
                layout.append(JOKER)
                jokers -= 1
        return tuple(layout) if jokers == 0 and not +left else None

    def __str__(self) -> str:
        return format_cards(self.pieces)

    def __repr__(self) -> str:
        return f"WildMeld({self.kind!r}, '{self}')"

    def codes(self) -> list[str]:
        return [str(p) for p in self.pieces]

    @property
    def jokers(self) -> int:
        return sum(isinstance(p, Joker) for p in self.pieces)


@dataclass(frozen=True)
class WildArrangement:
    """Melds (with jokers) and deadwood pieces of a hand or table."""

    melds: tuple[WildMeld, ...]
    deadwood_cards: tuple
    deadwood: int

    def describe(self) -> str:
        melds = " | ".join(str(m) for m in self.melds) or "no melds"
        return f"{melds} + deadwood {format_cards(self.deadwood_cards) or 'none'} = {self.deadwood}"

    def melded_cards(self) -> list:
        return [p for meld in self.melds for p in meld.pieces]


# --- the dynamic programme ---------------------------------------------------------------

SuitState = tuple[int, int, int]
"""Open runs of one suit: (of length 1, of length 2, of length 3 or more)."""


@lru_cache(maxsize=1 << 16)
def _suit_options(state: SuitState, held: int, jokers: int, deadwood_ok: bool, next_held: int, after_held: int,
                  last: bool) -> tuple:
    """The choices for one suit at one place: (jokers into runs, naturals to sets, naturals dead,
    new state, runs that make room, jokers spent now and owed at the next two places).

    Choices whose new short runs cannot be continued at the next places are dropped. Long
    runs beyond what the next place can extend are closed here (extending is optional).

    Partition mode (no deadwood) keeps jokers canonical: a joker only continues an open run
    (a leading joker can always move to the run's top end instead), except that runs still
    short at the top place are completed downwards by jokers (``JK Q K``). The runs that make
    room for spare jokers are (started, long ones ended, ones ended at the next place); see
    :func:`_room_gained`. The choices do not depend on the place, so they are cached across it.
    """
    one, two, long = state
    must = one + two
    options = []
    for dead in range(held + 1 if deadwood_ok else 1):
        for used in range(jokers + 1):
            spare_jokers = jokers - used
            for to_sets in range(held - dead + 1):
                pieces = held - dead - to_sets + used
                if pieces < must:
                    continue
                if not deadwood_ok:
                    # Canonical jokers: fill what the short runs lack, or bridge a gap of a
                    # long run towards a natural piece at the next place.
                    deficit = max(0, must - (held - to_sets))
                    if used < deficit or used - deficit > min(long, next_held):
                        continue
                spare = pieces - must
                extended = min(spare, long)
                started = spare - extended
                if last:
                    completion = 2 * started + one if not deadwood_ok else 0
                    if (deadwood_ok and started + one) or completion > spare_jokers:
                        continue
                    kept = two + extended
                elif started + one > next_held + spare_jokers or started > after_held + spare_jokers:
                    continue
                elif deadwood_ok:
                    kept = min(two + extended, next_held + spare_jokers)
                else:
                    # Long runs go on only with a natural piece or a one-joker bridge to one.
                    kept = min(two + extended, next_held + min(spare_jokers, after_held))
                owed = 0
                if not deadwood_ok and not last:
                    # Jokers this suit must still spend at the next two places: a lower bound.
                    owed = max(0, started + one - next_held) + max(0, started - after_held)
                options.append((used, to_sets, dead, (started, one, kept), (started, long - extended, two + extended - kept),
                                used + owed))
    return tuple(options)


def _room_gained(option: tuple, place: int) -> int:
    """How many spare jokers (capped at 2) the runs of a :func:`_suit_options` choice at
    ``place`` could take: below the runs it starts, above the runs it ends."""
    started, ended_long, ended_next = option[4]
    return min(2, started * place + ended_long * (13 - place) + ended_next * (12 - place))


def clear_caches() -> None:
    """Forget the per-suit choices cached across calls (for benchmarks that time cold runs)."""
    _suit_options.cache_clear()
    _partition_options.cache_clear()


def _set_jokers(naturals: int, widest: int) -> tuple[int, int] | None:
    """Fewest jokers completing ``naturals`` set pieces (at most ``widest`` of a suit) into sets,
    and the room left in those sets; None if impossible without more sets than needed."""
    if naturals == 0:
        return 0, 0
    count = max(widest, (naturals + 3) // 4)
    jokers = max(0, 3 * count - naturals)
    return jokers, 4 * count - naturals - jokers


def _sets_fit(naturals: int, widest: int, jokers: int) -> bool:
    """Can ``naturals`` pieces (at most ``widest`` of one suit) plus ``jokers`` form sets of 3-4?"""
    total = naturals + jokers
    if total == 0:
        return True
    most = total // 3
    return most >= 1 and most >= widest and (total + 3) // 4 <= most


@dataclass(frozen=True)
class Plan:
    """What the programme decided at each place, per suit: (jokers to runs, to sets, dead), and set jokers."""

    cost: int
    steps: tuple[tuple[tuple[tuple[int, int, int], ...], int], ...]
    spare_jokers: int
    """Jokers no meld needed: deadwood, or (partition mode) added to melds with room."""
    held: tuple[tuple[int, ...], ...]
    """The natural pieces counted at each place, per suit (the programme's input)."""
    partition: bool


def solve_counts(counts: Sequence[Sequence[int]], jokers: int, values: Sequence[int], joker_value: int,
                 deadwood_ok: bool = True, sets_at: Sequence[bool] | None = None) -> Plan | None:
    """Minimum deadwood of a multiset given as ``counts[rank_place][suit]``.

    ``values[place]`` is the deadwood value of a piece at that place; unused jokers cost
    ``joker_value``. Without ``deadwood_ok`` every piece must be melded (None if impossible).

    >>> counts = [[0, 0, 0, 0] for _ in range(13)]
    >>> for place in (4, 5, 6): counts[place][0] = 1
    >>> solve_counts(counts, 1, range(1, 14), 25, deadwood_ok=False).cost
    0
    """
    places = len(counts)
    sets_at = sets_at if sets_at is not None else [True] * places
    if not deadwood_ok:
        plan = _solve_partition(counts, jokers, sets_at, track_room=False)
        if plan is None or plan.spare_jokers == 0 or plan.spare_jokers >= 3 or _room(plan) >= plan.spare_jokers:
            return plan
        # That partition has no room for its 1-2 spare jokers: search again, counting room.
        return _solve_partition(counts, jokers, sets_at, track_room=True)
    return _solve(counts, jokers, values, joker_value, sets_at)


def _solve(counts: Sequence[Sequence[int]], jokers: int, values: Sequence[int], joker_value: int,
           sets_at: Sequence[bool]) -> Plan:
    """Minimum deadwood (hands: Wiener Rummy), by a memoised search over the places."""
    places = len(counts)
    memo: dict = {}

    def best(place: int, state: tuple, left: int) -> int:
        if place == places:
            return left * joker_value
        key = (place, state, left)
        if key in memo:
            return memo[key][0]
        held = counts[place]
        nxt = counts[place + 1] if place + 1 < places else (0, 0, 0, 0)
        after = counts[place + 2] if place + 2 < places else (0, 0, 0, 0)
        last = place + 1 == places
        value = values[place]
        options = [_suit_options(state[s], held[s], left, True, nxt[s], after[s], last) for s in range(4)]
        found, choice = INFINITE, None
        for o0 in options[0]:
            j0 = o0[0]
            for o1 in options[1]:
                j1 = j0 + o1[0]
                if j1 > left:
                    continue
                for o2 in options[2]:
                    j2 = j1 + o2[0]
                    if j2 > left:
                        continue
                    for o3 in options[3]:
                        j3 = j2 + o3[0]
                        if j3 > left:
                            continue
                        naturals = o0[1] + o1[1] + o2[1] + o3[1]
                        widest = max(o0[1], o1[1], o2[1], o3[1])
                        new_state = (o0[3], o1[3], o2[3], o3[3])
                        dead = (o0[2] + o1[2] + o2[2] + o3[2]) * value
                        if dead >= found:
                            continue
                        for set_jokers in range(left - j3 + 1):
                            if not sets_at[place] and naturals + set_jokers:
                                break
                            if not _sets_fit(naturals, widest, set_jokers):
                                continue
                            cost = dead + best(place + 1, new_state, left - j3 - set_jokers)
                            if cost < found:
                                found, choice = cost, ((o0, o1, o2, o3), set_jokers)
                                if found == 0:
                                    memo[key] = (found, choice)
                                    return found
        memo[key] = (found, choice)
        return found

    start = ((0, 0, 0),) * 4
    cost = best(0, start, jokers)
    steps = []
    state, left = start, jokers
    for place in range(places):
        options, set_jokers = memo[(place, state, left)][1]
        steps.append((tuple(o[:3] for o in options), set_jokers))
        left -= sum(o[0] for o in options) + set_jokers
        state = tuple(o[3] for o in options)
    return Plan(cost, tuple(steps), left, tuple(tuple(c) for c in counts), False)


@lru_cache(maxsize=1 << 16)
def _partition_options(state: SuitState, held: int, jokers: int, next_held: int, after_held: int,
                       last: bool) -> tuple[tuple, ...]:
    """The partition-mode :func:`_suit_options` of one suit at one place, grouped by how many
    naturals go to sets (index 0..held)."""
    groups: list[list] = [[] for _ in range(held + 1)]
    for option in _suit_options(state, held, jokers, False, next_held, after_held, last):
        groups[option[1]].append(option)
    return tuple(map(tuple, groups))


def _set_splits(held: Sequence[int], jokers: int, sets_allowed: bool) -> dict[tuple[int, ...], tuple[int, int]]:
    """The ways to send naturals of one place to sets: per suit count -> (jokers the sets need, room left).

    >>> _set_splits((1, 1, 0, 0), jokers=1, sets_allowed=True)  # 2 naturals + 1 joker: a set with room for 1
    {(0, 0, 0, 0): (0, 0), (1, 1, 0, 0): (1, 1)}
    """
    splits = {}
    for split in itertools.product(*(range(h + 1) for h in held)):
        naturals = sum(split)
        if naturals and not sets_allowed:
            continue
        set_jokers, room = _set_jokers(naturals, max(split))
        if set_jokers <= jokers:
            splits[split] = (set_jokers, room)
    return splits


_SIXTHS = 6
"""The joker lower bound counts in sixths of a joker: a set piece at a number held in two
colours costs at least half a joker (the third piece of its set), in one colour two jokers."""


def _joker_bounds(rows: Sequence[Sequence[int]], places: int, jokers: int, sets_at: Sequence[bool]) -> list:
    """Per suit, a function (place, suit state) -> at least how many jokers (in sixths) that
    suit's runs and set pieces need from that place on.

    Each suit alone: its runs are solved exactly (jokers in runs cost one each), its pieces may
    go to sets at the share of the set's jokers they must at least carry, given how many colours
    the number has at all: n pieces from c colours fill at least n/c sets, which lack at least
    (3 - c) n / c pieces. The suits' bounds add up to a lower bound of the jokers the whole
    table needs, so a state whose bound exceeds the jokers left cannot succeed.
    """
    charges = []
    for place in range(places):
        colours = sum(1 for n in rows[place] if n)
        charges.append(_SIXTHS * max(0, 3 - colours) // max(colours, 1) if sets_at[place] else INFINITE)
    def bound_of(suit: int):
        memo: dict = {}

        def need(place: int, state: SuitState) -> int:
            if place == places:
                return _SIXTHS * (2 * state[0] + state[1])
            key = (place, state)
            if key not in memo:
                memo[key] = min((_SIXTHS * o[0] + charges[place] * o[1] + need(place + 1, o[3])
                                 for o in _suit_options(state, rows[place][suit], jokers, False, rows[place + 1][suit],
                                                        rows[place + 2][suit], place + 1 == places)),
                                default=INFINITE)
            return memo[key]

        return need

    return [bound_of(suit) for suit in range(4)]


def _stronger(state: SuitState) -> tuple[SuitState, ...]:
    """The suit states one step better than ``state``: a run longer (1 to 2, 1 or 2 to 3+) or
    one more long run. Whatever completes ``state`` completes them (a long run may end at any
    time or take what a shorter one would), so where they fail, ``state`` fails too.

    >>> _stronger((1, 0, 0))
    ((1, 0, 1), (0, 1, 0), (0, 0, 1))
    """
    one, two, long = state
    better = [(one, two, long + 1)]
    if one:
        better += [(one - 1, two + 1, long), (one - 1, two, long + 1)]
    if two:
        better.append((one, two - 1, long + 1))
    return tuple(better)


_STRONGER = {state: _stronger(state) for state in itertools.product(range(8), repeat=3)}


_ANY_RUNS = ((0, 0, 2),) * 4
"""Open runs that no state at a place is stronger than: two long runs in every suit."""


def _dominated_failure(failed: dict, place: int, state: tuple, left: int) -> bool:
    """Has a state one step stronger in one suit failed with at least ``left`` jokers?"""
    for suit, own in enumerate(state):
        head, tail = state[:suit], state[suit + 1:]
        for better in _STRONGER[own]:
            if failed.get((place, head + (better,) + tail), -1) >= left:
                return True
    return False


def _solve_partition(counts: Sequence[Sequence[int]], jokers: int, sets_at: Sequence[bool],
                     track_room: bool) -> Plan | None:
    """A partition of every piece into melds, or None: a depth-first search over the places
    that stops at the first partition found.

    Which states fail or succeed is remembered per (place, open runs). Without ``track_room``
    more jokers never hurt (spare ones go to melds with room), so a state that failed with
    ``left`` jokers fails with fewer and one that succeeded succeeds with more: the memo keeps
    the most jokers it failed with and the fewest it succeeded with. Counting room, the exact
    joker count matters and is part of the key.

    At each place only the set splits that can form sets (:func:`_set_splits`) are combined
    with the suits' run choices for those splits. Each run choice carries a lower bound of the
    jokers it spends now and its suit needs later (:func:`_joker_bounds`); combinations are
    tried cheapest bound first and cut off as soon as the bounds exceed the jokers left.
    """
    places = len(counts)
    rows = [tuple(row) for row in counts] + [(0, 0, 0, 0)] * 2
    splits = [_set_splits(rows[place], jokers, sets_at[place]) for place in range(places)]
    bounds = _joker_bounds(rows, places, jokers, sets_at)
    ranked_memo: dict = {}
    failed: dict = {}   # key -> the most jokers it failed with
    solved: dict = {}   # key -> (the fewest jokers it succeeded with, the choice made)
    failed_get = failed.get

    def ranked(suit: int, place: int, state: SuitState) -> tuple:
        """The suit's run choices as (set count, bound, choices): each choice as (bound, choice),
        bounds in sixths of a joker, cheapest first."""
        key = (suit, place, state)
        if key not in ranked_memo:
            need = bounds[suit]
            # All the jokers, not just those left: the bounds drop what the jokers left cannot pay.
            groups = _partition_options(state, rows[place][suit], jokers, rows[place + 1][suit], rows[place + 2][suit],
                                        place + 1 == places)
            choices = [(to_sets, sorted(((_SIXTHS * o[0] + need(place + 1, o[3]), o) for o in group), key=itemgetter(0)))
                       for to_sets, group in enumerate(groups) if group]
            ranked_memo[key] = tuple(sorted(((a, group[0][0], tuple(group)) for a, group in choices), key=itemgetter(1)))
        return ranked_memo[key]

    def feasible(place: int, state: tuple, left: int, room: int) -> bool:
        if place == places:
            completion = sum(2 * s[0] + s[1] for s in state)
            spare = left - completion
            return spare >= 0 and (spare == 0 or spare >= 3 or spare <= room or completion > 0)
        if left < still_needed[place]:
            return False
        key = (place, state, left, room) if track_room else (place, state)
        if left <= failed.get(key, -1):
            return False
        won = solved.get(key)
        if won is not None and left >= won[0]:
            return True
        if not track_room and _dominated_failure(failed, place, state, left):
            failed[key] = left
            return False
        r0, r1, r2, r3 = (ranked(s, place, state[s]) for s in range(4))
        sixths = _SIXTHS * left
        here = splits[place]
        tries = []
        for a0, m0, l0 in r0:
            for a1, m1, l1 in r1:
                m01 = m0 + m1
                if m01 > sixths:
                    break
                for a2, m2, l2 in r2:
                    m012 = m01 + m2
                    if m012 > sixths:
                        break
                    for a3, m3, l3 in r3:
                        if m012 + m3 > sixths:
                            break
                        split = here.get((a0, a1, a2, a3))
                        if split is not None:
                            floor = _SIXTHS * split[0] + m012 + m3
                            if floor <= sixths:
                                tries.append((floor, l0, l1, l2, l3, split[0], split[1]))
        tries.sort(key=itemgetter(0))
        for _, l0, l1, l2, l3, set_jokers, set_room in tries:
            budget = sixths - _SIXTHS * set_jokers
            rest1 = l1[0][0] + l2[0][0] + l3[0][0]
            rest2 = l2[0][0] + l3[0][0]
            rest3 = l3[0][0]
            for c0, o0 in l0:
                if c0 + rest1 > budget:
                    break
                for c1, o1 in l1:
                    n1 = c0 + c1
                    if n1 + rest2 > budget:
                        break
                    for c2, o2 in l2:
                        n2 = n1 + c2
                        if n2 + rest3 > budget:
                            break
                        for c3, o3 in l3:
                            if n2 + c3 > budget:
                                break
                            child = (o0[3], o1[3], o2[3], o3[3])
                            child_left = left - set_jokers - o0[0] - o1[0] - o2[0] - o3[0]
                            if track_room:
                                gained = min(2, room + set_room + sum(_room_gained(o, place) for o in (o0, o1, o2, o3)))
                            elif child_left < still_needed[place + 1] or child_left <= failed_get((place + 1, child), -1):
                                continue  # known to fail: skip the call
                            else:
                                gained = room
                            if feasible(place + 1, child, child_left, gained):
                                solved[key] = (left, ((o0, o1, o2, o3), set_jokers, set_room))
                                return True
        failed[key] = left
        return False

    still_needed = [0] * (places + 1)   # jokers that every state at a place needs from there on
    start = ((0, 0, 0),) * 4
    room = 0 if track_room else 2
    if not track_room:
        # From the top down: the jokers the numbers from ``place`` up need whatever runs come
        # in from below (two long runs per suit, the strongest state there is). Sparse tops are
        # cheap to settle, and a table whose top alone lacks jokers is rejected at once.
        for place in range(places - 1, 0, -1):
            need = still_needed[place + 1]
            while need <= jokers and not feasible(place, _ANY_RUNS, need, room):
                need += 1
            if need > jokers:
                return None
            still_needed[place] = need
    if not feasible(0, start, jokers, room):
        return None
    steps = []
    state, left = start, jokers
    for place in range(places):
        options, set_jokers, set_room = solved[(place, state, left, room) if track_room else (place, state)][1]
        steps.append((tuple(o[:3] for o in options), set_jokers))
        left -= sum(o[0] for o in options) + set_jokers
        state = tuple(o[3] for o in options)
        if track_room:
            room = min(2, room + set_room + sum(_room_gained(o, place) for o in options))
    left -= sum(2 * s[0] + s[1] for s in state)
    return Plan(0, tuple(steps), left, tuple(tuple(c) for c in counts), True)


def _room(plan: Plan) -> int:
    """How many spare jokers the melds of a partition plan can take (capped at 2)."""
    melds, _ = plan_melds(Plan(0, plan.steps, 0, plan.held, True), CARD_PIECES)
    room = 0
    for meld in melds:
        if meld.kind == "set":
            room += 4 - len(meld.pieces)
        else:
            room += 13 - len(meld.pieces)
    return min(room, 2)


def plan_melds(plan: Plan, kind_of: PieceKind) -> tuple[list[WildMeld], list]:
    """Turn a :class:`Plan` into melds (jokers written as jokers) and the dead natural pieces.

    In partition mode the spare jokers join melds with room (or form a meld of their own).
    """
    open_runs: list[list[list]] = [[] for _ in range(4)]   # per suit: runs as lists of [rank, piece]
    runs: list[tuple[int, list]] = []                      # finished: (suit, run)
    sets: list[list] = []
    dead: list = []
    for place, (per_suit, set_jokers) in enumerate(plan.steps):
        rank = place + 1
        set_pieces: list[list] = []
        for suit, (used, to_sets, dead_here) in enumerate(per_suit):
            natural = kind_of.make(suit, rank)
            dead.extend([natural] * dead_here)
            set_pieces.append([natural] * to_sets)
            in_runs = [natural] * (plan.held[place][suit] - dead_here - to_sets) + [JOKER] * used
            short = [r for r in open_runs[suit] if len(r) < _LONG]
            long = [r for r in open_runs[suit] if len(r) >= _LONG]
            continuing = short + long[: max(0, len(in_runs) - len(short))]
            runs.extend((suit, r) for r in long[len(continuing) - len(short):])
            for run, piece in zip(continuing, in_runs):
                run.append([rank, piece])
            open_runs[suit] = continuing + [[[rank, piece]] for piece in in_runs[len(continuing):]]
        sets.extend(_deal_sets(set_pieces, set_jokers))
    for suit, still_open in enumerate(open_runs):
        for run in still_open:
            while len(run) < _LONG:  # short at the top: complete downwards (JK Q K)
                run.insert(0, [run[0][0] - 1, JOKER])
            runs.append((suit, run))
    spare = plan.spare_jokers if plan.partition else 0
    extra: list[list] = [[JOKER] * spare] if spare >= 3 else []
    for _ in range(spare if spare < 3 else 0):
        roomy_run = next(((suit, run) for suit, run in runs if run[-1][0] < 13 or run[0][0] > 1), None)
        if roomy_run is not None:
            run = roomy_run[1]
            if run[-1][0] < 13:
                run.append([run[-1][0] + 1, JOKER])
            else:
                run.insert(0, [run[0][0] - 1, JOKER])
        else:
            next(group for group in sets if len(group) < 4).append(JOKER)
    melds = [WildMeld("set", tuple(g), tuple(None if isinstance(p, Joker) else p for p in g)) for g in sets]
    melds += [WildMeld("run", tuple(p for _, p in run), tuple(kind_of.make(suit, r) for r, _ in run)) for suit, run in runs]
    melds += [WildMeld("run" if len(g) > 4 else "set", tuple(g), (None,) * len(g)) for g in extra]
    melds.sort(key=lambda m: (m.kind != "set", [kind_of.key(p)[::-1] if p is not None else (99, 99) for p in m.stands_for[:1]]))
    return melds, dead


def _deal_sets(per_suit: list[list], jokers: int) -> list[list]:
    """Deal a rank's set pieces into sets of 3-4 with distinct suits (round robin), jokers last."""
    naturals = [p for pieces in per_suit for p in pieces]
    total = len(naturals) + jokers
    if not total:
        return []
    count = max(max(len(p) for p in per_suit), (total + 3) // 4)
    groups: list[list] = [[] for _ in range(count)]
    for slot, piece in enumerate(naturals):
        groups[slot % count].append(piece)
    for _ in range(jokers):
        min(groups, key=len).append(JOKER)
    return groups


# --- the solver object -------------------------------------------------------------------


class WildSolver:
    """Minimum deadwood and partitions for two-deck games with jokers; get one with
    :func:`engine.melds.solver` (cards) or build one for tiles with ``kind_of``.

    ``rules`` is a :class:`engine.melds.MeldRules` (``decks``, ``jokers``, ``joker_value``,
    ``ace_high``, ``rank_values``).
    """

    def __init__(self, rules, kind_of: PieceKind = CARD_PIECES) -> None:
        if rules.round_the_corner or rules.max_run_length is not None:
            raise WildMeldError("the two-deck/joker solver plays runs without wrapping and without a length limit")
        self.rules = rules
        self.kind_of = kind_of
        self.places = 14 if rules.ace_high else 13
        values = list(rules.rank_values) + [rules.rank_values[0]]
        self.values = values[: self.places]
        self.sets_at = [True] * 13 + [False] * (self.places - 13)

    # input ---------------------------------------------------------------------------------

    def count(self, pieces: Sequence) -> tuple[list[list[int]], int]:
        """Per-rank, per-suit counts of the natural pieces and the number of jokers.

        Raises :class:`WildMeldError` naming a piece held more often than the game has it.
        """
        counts = [[0, 0, 0, 0] for _ in range(self.places)]
        jokers = 0
        for piece in pieces:
            if isinstance(piece, Joker):
                jokers += 1
                if jokers > self.rules.jokers:
                    raise WildMeldError(f"{jokers} jokers, but the game has {self.rules.jokers}")
                continue
            suit, rank = self.kind_of.key(piece)
            counts[rank - 1][suit] += 1
            if counts[rank - 1][suit] > self.rules.decks:
                raise WildMeldError(f"{piece} appears {counts[rank - 1][suit]} times, but the game has it {self.rules.decks} times")
        if self.rules.ace_high and len(pieces) > 13:
            raise WildMeldError(f"{len(pieces)} pieces: with aces high the solver takes at most 13 (a hand)")
        return counts, jokers

    def _ace_splits(self, counts: list[list[int]], jokers: int) -> Iterator[list[list[int]]]:
        """The counts with each suit's aces split between low and high (suits holding a card
        the jokers can join to a high ace: Q or K, or lower with jokers in between)."""
        if self.places == 13:
            yield counts
            return
        near_top = range(max(1, 12 - jokers), 13)
        ranges = [range(counts[0][s] + 1) if counts[0][s] and any(counts[r][s] for r in near_top) else range(1)
                  for s in range(4)]
        for high in itertools.product(*ranges):
            split = [row[:] for row in counts]
            for s, n in enumerate(high):
                split[0][s] -= n
                split[13][s] = n
            yield split

    def plan(self, pieces: Sequence, deadwood_ok: bool = True) -> Plan | None:
        counts, jokers = self.count(pieces)
        best = None
        for split in self._ace_splits(counts, jokers):
            plan = solve_counts(split, jokers, self.values, self.rules.joker_value, deadwood_ok, self.sets_at)
            if plan is not None and (best is None or plan.cost < best.cost):
                best = plan
                if best.cost == 0:
                    break
        return best

    # answers -------------------------------------------------------------------------------

    def min_deadwood(self, pieces: Sequence) -> int:
        return self.plan(pieces).cost

    def _arrangement(self, plan: Plan) -> WildArrangement:
        melds, dead = plan_melds(plan, self.kind_of)
        dead = dead + [JOKER] * (0 if plan.partition else plan.spare_jokers)
        return WildArrangement(tuple(melds), tuple(dead), plan.cost)

    def arrange(self, pieces: Sequence) -> WildArrangement:
        """One arrangement with minimum deadwood (sets and runs in rank order)."""
        return self._arrangement(self.plan(pieces))

    def partition(self, pieces: Sequence) -> WildArrangement | None:
        """Melds covering every piece, or None if there are none."""
        plan = self.plan(pieces, deadwood_ok=False)
        return None if plan is None else self._arrangement(plan)

    def discards(self, pieces: Sequence):
        """For a hand after drawing: the deadwood left by each discard and the best discards."""
        from engine.melds import DiscardChoice

        pieces = list(pieces)
        after = []
        tried: dict = {}
        for i, piece in enumerate(pieces):
            if piece not in tried:
                tried[piece] = self.min_deadwood(pieces[:i] + pieces[i + 1:])
            after.append((piece, tried[piece]))
        best = min(deadwood for _, deadwood in after)
        best_discards = tuple(dict.fromkeys(piece for piece, deadwood in after if deadwood == best))
        kept = list(pieces)
        kept.remove(best_discards[0])
        return DiscardChoice(best, best_discards, self.arrange(kept), tuple(after))

    def value(self, piece) -> int:
        if isinstance(piece, Joker):
            return self.rules.joker_value
        return self.rules.rank_values[self.kind_of.key(piece)[1] - 1]


# --- the readable brute force -------------------------------------------------------------


def reference_arrangements(pieces: Sequence, rules, kind_of: PieceKind = CARD_PIECES) -> Iterator[WildArrangement]:
    """Every partition of ``pieces`` into melds :meth:`WildMeld.of` accepts, plus deadwood.

    Exhaustive and slow on purpose: the reference for the dynamic programme (small hands only).
    """
    pieces = sorted(pieces, key=lambda p: (isinstance(p, Joker), str(p)))
    value = WildSolver(rules, kind_of).value
    candidates: list[tuple[frozenset[int], WildMeld]] = []
    for size in range(3, len(pieces) + 1):
        for chosen in itertools.combinations(range(len(pieces)), size):
            try:
                meld = WildMeld.of([pieces[i] for i in chosen], rules.ace_high, kind_of)
            except WildMeldError:
                continue
            candidates.append((frozenset(chosen), meld))

    def extend(i: int, used: frozenset[int], melds: tuple) -> Iterator[WildArrangement]:
        while i < len(pieces) and i in used:
            i += 1
        if i == len(pieces):
            loose = tuple(pieces[k] for k in range(len(pieces)) if k not in melded(melds))
            yield WildArrangement(tuple(m for _, m in melds), loose, sum(value(p) for p in loose))
            return
        yield from extend(i + 1, used | {i}, melds)  # piece i is deadwood
        for chosen, meld in candidates:
            if min(chosen) == i and used.isdisjoint(chosen):
                yield from extend(i + 1, used | chosen, melds + ((chosen, meld),))

    def melded(melds: tuple) -> set[int]:
        return {k for chosen, _ in melds for k in chosen}

    yield from extend(0, frozenset(), ())


def reference_min_deadwood(pieces: Sequence, rules, kind_of: PieceKind = CARD_PIECES) -> int:
    """Minimum deadwood by brute force over :func:`reference_arrangements`."""
    return min(a.deadwood for a in reference_arrangements(pieces, rules, kind_of))
