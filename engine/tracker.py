"""The table tracker: from per-frame card sightings to a trustworthy sequence of Gin events.

The camera side (recognizer, calibration, :mod:`vision.motion`) turns every frame into
:class:`Sighting` values in table coordinates plus one flag: is the table still? The tracker
holds a stable picture of the table and commits a change only when the table has been still
for ``window`` frames and each card was read (or not read) in at least ``quorum`` of them.

What it commits is a game event (:class:`Event`): a discard and by whom (turn order), a pickup
of the discard (the card under it reappears), a stock draw (inferred: the player discarded
without picking up), a knock (a face-down card on the discard pile, or a button), each player's
layout with the melds as the player grouped them (cards lying together are one meld), layoffs,
and the end of the hand with the engine's result, or no game when the stock is down to two.

It never guesses: a card read with low confidence, or read where the rules say it cannot be,
becomes a ``needs_confirmation`` event with the candidates, and nothing is committed until
:meth:`GinTracker.confirm` answers it. So does a card the camera sees lying there but cannot
read (:data:`UNREAD`, placed by :mod:`vision.presence`): the question points at its place. Rule breaks that are real (an illegal meld, 11 cards laid
down, a knock over the limit) become ``flagged`` events carrying the §14 ruling
(:mod:`engine.irregularities`) where the rulebook has one.

>>> from engine.zones import default_zones
>>> zones = default_zones("gin", players=2)
>>> t = GinTracker(("Anna", "Ben"), dealer="Ben", zones=zones, options=TrackerOptions(window=2, quorum=2))
>>> discard = zones.named("discard").centre
>>> seen = [Sighting("7H", 0.97, *discard, zone="discard")]
>>> t.update(1, seen, still=False) + t.update(2, seen, still=True)
[]
>>> [e.describe() for e in t.update(3, seen, still=True)]
['#1 discard Anna 7H (stock 31)']
"""

from __future__ import annotations

import itertools
import math
from statistics import median
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Literal, Sequence

from engine.cards import ALL_CARDS, Card, CardParseError, parse_card
from engine.dealing import StockEnd, stock_end
from engine.gin import (
    GinError, HandResult, IllegalKnockError, Layoff, LayoffOutcome, best_layoffs, knock_limit, meld_rules, score, settle_hand,
)
from engine.irregularities import (
    Ruling, illegal_knock, knock_with_wrong_count, opponent_over_at_knock, opponent_short_at_knock,
)
from engine.match import HandScore
from engine.melds import Arrangement, Meld, MeldError, arrangement_of, min_deadwood, solver
from engine.rules import GinRules
from engine.zones import CARD_HEIGHT_CM, ZoneMap, default_zones

BACK = "BACK"
"""The code of a face-down card."""
UNREAD = "UNREAD"
"""The code of a card the camera sees lying there but cannot read: the tracker asks which card it is."""
NOTHING = "NONE"
"""The players' answer that no card lies where a question points (the camera read the bare table,
a shadow or a card's picture as a card): the readings there are not a card while they last."""

HAND_SIZE = 10
CHOICES = 6
"""The most answers a question offers the players (the dashboard shows them as buttons)."""
GAP_CARDS = 2
"""Two groups of a layout lying up to this many meld distances apart (:attr:`TrackerOptions.cluster_cm`)
may have a card between them that the camera cannot see."""
WIDE_STEP_CM = 2.8
"""Two cards of one group lying this far apart leave room for a fanned card between them (a fan steps 2 cm)."""
LAID_OUT_FRAMES = 30
"""Frames the opponent's cards stay a card short, unchanged, before the tracker takes the laying out as
done and asks about a layoff it cannot read: longer than a pause between two of a player's moves."""
WIDE_STEP_RATIO = 1.5
"""A step between two cards of a meld this many times its narrowest step may hide a fanned card."""
ROW_CM = 2.5
"""Cards whose centres lie within this height of each other lie in one row."""
PLACE_QUESTION = "which card lies"
"""The words of a question about a place beside cards read, where a card the camera never read may lie
(:meth:`GinTracker._gap_questions`, :meth:`GinTracker._end_questions`): it asks for a card lying there,
not for its neighbours, which the camera did read."""
_TWICE = "*"
"""Marks the second reading of one card in one zone and frame."""

EventKind = Literal[
    "discard", "pickup", "stock_draw", "knock", "layout", "layoff", "hand_end", "reading", "move", "irregularity",
]
QUESTION_KINDS = ("reading", "move")
"""Questions to the players: which card lies somewhere (``reading``), which move a player made (``move``)."""


class TrackerError(ValueError):
    """A tracker set up or driven inconsistently (unknown player, unknown event to confirm, ...)."""


@dataclass(frozen=True)
class Sighting:
    """One card read in one frame: its code (``'BACK'`` face down), how sure the reader is, where it
    lies in table cm, the zone there (None between zones) and the alternatives the reader weighed.

    >>> Sighting("10h", 0.9, 1, 2, "discard").code
    '10H'
    >>> Sighting("1X", 0.9, 1, 2, "discard")
    Traceback (most recent call last):
    ...
    engine.tracker.TrackerError: sighting code '1X' is neither BACK nor a card: malformed card code '1X': expected a rank (A, 2-10, T, J, Q, K) and a suit (S, H, D, C or ♠♥♦♣), or JK
    """

    code: str
    confidence: float
    x: float
    y: float
    zone: str | None
    candidates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", canonical_code(self.code, "sighting code"))
        object.__setattr__(self, "candidates", tuple(canonical_code(c, "candidate") for c in self.candidates))
        if not 0.0 <= self.confidence <= 1.0:
            raise TrackerError(f"sighting of {self.code}: confidence must be 0..1, got {self.confidence!r}")


def canonical_code(code: str, what: str = "card code") -> str:
    """``'BACK'``, ``'UNREAD'``, ``'NONE'`` (:data:`NOTHING`) or the canonical card code; anything
    else is a :class:`TrackerError`.

    >>> canonical_code("qh"), canonical_code("none")
    ('QH', 'NONE')
    """
    if isinstance(code, str) and code.strip().upper() in (BACK, UNREAD, NOTHING):
        return code.strip().upper()
    try:
        return str(parse_card(code))
    except CardParseError as error:
        raise TrackerError(f"{what} {code!r} is neither BACK nor a card: {error}") from None


@dataclass(frozen=True)
class TrackerOptions:
    """How cautious the tracker is.

    ``window`` still frames are looked at; a card is on the table if read in at least ``quorum``
    of them and off it if read in at most ``window - quorum``; anything between means "wait".
    Readings averaging below ``min_confidence`` need confirmation. Cards whose centres lie within
    ``cluster_cm`` of each other belong to one meld; a layoff lies within ``layoff_cm`` of its meld.
    Readings within ``confirm_radius_cm`` are one place: a confirmed reading holds for the card read
    there, and one card read at two places of a zone in one frame is asked about.
    """

    window: int = 6
    quorum: int = 4
    min_confidence: float = 0.8
    cluster_cm: float = 3.5
    layoff_cm: float = 5.0
    confirm_radius_cm: float = 1.0
    same_place_cm: float = 0.5
    """Two decks: a card showing on the discard pile within this distance of where that card lay is
    the same card (the card above it was taken); farther, it may be the second copy, just discarded."""

    def __post_init__(self) -> None:
        if not (isinstance(self.window, int) and self.window >= 1):
            raise TrackerError(f"window must be a whole number >= 1, got {self.window!r}")
        if not (isinstance(self.quorum, int) and self.window / 2 < self.quorum <= self.window):
            raise TrackerError(f"quorum must be more than half of the window ({self.window}) and at most it, got {self.quorum!r}")
        if not 0.0 <= self.min_confidence <= 1.0:
            raise TrackerError(f"min_confidence must be 0..1, got {self.min_confidence!r}")

    def asking_below(self, bar: float) -> "TrackerOptions":
        """These options with the readings below ``bar`` asked about too (``min_confidence`` raised to
        it, never lowered).

        >>> TrackerOptions().asking_below(0.98).min_confidence, TrackerOptions().asking_below(0.0).min_confidence
        (0.98, 0.8)
        """
        return replace(self, min_confidence=max(self.min_confidence, bar))


UNLEARNED_DECK_CONFIDENCE = 0.98
"""The bar for readings of a deck the recognizer was not taught (``rummyref learn-deck``). A deck's
small indices it was not taught are misread the same way in every frame, surely: rendered Wiener
layouts of ``gnome/anglo`` (a training design, 8 px ranks at 1280x720) held 148 readings of another
card at 0.9-0.98 (a 5 read 6 up to 0.978) and none of 1,571 at 0.98 or more (models/CARDS.md, session
16); untaught rounds and hands recorded a 5D discard as 6D (Wiener) and a 5S as 6S (Gin) at 0.8.
Asking below it costs questions, never a result."""


def deck_confidence(deck_learned: bool, options: TrackerOptions = TrackerOptions()) -> float:
    """The bar a reading must reach not to be asked about, with the players' deck learned or not:
    ``options``' own with it; without it, :data:`UNLEARNED_DECK_CONFIDENCE` (or ``options``' if higher).

    >>> deck_confidence(True), deck_confidence(False), deck_confidence(False, TrackerOptions(min_confidence=0.99))
    (0.8, 0.98, 0.99)
    """
    return options.min_confidence if deck_learned else max(options.min_confidence, UNLEARNED_DECK_CONFIDENCE)


@dataclass(frozen=True)
class Event:
    """One committed game event, or a question to the players (``needs_confirmation``).

    ``frame_id`` is the frame whose reading committed it (the app stores that frame as evidence).
    ``melds`` holds the grouping of a layout (the meld a layoff went onto); ``cards`` the cards
    moved (a layout's deadwood). ``candidates`` are what a doubtful card may be.
    """

    seq: int
    kind: EventKind
    frame_id: int
    player: str | None = None
    cards: tuple[str, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    stock: int | None = None
    inferred: bool = False
    needs_confirmation: bool = False
    candidates: tuple[str, ...] = ()
    zone: str | None = None
    position: tuple[float, float] | None = None
    flagged: bool = False
    ruling: Ruling | None = None
    result: HandScore | None = None
    detail: str = ""
    penalties: tuple[int, ...] | None = None
    """Wiener Rummy: the points each seat writes for the round."""

    def key(self) -> tuple:
        """What the event says about the game, without bookkeeping or the order cards lie in:
        compare it with ground truth.

        >>> Event(1, "layout", 9, "Ben", ("KS",), (("7H", "7S", "7D"),)).key()
        ('layout', 'Ben', ('KS',), (('7S', '7H', '7D'),))
        """
        melds = tuple(sorted(tuple(sorted(m, key=_order)) for m in self.melds))
        return (self.kind, self.player, tuple(sorted(self.cards, key=_order)), melds)

    def describe(self) -> str:
        parts = [f"#{self.seq}", self.kind]
        if self.player:
            parts.append(self.player)
        parts += [" ".join(m) for m in self.melds] if self.kind != "layoff" else []
        parts += list(self.cards)
        if self.kind == "layoff":
            parts.append("onto " + " ".join(self.melds[0]))
        if self.stock is not None:
            parts.append(f"(stock {self.stock})")
        if self.inferred:
            parts.append("(inferred)")
        if self.needs_confirmation:
            parts.append(f"needs confirmation: {' or '.join(self.candidates)}")
        if self.result is not None:
            parts.append(f"{self.result.kind} {self.result.winner or ''} {self.result.points}".rstrip())
        if self.ruling is not None:
            parts.append(f"[{self.ruling.rule}]")
        return " ".join(parts)


@dataclass(frozen=True)
class _Card:
    """A card as settled over the window: mean position and confidence, the alternatives read."""

    code: str
    x: float
    y: float
    confidence: float
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class _Override:
    """A player's answer: the card read as ``read`` near ``(x, y)`` in ``zone`` is ``card``."""

    zone: str
    read: str
    x: float
    y: float
    card: str
    doubtful_only: bool
    """The question was about a low-confidence reading: on the discard pile a confident one there is
    another card once the table has moved (the next discard lands at the same place). Elsewhere no
    card lands on another's index, so a reading there of the code asked about stays the card named."""
    still_period: int = 0
    """The still period the players answered in (:attr:`GinTracker._still_period`): until the table
    moves, every reading of the card asked about at that place is the card they named, however sure
    (the reader can misread one card surely in some frames and weakly in others)."""


@dataclass
class _Layout:
    """A committed layout: the groups as laid, which of them are melds, and the loose cards."""

    cards: dict[str, tuple[float, float]]
    groups: list[tuple[str, ...]]
    melds: list[Meld]
    deadwood: tuple[str, ...]


@dataclass
class _Turn:
    player: int
    drawn: bool
    opening: bool = False


class GinTracker:
    """Tracks one two-player Gin hand dealt by the rulebook (forehand holds 11 and discards first).

    ``players`` are the names at seat 0 and seat 1 of ``zones``; ``dealer`` is one of them.
    Feed :meth:`update` every frame; answer questions with :meth:`confirm`; a knock button calls
    :meth:`press_knock`, and :meth:`finish` says that a layout is complete though short of cards.
    """

    def __init__(self, players: tuple[str, str], dealer: str, rules: GinRules = GinRules(),
                 zones: ZoneMap | None = None, options: TrackerOptions = TrackerOptions()) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise TrackerError(f"Gin is tracked for two players with different names, got {players!r}")
        if dealer not in players:
            raise TrackerError(f"dealer {dealer!r} is not one of the players {players[0]!r}, {players[1]!r}")
        if rules.deal != "eleven":
            raise TrackerError("only the rulebook deal (forehand holds 11 and discards first) is tracked; "
                               "the upcard deal's passes cannot be seen by the camera")
        if rules.oklahoma:
            raise TrackerError("Oklahoma Gin is not tracked yet: its knock limit needs the first upcard")
        self.players = tuple(players)
        self.dealer = dealer
        self.rules = rules
        self.zones = zones or default_zones("gin", 2)
        if self.zones.players != 2 or self.zones.of_kind("discard") is None:
            raise TrackerError("Gin needs a zone map with two seats and a discard zone")
        self.options = options
        self.discard_zone = self.zones.of_kind("discard").name
        self.seat_zones = tuple(self.zones.seat_zone(seat).name for seat in range(2))
        self.mrules = meld_rules(rules)
        self.limit = knock_limit(rules)
        self._start(opener=1 - self.players.index(dealer), stock=52 - 21)

    def _start(self, opener: int, stock: int) -> None:
        """The state of a freshly dealt hand: ``opener`` holds the extra card and discards first."""
        self.events: list[Event] = []
        self.phase: Literal["play", "knocked", "over"] = "play"
        self.stock = stock
        self.pile: list[str] = []
        self.turn = _Turn(opener, drawn=True, opening=True)
        self.knocker: int | None = None
        self.layouts: dict[int, _Layout] = {}
        self._window: list[tuple[int, list[Sighting]]] = []
        self._settled_still = False
        self._still_period = 0
        """Counts the times the table moved: an answer given in this still period holds for every
        reading of the card asked about at its place until the table moves."""
        self._overrides: list[_Override] = []
        self._pending: dict[int, tuple[str, str, float, float, bool]] = {}
        self._finish = False
        self._flagged_keys: set[tuple] = set()
        self._gaps: set[int] = set()
        """Questions about a place in a layout where no card is seen, though a card seems missing there."""
        self._opponent_shown = (0, 0)
        """How many cards the opponent's layout and layoffs show after a knock, and since which frame."""
        self._layoff_places: dict[int, tuple[int, tuple]] = {}
        """Of those, the questions about a layoff the opponent may have made, with the count of cards in the
        knocker's area when asked and the question's key: moot once the opponent lays off another card."""
        self._named: list[tuple[str, str, float, float]] = []
        """Cards the players named at such places (zone, card, x, y): they lie there, seen or not."""
        self._silenced: set[_Override] = set()
        """The answers "no card here" (:data:`NOTHING`) that took a reading out of the window last settled."""

    # --- inputs -----------------------------------------------------------------------------

    def update(self, frame_id: int, sightings: Sequence[Sighting], still: bool) -> list[Event]:
        """Take one frame; returns the events it commits (often none)."""
        if not still:
            events = self._moved(frame_id)
            self._window.clear()
            self._still_period += 1
            self._settled_still = False
            return events
        self._window.append((frame_id, list(sightings)))
        del self._window[:-self.options.window]
        if len(self._window) < self.options.window or self.phase == "over":
            return []
        return self._evaluate(frame_id)

    def _moved(self, frame_id: int) -> list[Event]:
        """A hand over the table: answers about the discard pile's top no longer hold (the next card
        lands at the same place), and an unread top card nobody named cannot be told from the next one."""
        if self.phase != "play":
            return []
        unsettled = self._pile_unsettled()
        self._overrides = [o for o in self._overrides if o.zone != self.discard_zone]
        unnamed = [seq for seq, (zone, code, *_) in self._pending.items() if zone == self.discard_zone and code == UNREAD]
        if unnamed:
            why = (f"the question about the unread card on the discard pile (#{unnamed[0]}) was not answered before the "
                   "table moved: the tracker cannot tell it from the next card there")
            candidates = self.events[unnamed[0] - 1].candidates
        elif unsettled:
            why = (f"the discard pile showed {' or '.join(unsettled)} while the table lay still, never clearly enough "
                   "to commit, and then the table moved: a discard may have gone unseen")
            candidates = tuple(c for c in unsettled if c != UNREAD)
        else:
            return []
        self._pending.clear()
        self.phase = "over"
        return [self._emit("hand_end", frame_id, needs_confirmation=True, flagged=True, candidates=candidates or (UNREAD,),
                           detail=f"{why}; the tracker lost the turn order; record this hand by hand")]

    def _pile_unsettled(self) -> list[str]:
        """What the discard pile showed over a full window that never settled, beyond the cards known to
        lie on top of it (empty when the window settled or showed only those)."""
        if self._settled_still or len(self._window) < self.options.window:
            return []
        known = set(self.pile[-2:])
        shown = {self._corrected(s).code for _, sightings in self._window for s in sightings if s.zone == self.discard_zone}
        return sorted(shown - known - {NOTHING})

    @property
    def needs_frames(self) -> bool:
        """False once the table has been read to a settled state in this still period: more still
        frames cannot change anything until something moves (the camera side may skip reading them).
        """
        return not self._settled_still and self.phase != "over"

    def awaits(self, seq: int) -> bool:
        """True while the question ``seq`` waits for an answer: an answer or a move of the table can
        settle or drop other open questions, and :meth:`confirm` refuses an answer to those."""
        return seq in self._pending

    def confirm(self, seq: int, code: str) -> list[Event]:
        """Answer the ``needs_confirmation`` event ``seq``: the card there is ``code``; :data:`NOTHING`:
        no card lies there, so the readings at that place are dropped while the camera keeps making them."""
        if seq not in self._pending:
            raise TrackerError(f"event #{seq} is not waiting for a confirmation")
        answer = canonical_code(code)
        if answer == UNREAD:
            raise TrackerError(f"event #{seq} asks which card lies there: {UNREAD} is no answer")
        zone, read, x, y, doubtful = self._pending.pop(seq)
        near = lambda o: o.zone == zone and math.dist((o.x, o.y), (x, y)) <= self.options.confirm_radius_cm  # noqa: E731
        asked = read.rstrip(_TWICE)
        # The reading asked about may be only what the players named there before (a card seen unread they
        # named, the camera never reading it so): another card named now replaces that one, or the question
        # would come back unchanged (the same card named again confirms it, as any reading is confirmed).
        earlier = next((o for o in self._overrides if near(o) and o.card == asked != o.read), None)
        if (earlier is not None and answer != asked
                and not any(near(s) and s.code == asked for _, seen in self._window for s in seen)):
            read, doubtful = earlier.read, earlier.doubtful_only
        # A later answer about a reading at a place replaces an earlier one (a place asked about again).
        self._overrides = [o for o in self._overrides if not (near(o) and o.read == read)]
        self._overrides.append(_Override(zone, read, x, y, answer, doubtful, self._still_period))
        if seq in self._gaps and answer not in (BACK, NOTHING):
            self._named.append((zone, answer, x, y))
        named = parse_card(answer) if answer not in (BACK, NOTHING) else None
        if isinstance(named, Card) and answer != read and read.rstrip(_TWICE) != answer:  # a joker has no rank
            self.named += (named.rank,)
        if (named is not None or answer == BACK) and read.rstrip(_TWICE) not in (answer, UNREAD, BACK):
            self.misread += ((read.rstrip(_TWICE), answer),)
        return self._reevaluate()

    def press_knock(self, player: str, frame_id: int) -> list[Event]:
        """A knock announced by a button (web page or GPIO) rather than a face-down discard."""
        seat = self._seat(player)
        if self.phase != "play":
            return [self._emit("irregularity", frame_id, player, flagged=True,
                               detail=f"{player} pressed knock, but the hand is already {self.phase}")]
        if seat != self.turn.player:
            return [self._emit("irregularity", frame_id, player, flagged=True,
                               detail=f"{player} pressed knock out of turn: it is {self.players[self.turn.player]}'s turn")]
        return self._knock(frame_id, "the knock button")

    def finish(self, frame_id: int) -> list[Event]:
        """The players say the layouts are complete: settle with the cards on the table."""
        self._finish = True
        return self._reevaluate(frame_id)

    def _reevaluate(self, frame_id: int | None = None) -> list[Event]:
        if len(self._window) < self.options.window or self.phase == "over":
            return []
        if self._settled() is None:
            # An answer split what had settled: read more frames, and if the table moves first,
            # :meth:`_moved` sees a pile that never settled rather than a card silently let go.
            self._settled_still = False
            return []
        return self._evaluate(frame_id if frame_id is not None else self._window[-1][0])

    def _seat(self, player: str) -> int:
        if player not in self.players:
            raise TrackerError(f"unknown player {player!r}: the players are {self.players[0]!r} and {self.players[1]!r}")
        return self.players.index(player)

    # --- reading the window -----------------------------------------------------------------

    def _corrected(self, sighting: Sighting) -> Sighting:
        """The sighting with the players' answer applied, if it is the card they were asked about:
        same zone, same place, and the same reading, or for a doubtful card any doubtful reading
        (a card read weakly as one card, then as another, or seen unread, is still the card named)."""
        for o in self._overrides:
            doubtful = sighting.confidence < self.options.min_confidence
            # Until the table moves every reading there is the card asked about; after it, only off the pile:
            # a card read just above the bar in the next still window (Wiener rendered seed 3, QC read 6C at
            # 0.89 and 0.91) is still the card the players named.
            looked = o.still_period == self._still_period or o.zone != self.discard_zone
            if (o.zone == sighting.zone and (o.read == sighting.code or (o.doubtful_only and doubtful))
                    and not (o.doubtful_only and not doubtful and not looked)
                    and math.dist((o.x, o.y), (sighting.x, sighting.y)) <= self.options.confirm_radius_cm):
                if o.card == NOTHING:
                    self._silenced.add(o)
                return replace(sighting, code=o.card, confidence=1.0, candidates=())
        return sighting

    def _settled(self) -> dict[str, dict[str, _Card]] | None:
        """Zone -> code -> card, if every card is clearly on or off the table over the window.

        Cards seen but not read (:data:`UNREAD`) are keyed by place, ``UNREAD@x,y``.
        """
        self._silenced.clear()
        votes = self._votes()
        reading: dict[str, dict[str, _Card]] = defaultdict(dict)
        for (zone, code), seen in votes.items():
            if len(seen) >= self.options.quorum:
                alternatives = _by_weight(seen, code)
                reading[zone][code] = _Card(seen[0].code if seen[0].code == UNREAD else code,
                                            *_place(seen, self.options.confirm_radius_cm),
                                            sum(s.confidence for s in seen) / len(seen), alternatives)
            elif len(seen) > self.options.window - self.options.quorum and self.zones.named(zone).kind != "stock":
                return None  # (the face-down stock tells nothing the draws do not: its back read at times holds nothing up)
        for zone, code, x, y in self._named:  # named at a place where the camera sees no card
            held = sum(self._copy_of(key) == code for cards in reading.values() for key in cards)
            here = any(math.dist((c.x, c.y), (x, y)) <= self.options.confirm_radius_cm for c in reading[zone].values())
            if not held or (held < self.decks and not here):  # a second copy where a card is read: that card
                reading[zone][code + _TWICE * (code in reading[zone])] = _Card(code, x, y, 1.0, ())
        return reading

    def _votes(self) -> dict[tuple[str, str], list[Sighting]]:
        """(zone, code) -> its best reading in each frame of the window; one card read at two places
        of a zone in one frame keeps the weaker reading apart (code marked with a star) to be asked about.
        Cards seen but not read (:data:`UNREAD`) are told apart by place: each place is one card."""
        votes: dict[tuple[str, str], list[Sighting]] = defaultdict(list)
        unread: dict[str, list[list[Sighting]]] = defaultdict(list)
        for _, sightings in self._window:
            best: dict[tuple[str, str], Sighting] = {}
            answered: set[tuple[str, str]] = set()
            for raw in sightings:
                if raw.zone is None:
                    continue
                s = self._corrected(raw)
                if s.code == NOTHING:
                    continue
                if s.code == UNREAD:
                    _join_place(unread[s.zone], s, self.options.confirm_radius_cm)
                    continue
                key = (s.zone, s.code)
                other = best.get(key)
                if other is not None and math.dist((other.x, other.y), (s.x, s.y)) > self.options.confirm_radius_cm:
                    if self._same_card(other, key in answered, s, s.code != raw.code):
                        if key in answered and s.code == raw.code:  # keep the card's own reading (its place)
                            best[key] = s
                            answered.discard(key)
                        continue
                    # One card read at two places of a zone: keep the weaker reading apart, to be asked about.
                    weak, strong = sorted((other, s), key=lambda r: r.confidence)
                    best[key], best[(s.zone, s.code + _TWICE)] = strong, weak
                elif other is None or s.confidence > other.confidence:
                    best[key] = s
                    if s.code != raw.code:
                        answered.add(key)
            for key, s in best.items():
                votes[key].append(s)
        for zone, places in unread.items():
            for seen in places:
                x, y = median(s.x for s in seen), median(s.y for s in seen)
                self._fold_unread_pile(votes, zone, seen)
                self._fold_unread_place(votes, zone, seen)
                if seen:
                    votes[(zone, f"{UNREAD}@{x:.1f},{y:.1f}")] = seen
        return votes

    def _fold_unread_pile(self, votes: dict[tuple[str, str], list[Sighting]], zone: str, seen: list[Sighting]) -> None:
        """The pile shows one card: a frame that read it only unsurely (an unread top whose likeliest
        candidate is a card read surely in other frames of the window, too few to settle) counts for
        that card, with no confidence, so that the card settles as a doubtful one and is asked about,
        rather than the window wavering until the table moves. Folded sightings leave ``seen``."""
        if self.zones.named(zone).kind != "discard":
            return
        for s in list(seen):
            target = (zone, s.candidates[0]) if s.candidates else None
            if target in votes and len(votes[target]) < self.options.quorum:
                votes[target].append(replace(s, code=s.candidates[0], candidates=s.candidates[1:]))
                seen.remove(s)

    def _fold_unread_place(self, votes: dict[tuple[str, str], list[Sighting]], zone: str, seen: list[Sighting]) -> None:
        """A player's area: a card read in some frames of the window and seen unread at its place in the
        others (too few readings to settle) is one card; the unread frames count for it with no confidence,
        so that it settles as a doubtful card and is asked about, rather than the window wavering until
        the table moves (and a layout going by unsettled). Folded sightings leave ``seen``."""
        if not seen or self.zones.named(zone).kind != "layout":
            return
        x, y = median(s.x for s in seen), median(s.y for s in seen)
        for (where, code), read in votes.items():
            if (where == zone and code not in (BACK, UNREAD) and not code.endswith(_TWICE)
                    and len(read) < self.options.quorum <= len(read) + len(seen) <= self.options.window
                    and math.dist((median(s.x for s in read), median(s.y for s in read)), (x, y)) <= self.options.confirm_radius_cm):
                read += [replace(s, code=code, candidates=(code,)) for s in seen]
                seen.clear()
                return

    def _same_card(self, first: Sighting, first_answered: bool, second: Sighting, second_answered: bool) -> bool:
        """Two readings of one code in one zone and frame are one card when the players named one of
        them as that card (an answer about a card's picture read as an index, or about a card seen
        unread) and they lie within a card's length of each other."""
        return ((first_answered or second_answered)
                and math.dist((first.x, first.y), (second.x, second.y)) <= CARD_HEIGHT_CM)

    def _evaluate(self, frame_id: int) -> list[Event]:
        reading = self._settled()
        if reading is None:
            return []
        self._settled_still = True
        # An answer holds for the card it was about, while it lies there; not for the next card there.
        # "No card here" holds while the camera still reads something at that place.
        self._overrides = [o for o in self._overrides if o.card in reading.get(o.zone, {}) or o in self._silenced]
        events = self._question_doubtful(reading, frame_id)
        if events:
            return events
        open_questions = self._pending_present(reading, frame_id)
        if open_questions is not None:
            return open_questions
        if self.phase == "play":
            events += self._play(reading, frame_id)
        if self.phase == "knocked":
            events += self._layouts(reading, frame_id)
        return events

    def _pending_present(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event] | None:
        """Drop questions about cards no longer on the table; None while none is open.

        A doubtful card on the discard pile covered before anyone answered is a turn the tracker
        cannot place (whose discard, which card): it stops and says so rather than carry on with
        the wrong player to move. The players record the hand themselves.
        """
        for seq, (zone, code, x, y, _) in list(self._pending.items()):
            if seq in self._layoff_places and len(reading.get(zone, {})) != self._layoff_places[seq][0]:
                # The opponent was still laying off: the place is asked about again if a card is still missing.
                del self._pending[seq]
                self._flagged_keys.discard(self._layoff_places.pop(seq)[1])
                continue
            if seq not in self._gaps and not self._present(reading.get(zone, {}), code, x, y):
                del self._pending[seq]
                if zone == self.discard_zone and self.phase == "play":
                    self._pending.clear()
                    self.phase = "over"
                    return [self._emit("hand_end", frame_id, needs_confirmation=True, flagged=True, candidates=(code,),
                                       detail=f"the question about {code} on the discard pile (#{seq}) was not answered "
                                              "before the next card covered it: the tracker lost the turn order; "
                                              "record this hand by hand")]
        return [] if self._pending else None

    def _present(self, cards: dict[str, _Card], code: str, x: float, y: float) -> bool:
        """Whether the card asked about still lies there (an unread card: at its place)."""
        if code != UNREAD:
            return code in cards
        return any(c.code == UNREAD and math.dist((c.x, c.y), (x, y)) <= self.options.confirm_radius_cm
                   for c in cards.values())

    def _question_doubtful(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """Ask about cards read with low confidence and cards read more often than the decks hold
        them (the doubtful readings of such a card first: their answers may settle it)."""
        copies: dict[str, list[tuple[str, _Card]]] = defaultdict(list)
        for zone, cards in reading.items():
            for card in cards.values():
                if card.code not in (BACK, UNREAD) and self.zones.named(zone).kind != "stock":
                    copies[self._copy_of(card.code)].append((zone, replace(card, code=self._copy_of(card.code))))
        events = []
        for zone, cards in reading.items():
            if zone == self.discard_zone and self.phase != "play":
                continue  # after the knock the pile plays no part
            for card in cards.values():
                if card.code.endswith(_TWICE) and self.decks == 1:
                    card = replace(card, code=card.code.removesuffix(_TWICE))
                    events += self._ask(zone, card, frame_id, f"{card.code} is read twice in {zone}: {self._copies}",
                                        conflict=True)
                    continue
                if card.code == UNREAD:
                    card = replace(card, candidates=self._unread_candidates(zone, card, reading))
                    if self.zones.named(zone).kind != "stock":
                        events += self._ask(zone, card, frame_id, f"a card lies in {zone} at ({card.x:.0f}, {card.y:.0f}) cm "
                                                                  "but its index cannot be read")
                    continue
                if card.code == BACK and self.zones.named(zone).kind == "stock":
                    continue  # the stock is face down: how surely its back is seen settles nothing
                card = replace(card, code=self._copy_of(card.code))
                misread = self._misread_as(zone, card, cards)
                if misread:
                    card = replace(card, candidates=tuple(dict.fromkeys(misread + card.candidates)))
                doubtful = card.confidence < self.options.min_confidence or bool(misread)
                seen = copies.get(card.code, [])
                twice = len(seen) > self.decks
                if not doubtful and not twice:
                    continue
                if not twice and self._confirmed(zone, card):
                    continue  # the players said so (readings of it a little off the place they answered stay unsure)
                others = [(z, c) for z, c in seen if (z, c) != (zone, card) and not self._confirmed(z, c)]
                if twice and not doubtful and any(c.confidence < self.options.min_confidence for _, c in others):
                    continue  # a doubtful reading of the card is asked about first: its answer may settle it
                if twice and self._confirmed(zone, card) and others:
                    continue  # ask about the other readings first: their answers may settle it
                why = (f"{card.code} is read in {' and '.join(z for z, _ in seen)}: {self._copies}" if twice
                       else f"{card.code} read with confidence {card.confidence:.2f}" if not misread
                       else f"{card.code} read where {' or '.join(misread)} may lie (it lay there, or a card read so was it before)")
                events += self._ask(zone, card, frame_id, why, conflict=twice)
        return events

    def _misread_as(self, zone: str, card: _Card, cards: dict[str, _Card]) -> tuple[str, ...]:
        """What a card read surely may really be, though: a card of a committed layout that lay at its very
        place and is read no more (``cards`` are the zone's readings; a layoff lies beside a meld's card,
        not on its index), and on the discard pile the cards the players named, earlier in the hand (or
        session), for a card read as this one (the reader misreads some card of this deck as it, however
        sure it is). Empty when there is none, the players named the card at this place as read, or it is
        committed there already (the pile's top, a card of a layout)."""
        laid = [(code, place) for seat, done in self.layouts.items() if self.seat_zones[seat] == zone
                for code, place in done.cards.items()]
        replaced = tuple(code for code, place in laid if code not in cards
                         and math.dist(place, (card.x, card.y)) <= self.options.confirm_radius_cm)
        # On the pile a misread decides whose turn it is (a pickup or a discard): there a card read as one
        # the players corrected before is asked about (in a layout the rules check what is laid).
        before = tuple(answer for read, answer in self.misread if read == card.code) if zone == self.discard_zone else ()
        named = tuple(dict.fromkeys(replaced + before))
        known = self.pile[-1:] == [card.code] if zone == self.discard_zone else any(code == card.code for code, _ in laid)
        if not named or known or any(o.zone == zone and o.card == card.code
                                     and math.dist((o.x, o.y), (card.x, card.y)) <= self.options.confirm_radius_cm
                                     for o in self._overrides):
            return ()
        return named

    @property
    def hard_ranks(self) -> list[int]:
        """The ranks the players named for cards the camera could not read, the most often named first
        (of two named as often, the later).

        >>> t = GinTracker(("Anna", "Ben"), dealer="Anna")
        >>> t.named = (12, 13, 12, 1)
        >>> t.hard_ranks
        [12, 1, 13]
        """
        last = {rank: k for k, rank in enumerate(self.named)}
        return sorted(last, key=lambda rank: (-self.named.count(rank), -last[rank]))

    def _unread_candidates(self, zone: str, card: _Card, reading: dict[str, dict[str, _Card]]) -> tuple[str, ...]:
        """What to offer for a card lying unread: in a player's area a card of a committed layout that
        lies there and is read no more, the cards that complete its meld
        and the cards read next to it (the place may be such a card's picture, read apart from its
        index); then the cards not seen anywhere of the rank the players named most for a card the
        camera could not read (:attr:`hard_ranks`), what the reader made of it, the other ranks named.
        A face-down card (a knock) stays among the first :data:`CHOICES`.

        >>> t = GinTracker(("Anna", "Ben"), dealer="Anna")
        >>> t.named = (12,)
        >>> t._unread_candidates("discard", _Card(UNREAD, 45, 30, 0.0, ("9C", BACK)), {})
        ('QS', 'QH', 'QD', 'QC', '9C', 'BACK')
        """
        layout = self.zones.named(zone).kind == "layout"
        melds = self._meld_candidates(card, reading) if layout else ()
        unseen = self._unseen(reading)
        hard = [tuple(str(c) for c in ALL_CARDS if c.rank == rank and str(c) in unseen) for rank in self.hard_ranks]
        neighbours = laid = ()
        if layout:
            near = [c for c in reading[zone].values() if c.code not in (BACK, UNREAD) and not c.code.endswith(_TWICE)
                    and self._near(c, card, CARD_HEIGHT_CM)]
            neighbours = tuple(c.code for c in sorted(near, key=lambda c: math.dist((c.x, c.y), (card.x, card.y)))[:2])
            # A card of a committed layout that lies there and is not read now: most likely the same card.
            placed = [(math.dist(position, (card.x, card.y)), code) for seat, done in self.layouts.items()
                      if self.seat_zones[seat] == zone for code, position in done.cards.items()
                      if code not in reading[zone] and math.dist(position, (card.x, card.y)) <= CARD_HEIGHT_CM]
            laid = tuple(code for _, code in sorted(placed))
        offered = [c for c in dict.fromkeys(laid + melds + neighbours + (hard[:1] or [()])[0] + card.candidates
                                            + sum(hard[1:], ()))
                   if c != BACK]
        if BACK in card.candidates:
            offered.insert(min(len(offered), CHOICES - 1), BACK)
        return tuple(offered)

    def _unseen(self, reading: dict[str, dict[str, _Card]]) -> set[str]:
        """The cards lying nowhere the tracker knows of (on the pile, in a layout, read on the table)."""
        seen = set(self.pile) | self._layout_codes() | {c.code for zone in reading.values() for c in zone.values()}
        return {str(c) for c in ALL_CARDS} - seen

    def _meld_candidates(self, card: _Card, reading: dict[str, dict[str, _Card]]) -> tuple[str, ...]:
        """For a card lying unread among others of a player's area: the cards not seen elsewhere that
        make the group it lies in a legal meld (the likely answers to offer the players)."""
        cards = next(cards for cards in reading.values() if any(c is card for c in cards.values()))
        key = next(k for k, c in cards.items() if c is card)
        group = next(g for g in self._group(cards) if key in g)
        others = [parse_card(cards[k].code) for k in group
                  if k != key and cards[k].code not in (BACK, UNREAD) and not k.endswith(_TWICE)]
        if len(others) < 2:
            return ()
        return self._completions(others, reading)

    def _completions(self, others: list[Card], reading: dict[str, dict[str, _Card]]) -> tuple[str, ...]:
        """The cards not seen elsewhere that make a legal meld with ``others`` (one deck, Gin melds)."""
        unseen = self._unseen(reading)
        return tuple(str(c) for c in ALL_CARDS if str(c) in unseen and _is_meld(others + [c], self.mrules))

    def _copy_of(self, code: str) -> str:
        """The card a reading's key stands for: with two decks each copy in a zone has its own key
        (a star per further copy, :meth:`engine.wiener_tracker.WienerTracker._votes`)."""
        return code.rstrip(_TWICE) if self.decks > 1 else code

    def _confirmed(self, zone: str, card: _Card) -> bool:
        """The players have confirmed that this reading is right."""
        return any(o.zone == zone and o.card == o.read == self._copy_of(card.code)
                   and math.dist((o.x, o.y), (card.x, card.y)) <= self.options.confirm_radius_cm
                   for o in self._overrides)

    def _ask(self, zone: str, card: _Card, frame_id: int, why: str, exclude: tuple[str, ...] = (),
             conflict: bool = False) -> list[Event]:
        """A question about one card: read with low confidence, or (``conflict``) where the rules say it
        cannot be; ``exclude`` are the cards the rules rule out as candidates."""
        if conflict and self._confirmed(zone, card):
            key = ("confirmed_conflict", zone, card.code)
            if key in self._flagged_keys:
                return []
            self._flagged_keys.add(key)
            if zone == self.discard_zone and self.phase == "play":
                # The pile's top is not known: whatever lands on it next cannot be placed in the turn order.
                self.phase = "over"
                return [self._emit("hand_end", frame_id, needs_confirmation=True, flagged=True, candidates=(card.code,),
                                   detail=f"{why}, and the players confirmed it is {card.code}: the tracker cannot "
                                          "tell the discard pile's top card, so it lost the turn order; record this hand by hand")]
            return [self._emit("irregularity", frame_id, cards=(card.code,), zone=zone, flagged=True,
                               detail=f"{why}, and the players confirmed it is {card.code}: "
                                      "§14 has no ruling for it; the tracker waits until the table is put right")]
        for pending_zone, code, x, y, _ in self._pending.values():
            if (pending_zone, code) == (zone, card.code) and math.dist((x, y), (card.x, card.y)) <= self.options.confirm_radius_cm:
                return []
        # A stock card is face down: whatever was read on it, its back is one answer.
        face_down = (BACK,) if self.zones.named(zone).kind == "stock" else ()
        candidates = tuple(c for c in dict.fromkeys((card.code,) + card.candidates + face_down) if c not in exclude and c != UNREAD)
        event = self._emit("reading", frame_id, needs_confirmation=True, candidates=candidates or (card.code,) * (card.code != UNREAD),
                           zone=zone, position=(round(card.x, 1), round(card.y, 1)), cards=(card.code,), detail=why)
        self._pending[event.seq] = (zone, card.code, card.x, card.y, card.confidence < self.options.min_confidence)
        return [event]

    # --- play: the discard pile -------------------------------------------------------------

    def _play(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        events: list[Event] = []
        pile = reading.get(self.discard_zone, {})
        top = self.pile[-1] if self.pile else None
        if BACK in pile:
            events += self._knock(frame_id, "a face-down discard")
            self.pile.append(BACK)
            return events
        faces = [c for c in pile.values() if c.code != BACK]
        under = self.pile[-2] if len(self.pile) >= 2 else None
        # New: never on the pile; or (two decks) a second copy, unless it is the card under the top showing again.
        new = [c for c in faces if c.code not in self.pile
               or (self.pile.count(c.code) < self.decks and c.code not in (top, under))]
        seen_top = new[0] if len(new) == 1 else None
        if seen_top is None and not new:
            under = [c.code for c in faces]
            seen_top_code = max(under, key=self.pile.index) if under else None
        elif seen_top is None:
            return self._ask(self.discard_zone, new[0], frame_id, "two new cards on the discard pile at once",
                             conflict=True)
        else:
            seen_top_code = seen_top.code
        if seen_top_code != top:
            if seen_top is not None:
                elsewhere = self._layout_codes()
                if seen_top.code in elsewhere:
                    return self._ask(self.discard_zone, seen_top, frame_id,
                                     f"{seen_top.code} is discarded but lies in a layout", exclude=tuple(elsewhere),
                                     conflict=True)
                events += self._discard(seen_top.code, frame_id)
            elif len(self.pile) >= 1 and seen_top_code == (self.pile[-2] if len(self.pile) >= 2 else None):
                events += self._pickup(frame_id)
            elif seen_top_code is None:
                pass  # nothing readable on a pile of two or more (a face-down card the reader misses): no pile event
            else:
                card = pile[seen_top_code]
                return self._ask(self.discard_zone, card, frame_id,
                                 f"{seen_top_code} shows on the discard pile, but {top} was its top card",
                                 exclude=tuple(c for c in self.pile if c != seen_top_code), conflict=True)
        if self.phase == "play":
            events += self._layout_in_play(reading, frame_id)
        return events

    def _discard(self, code: str, frame_id: int) -> list[Event]:
        events = self._draw_if_not_drawn(frame_id)
        player = self.players[self.turn.player]
        self.pile.append(code)
        events.append(self._emit("discard", frame_id, player, cards=(code,), stock=self.stock))
        self.turn = _Turn(self._next_seat(self.turn.player), drawn=False)
        if self._stock_ended():
            self.phase = "over"
            events.append(self._emit("hand_end", frame_id, result=HandScore.no_game(), stock=self.stock,
                                     detail=f"no game: the stock is down to {self.stock} cards (000 §12)"))
        return events

    # --- what differs between games: overridden by the Wiener tracker -----------------------

    decks = 1
    _copies = "a one-deck game holds it once"
    named: tuple[int, ...] = ()
    """Ranks of cards the camera could not read (or misread) that the players named, in order: the
    next card it cannot read is likely another of them (a deck whose queens the recognizer does not
    know), so they are offered (:attr:`hard_ranks`). :class:`rummyref.pipeline.HandSession` keeps
    them over the hands of a session."""
    misread: tuple[tuple[str, str], ...] = ()
    """(read, named) for each answer that named a card read as another card, or as a face-down card
    (``BACK``: this deck's back is read as that card, as a learned joker can be): this deck's card is
    misread as that one, however sure the reader is, so a later reading of it on the discard pile is
    asked about (:meth:`_misread_as`; a face-down card there is a knock). Kept over a session's hands
    like :attr:`named`."""

    def _next_seat(self, seat: int) -> int:
        return 1 - seat

    def _stock_ended(self) -> bool:
        """No game when the stock is down to two cards after a discard (000 §12)."""
        return stock_end(self.rules, self.stock, "discard") is StockEnd.NO_GAME

    def _draw_if_not_drawn(self, frame_id: int) -> list[Event]:
        if self.turn.drawn:
            return []
        self.turn.drawn = True
        self.stock -= 1
        return [self._emit("stock_draw", frame_id, self.players[self.turn.player], stock=self.stock, inferred=True)]

    def _pickup(self, frame_id: int) -> list[Event]:
        player = self.players[self.turn.player]
        card = self.pile.pop()
        if self.turn.drawn:
            return [self._emit("irregularity", frame_id, player, cards=(card,), flagged=True,
                               detail=f"{player} took {card} from the discard pile but has already drawn this turn")]
        self.turn.drawn = True
        return [self._emit("pickup", frame_id, player, cards=(card,), stock=self.stock)]

    def _knock(self, frame_id: int, how: str) -> list[Event]:
        events = self._draw_if_not_drawn(frame_id)
        self.phase = "knocked"
        self.knocker = self.turn.player
        events.append(self._emit("knock", frame_id, self.players[self.knocker], stock=self.stock, detail=f"knock by {how}"))
        return events

    def _layout_in_play(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """Cards laid out before a knock was seen: the player to move went down without a face-down discard."""
        laid = [seat for seat in range(len(self.seat_zones)) if reading.get(self.seat_zones[seat])]
        if not laid:
            return []
        if laid == [self.turn.player]:
            return self._knock(frame_id, "laying out cards")
        key = ("early_layout", tuple(laid))
        if key in self._flagged_keys:
            return []
        self._flagged_keys.add(key)
        names = ", ".join(self.players[s] for s in laid)
        return [self._emit("irregularity", frame_id, flagged=True,
                           detail=f"cards laid out by {names} while it is {self.players[self.turn.player]}'s turn and nobody knocked")]

    def _layout_codes(self) -> set[str]:
        return {code for layout in self.layouts.values() for code in layout.cards}

    # --- after the knock: layouts, layoffs, the result -------------------------------------

    def _layouts(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        knocker, opponent = self.knocker, 1 - self.knocker
        own = {c.code: c for c in reading.get(self.seat_zones[knocker], {}).values() if c.code != BACK}
        theirs = {c.code: c for c in reading.get(self.seat_zones[opponent], {}).values() if c.code != BACK}
        events: list[Event] = []
        if knocker not in self.layouts:
            if not (len(own) >= HAND_SIZE or theirs or self._finish):
                return []
            questions = self._misread_questions(knocker, own, reading, frame_id)
            if not questions and len(own) < HAND_SIZE and not self._finish:
                questions = self._gap_questions(knocker, reading, frame_id) or self._end_questions(knocker, reading, frame_id)
            if questions:
                return questions
            events += self._commit_knocker(own, bool(theirs), frame_id)
        else:
            events += self._amend_knocker(own, bool(theirs), frame_id)
        layoff_cards = {code: c for code, c in own.items() if code not in self.layouts[knocker].cards}
        if len(theirs) + len(layoff_cards) < HAND_SIZE and not self._finish:
            if not theirs:
                return events
            # Short: a card of the opponent's own groups is unread, or (one card short: done laying out) a
            # layoff at an end of the knocker's melds, or last a card hidden in one of the opponent's melds.
            shown = len(theirs) + len(layoff_cards)
            if shown != self._opponent_shown[0]:
                self._opponent_shown = (shown, frame_id)
            done = shown == HAND_SIZE - 1 and frame_id - self._opponent_shown[1] >= LAID_OUT_FRAMES
            if shown == HAND_SIZE - 1 and not done:
                self._settled_still = False  # the still frames count towards "done": keep them coming
            laid = f"{self.players[opponent]}'s layout and layoffs show {shown} cards"
            questions = (self._gap_questions(opponent, reading, frame_id)
                         or self._end_questions(opponent, reading, frame_id, melds_too=False))
            if questions or not done:
                return events + questions
            as_laid = self._as_laid(knocker, reading)
            return events + (self._gap_questions(knocker, as_laid, frame_id, shown=laid)
                             or self._end_questions(knocker, as_laid, frame_id, shown=laid)
                             or self._end_questions(opponent, reading, frame_id))
        questions = self._misread_questions(opponent, theirs, reading, frame_id)
        if questions:
            return events + questions
        return events + self._commit_opponent(theirs, layoff_cards, frame_id)

    def _amend_knocker(self, own: dict[str, _Card], opponent_started: bool, frame_id: int) -> list[Event]:
        """The knocker's layout committed again where the players named a card of it otherwise: asked
        about a card read at the very place of a card of the layout that is read no more ("AS read where
        AC may lie"), they confirmed the reading, so the reader misread that card when the layout was
        committed. Without this the card they named would be taken for a layoff of the opponent's."""
        zone, layout = self.seat_zones[self.knocker], self.layouts[self.knocker]
        renamed: dict[str, str] = {}
        for code, card in own.items():
            if code in layout.cards or not self._confirmed(zone, card):
                continue
            was = sorted((math.dist(place, (card.x, card.y)), old) for old, place in layout.cards.items()
                         if old not in own and old not in renamed.values())
            if was and was[0][0] <= self.options.confirm_radius_cm:
                renamed[code] = was[0][1]
        if not renamed:
            return []
        cards = {code: _Card(code, x, y, 1.0, ()) for code, (x, y) in layout.cards.items() if code not in renamed.values()}
        cards.update({code: own[code] for code in renamed})
        said = ", ".join(f"{new} where {old} was read" for new, old in renamed.items())
        return self._commit_knocker(cards, opponent_started, frame_id, detail=f"corrected by the players: {said}")

    def _as_laid(self, seat: int, reading: dict[str, dict[str, _Card]]) -> dict[str, dict[str, _Card]]:
        """The reading with the cards of the seat's committed layout that are read no more put back at
        their places (the cards laid off onto a fan hide its indices), unless another card is read
        there: the groups the layoffs extend, to ask where an unread layoff lies."""
        zone = self.seat_zones[seat]
        cards = dict(reading.get(zone, {}))
        read = {c.code for c in cards.values()}
        for code, (x, y) in self.layouts[seat].cards.items():
            if code not in read and not any(math.dist((x, y), (c.x, c.y)) <= self.options.confirm_radius_cm for c in cards.values()):
                cards[code] = _Card(code, x, y, 1.0, ())
        return {**reading, zone: cards}

    def _misread_questions(self, seat: int, cards: dict[str, _Card], reading: dict[str, dict[str, _Card]],
                           frame_id: int) -> list[Event]:
        """A group of a layout that is no meld, though one of its cards read as another card not seen
        elsewhere would make it one: the reader may have misread that card, however sure it was (3C
        read as 3S in a run of clubs). Before the group is flagged as an illegal meld (§14.7) the players
        are asked about that card, the least sure such card first, with the cards that would make the
        group a meld; once they confirm every such card as read, the meld is the player's. Where no one
        card would do, but two read as others would (7S 8S 9C 10C JS: the same misread twice), the less
        sure of such a pair is asked about first, with what it would be.
        """
        zone = self.seat_zones[seat]
        events = []
        for group in self._group(cards):
            if len(group) < 3 or any(cards[c].code in (BACK, UNREAD) or (c.endswith(_TWICE) and self.decks == 1) for c in group):
                continue
            codes = {key: self._copy_of(key) for key in group}
            if self._legal_meld(list(codes.values())):
                continue
            doubtful = [key for key in group if not self._confirmed(zone, cards[key])]
            suspects = []
            for key in doubtful:
                fits = self._completions([parse_card(codes[k]) for k in group if k != key], reading)
                if fits:
                    suspects.append((cards[key].confidence, key, _likely_misreads(codes[key], fits)))
            also = ""
            if not suspects:
                suspects, also = self._misread_pairs(codes, doubtful, cards, reading), ", with one more card read otherwise,"
            if suspects:
                _, key, fits = min(suspects)
                events += self._ask(zone, replace(cards[key], code=codes[key], candidates=fits), frame_id,
                                    f"{' '.join(codes.values())} is no meld; {' or '.join(fits)} in place of {codes[key]}{also} "
                                    "would make it one")
        return events

    def _legal_meld(self, codes: list[str]) -> bool:
        """The cards ``codes`` make a legal meld of this game (Gin: :class:`engine.melds.Meld`)."""
        return _is_meld([parse_card(c) for c in codes], self.mrules)

    def _misread_pairs(self, group: dict[str, str], doubtful: list[str], cards: dict[str, _Card],
                       reading: dict[str, dict[str, _Card]]) -> list[tuple[float, str, tuple[str, ...]]]:
        """For a group (reading key -> card code) no one misread card explains: each card of a pair of
        doubtful ones that, both read as cards not seen elsewhere, would make the group a meld (the less
        sure of the two), with what it would be. A misread keeps the rank or the suit, so only such cards
        are tried."""
        unseen = self._unseen(reading)
        reads = {key: parse_card(group[key]) for key in doubtful}
        alike = {key: [c for c in ALL_CARDS if str(c) in unseen and isinstance(read, Card)
                       and (c.rank == read.rank or c.suit == read.suit)] for key, read in reads.items()}
        suspects = []
        for pair in itertools.combinations(doubtful, 2):
            rest = [code for key, code in group.items() if key not in pair]
            both = [(a, b) for a in alike[pair[0]] for b in alike[pair[1]]
                    if a != b and self._legal_meld(rest + [str(a), str(b)])]
            if both:
                which = min((0, 1), key=lambda k: cards[pair[k]].confidence)
                fits = tuple(dict.fromkeys(str(cards_as[which]) for cards_as in both))
                suspects.append((cards[pair[which]].confidence, pair[which], _likely_misreads(group[pair[which]], fits)))
        return suspects

    def _gap_questions(self, seat: int, reading: dict[str, dict[str, _Card]], frame_id: int,
                       shown: str | None = None) -> list[Event]:
        """A layout short of cards: where cards of it lie in one row a card apart, in one group that is no
        meld or in two groups, and one card not seen anywhere would make them one meld, a card the camera
        cannot see may lie between them (its index hidden, its colour merged with its neighbours'). So may
        it between two neighbours of a group that is no meld whose ranks leave out one card of their suit,
        however close they were read (a fan's hidden card can pull the reading of the next one onto it).
        Ask about that place, once, with those cards as the choices, rather than settle a hand short of a
        card (§14) on a guess. The same in the knocker's groups as extended by layoffs while the opponent's
        cards are a card short, the question beginning with ``shown``.
        """
        zone = self.seat_zones[seat]
        cards = reading.get(zone, {})
        place = lambda c: (cards[c].x, cards[c].y)
        groups = [g for g in self._group(cards) if not any(cards[c].code in (BACK, UNREAD) or c.endswith(_TWICE) for c in g)]
        spans = []  # (the cards a missing one would make a meld, the two it would lie between)
        for group in groups:
            if len(group) >= 2 and not _is_meld([parse_card(c) for c in group], self.mrules):
                ordered = sorted(group, key=lambda c: cards[c].x)
                pairs = list(zip(ordered, ordered[1:]))
                holes = [pair for pair in pairs if _rank_between(*pair)]
                a, b = holes[0] if holes else max(pairs, key=lambda pair: math.dist(place(pair[0]), place(pair[1])))
                if holes or math.dist(place(a), place(b)) >= WIDE_STEP_CM:
                    spans.append((group, a, b))
        for k, first in enumerate(groups):
            for second in groups[k + 1:]:
                gap, a, b = min((math.dist(place(a), place(b)), a, b) for a in first for b in second)
                if gap <= GAP_CARDS * self.options.cluster_cm:
                    spans.append((first + second, a, b))
        shown = shown or f"{self.players[seat]}'s layout shows {len([c for c in cards.values() if c.code != BACK])} cards"
        events = []
        for group, a, b in spans:
            if abs(cards[a].y - cards[b].y) > ROW_CM:
                continue
            fits = self._completions([parse_card(c) for c in group], reading)
            x, y = round((cards[a].x + cards[b].x) / 2, 1), round((cards[a].y + cards[b].y) / 2, 1)
            key = ("gap", zone, x, y)
            if not fits or key in self._flagged_keys:
                continue
            self._flagged_keys.add(key)
            event = self._ask_place(zone, x, y, frame_id, fits,
                                    f"{shown}, and {a} and {b} lie a card apart: {PLACE_QUESTION} between them?")
            events.append(event)
        return events

    def _end_questions(self, seat: int, reading: dict[str, dict[str, _Card]], frame_id: int,
                       melds_too: bool = True, shown: str | None = None) -> list[Event]:
        """A layout short of a card with no gap in it (:meth:`_gap_questions`): the knocker's once the opponent
        lays out (so the knocker is done), the opponent's while it is short. A card of it lies where the camera
        cannot read it, likely at an end of a fanned group (under its neighbour's index). Ask which card lies
        one fan step beyond an end of a group that a card not seen anywhere would make a meld there (a group
        that is no meld first; with ``melds_too`` False, as for the opponent who may still be laying out, only
        such groups), and first between two neighbours of a meld that such a card would extend, where their
        step is clearly wider than the meld's narrowest (after the ends, between any two such neighbours),
        one place at a time: "no card here" moves the question on, and once no place is left the layout is
        taken as laid (and a card short, proposed with its §14 ruling). The same at the knocker's melds while
        the opponent's cards are a card short (a layoff unread), the question beginning with ``shown``.
        """
        zone = self.seat_zones[seat]
        cards = reading.get(zone, {})
        held = len([c for c in cards.values() if c.code != BACK])
        layoff = shown is not None
        shown = shown or f"{self.players[seat]}'s layout shows {held} cards"
        places = []  # (the group is a meld, x, y, the cards that fit there, where the place lies)
        for group in self._group(cards):
            if len(group) < 2 or any(cards[c].code in (BACK, UNREAD) or c.endswith(_TWICE) for c in group):
                continue
            first, last = cards[group[0]], cards[group[-1]]
            if abs(first.y - last.y) > ROW_CM:
                continue
            members = [parse_card(c) for c in group]
            step = max((last.x - first.x) / (len(group) - 1), 1.0)
            run = len({c.suit for c in members}) == 1
            low, high = min(c.rank for c in members), max(c.rank for c in members)
            fits = self._completions(members, reading)
            meld = _is_meld(members, self.mrules)
            if meld and not melds_too:
                continue
            # A run's lower card lies before it, its higher one after it; a set's card at either end.
            before = tuple(c for c in fits if not run or parse_card(c).rank < low)
            after = tuple(c for c in fits if not run or parse_card(c).rank > high)
            places += [(meld, 1, 0.0, first.x - step, first.y, before, f"before {group[0]}"),
                       (meld, 1, 0.0, last.x + step, last.y, after, f"after {group[-1]}")]
            if meld:
                # Inside a meld too, before its ends: a fanned card can hide under both its neighbours, and
                # then the step between them is clearly wider than the meld's narrowest (widest first).
                steps = [math.dist((cards[a].x, cards[a].y), (cards[b].x, cards[b].y)) for a, b in zip(group, group[1:])]
                for (a, b), width in zip(zip(group, group[1:]), steps):
                    ranks = sorted((parse_card(a).rank, parse_card(b).rank))
                    between = tuple(c for c in fits if not run or ranks[0] < parse_card(c).rank < ranks[1])
                    # A step no wider than the others last, after the ends: a fan's readings can lie evenly
                    # spaced over a hidden card (each index pulled towards it).
                    order = 0 if width >= WIDE_STEP_RATIO * min(steps) else 2
                    places.append((meld, order, -width, (cards[a].x + cards[b].x) / 2, (cards[a].y + cards[b].y) / 2,
                                   between, f"between {a} and {b}"))
        for meld, _, _, x, y, fits, where in sorted(places, key=lambda place: place[:3]):
            x, y = round(x, 1), round(y, 1)
            key = ("end", zone, where)  # once per place, however the readings of its neighbours wander
            inside = self.zones.zone_at(x, y)
            if not fits or key in self._flagged_keys or inside is None or inside.name != zone:
                continue
            self._flagged_keys.add(key)
            event = self._ask_place(zone, x, y, frame_id, fits[:CHOICES], f"{shown}: {PLACE_QUESTION} {where}, if any?")
            if layoff:
                self._layoff_places[event.seq] = (len(cards), key)
            return [event]
        return []

    def _ask_place(self, zone: str, x: float, y: float, frame_id: int, candidates: tuple[str, ...], detail: str,
                   about: str = UNREAD, read: str | None = None) -> Event:
        """A question about a place (:data:`PLACE_QUESTION`): which card lies there, if any. It stays open
        until answered, whatever is read there meanwhile; a card named there counts where the camera reads
        none (:attr:`_named`). ``about``: the card read there (an unread place by default); ``read``: the
        camera's reading the answer replaces, where the players named that card before (default ``about``)."""
        read = about if read is None else read
        event = self._emit("reading", frame_id, needs_confirmation=True, candidates=candidates, zone=zone,
                           position=(x, y), cards=(about,), detail=detail)
        self._pending[event.seq] = (zone, read, x, y, read == UNREAD)
        self._gaps.add(event.seq)
        return event

    def _group(self, cards: dict[str, _Card]) -> list[tuple[str, ...]]:
        """Clusters of cards lying together (single linkage), each ordered left to right."""
        codes = sorted(cards, key=lambda c: (cards[c].x, cards[c].y))
        groups: list[list[str]] = []
        for code in codes:
            near = [g for g in groups if any(self._near(cards[code], cards[other], self.options.cluster_cm) for other in g)]
            merged = [code] + [c for g in near for c in g]
            groups = [g for g in groups if g not in near] + [merged]
        ordered = [tuple(sorted(g, key=lambda c: (cards[c].x, cards[c].y))) for g in groups]
        return sorted(ordered, key=lambda g: (round(cards[g[0]].y / 10), cards[g[0]].x))

    @staticmethod
    def _near(a: _Card, b: _Card, distance: float) -> bool:
        return math.dist((a.x, a.y), (b.x, b.y)) <= distance

    def _arrange(self, seat: int, cards: dict[str, _Card], frame_id: int) -> tuple[_Layout, list[Event]]:
        """Groups of three or more must be melds; an illegal one is flagged and counts as deadwood."""
        player = self.players[seat]
        groups = self._group(cards)
        melds, loose, events = [], [], []
        for group in groups:
            if len(group) < 3:
                loose += group
                continue
            try:
                melds.append(Meld.of([parse_card(c) for c in group], self.mrules))
            except MeldError as error:
                loose += group
                events.append(self._emit("irregularity", frame_id, player, melds=(group,), flagged=True,
                                         detail=f"{error}; its cards count as deadwood"))
        layout = _Layout({c: (cards[c].x, cards[c].y) for c in cards}, groups, melds, tuple(loose))
        return layout, events

    def _commit_knocker(self, cards: dict[str, _Card], opponent_started: bool, frame_id: int,
                        detail: str = "") -> list[Event]:
        knocker, opponent = self.players[self.knocker], self.players[1 - self.knocker]
        layout, events = self._arrange(self.knocker, cards, frame_id)
        self.layouts[self.knocker] = layout
        event = self._emit("layout", frame_id, knocker, cards=layout.deadwood, detail=detail,
                           melds=tuple(g for g in layout.groups if len(g) >= 3 and _is_meld_group(g, layout)))
        events.insert(0, event)
        held = len(cards)
        hand = [parse_card(c) for c in cards]
        big_gin = held == HAND_SIZE + 1 and self.rules.big_gin_bonus is not None and not layout.deadwood
        if held != HAND_SIZE and not big_gin:
            events.append(self._emit("irregularity", frame_id, knocker, flagged=True,
                                     ruling=knock_with_wrong_count(knocker, opponent, held, opponent_started),
                                     detail=f"{knocker} laid down {held} cards after knocking"))
            return events
        deadwood = arrangement_of(hand, layout.melds, self.mrules).deadwood
        if deadwood > self.limit:
            correctable = min_deadwood(hand, self.mrules) <= self.limit
            events.append(self._emit("irregularity", frame_id, knocker, flagged=True,
                                     ruling=illegal_knock(knocker, opponent, correctable, opponent_started),
                                     detail=f"{knocker} knocked with {deadwood} deadwood as laid out; the limit is {self.limit}"))
        return events

    def _commit_opponent(self, cards: dict[str, _Card], layoff_cards: dict[str, _Card], frame_id: int) -> list[Event]:
        seat = 1 - self.knocker
        player = self.players[seat]
        layout, events = self._arrange(seat, cards, frame_id)
        self.layouts[seat] = layout
        events.insert(0, self._emit("layout", frame_id, player, cards=layout.deadwood,
                                    melds=tuple(g for g in layout.groups if len(g) >= 3 and _is_meld_group(g, layout))))
        events += self._layoffs(layoff_cards, player, frame_id)
        result, ruling, detail = self._result(layout, layoff_cards)
        self.phase = "over"
        flagged = ruling is not None or result is None
        # A §14 ruling (cards missing or over, a knock over the limit) is proposed, not recorded: on camera a
        # card not read looks the same as a card not laid down, so the players confirm it.
        events.append(self._emit("hand_end", frame_id, result=result, ruling=ruling, flagged=flagged,
                                 needs_confirmation=flagged, detail=detail))
        return events

    def _layoffs(self, layoff_cards: dict[str, _Card], player: str, frame_id: int) -> list[Event]:
        """Assign each new card in the knocker's zone to the meld it lies next to, then check it."""
        knocker_layout = self.layouts[self.knocker]
        positions = dict(knocker_layout.cards)
        groups = {meld: [str(c) for c in meld.cards] for meld in knocker_layout.melds}
        assigned: dict[Meld, list[str]] = defaultdict(list)
        left = dict(layoff_cards)
        while left:
            best = min(((math.dist((card.x, card.y), positions[other]), code, meld)
                        for code, card in left.items() for meld, members in groups.items()
                        for other in members + assigned.get(meld, [])), default=None)
            if best is None or best[0] > self.options.layoff_cm:
                break
            _, code, meld = best
            assigned[meld].append(code)
            card = left.pop(code)
            positions[code] = (card.x, card.y)
        events = []
        gin = not knocker_layout.deadwood
        for meld in knocker_layout.melds:
            codes = assigned.get(meld)
            if not codes:
                continue
            problem = ""
            if gin and not self.rules.layoffs_on_gin:
                problem = "no layoffs on a gin hand (000 §9): they count as deadwood"
            else:
                try:
                    Layoff.of(meld, [parse_card(c) for c in codes], self.mrules)
                except MeldError as error:
                    problem = str(error)
            events.append(self._emit("layoff", frame_id, player, cards=tuple(sorted(codes, key=_order)),
                                     melds=(tuple(str(c) for c in meld.cards),), flagged=bool(problem), detail=problem))
        if left:
            events.append(self._emit("irregularity", frame_id, player, cards=tuple(sorted(left, key=_order)), flagged=True,
                                     detail="cards in the knocker's area next to none of his melds: they count as the opponent's deadwood"))
        return events

    def _result(self, layout: _Layout, layoff_cards: dict[str, _Card]):
        """The engine's settlement of the hands as laid (with the §14 ruling where the counts are wrong)."""
        knocker, player = self.players[self.knocker], self.players[1 - self.knocker]
        knocker_layout = self.layouts[self.knocker]
        k_hand = [parse_card(c) for c in knocker_layout.cards]
        o_hand = [parse_card(c) for c in list(layout.cards) + list(layoff_cards)]
        names = (knocker, player)
        if len(o_hand) > HAND_SIZE:
            k_dead = arrangement_of(k_hand, knocker_layout.melds, self.mrules).deadwood
            ruling = opponent_over_at_knock(knocker, player, len(o_hand), k_dead, min_deadwood(o_hand, self.mrules),
                                            gin=k_dead == 0, rules=self.rules)
            return ruling.outcome, ruling, ruling.text
        if len(k_hand) == HAND_SIZE and len(o_hand) == HAND_SIZE:
            try:
                result = settle_hand(k_hand, o_hand, self.rules, knocker_melds=knocker_layout.melds, names=names)
                return hand_score(result, names), None, result.explanation
            except IllegalKnockError:
                pass  # §14.8: the opponent has laid down, so the knock stands as accepted
            except GinError as error:
                return None, None, f"the hand cannot be settled: {error}"
        return self._settle_irregular(k_hand, o_hand, names)

    def _settle_irregular(self, k_hand: list[Card], o_hand: list[Card], names: tuple[str, str]):
        """Score a knock accepted under §14.8, or with missing cards counted 10 each (§14.11, §14.12)."""
        knocker, player = names
        knocker_layout = self.layouts[self.knocker]
        try:
            arranged = arrangement_of(k_hand, knocker_layout.melds, self.mrules)
        except MeldError as error:
            return None, None, f"the hand cannot be settled: {error}"
        k_missing = max(0, HAND_SIZE - len(k_hand))
        ruling: Ruling = (knock_with_wrong_count(knocker, player, len(k_hand), True) if len(k_hand) != HAND_SIZE
                          else illegal_knock(knocker, player, False, True))
        knocker_arr = Arrangement(arranged.melds, arranged.deadwood_cards, arranged.deadwood + 10 * k_missing)
        if knocker_arr.deadwood == 0 and not self.rules.layoffs_on_gin:
            own = solver(self.mrules).arrange(o_hand)
            outcome = _no_layoffs(own)
        else:
            outcome = best_layoffs(knocker_arr.melds, o_hand, self.mrules)
        if len(o_hand) < HAND_SIZE:
            ruling = opponent_short_at_knock(player, len(o_hand))
            short = outcome.opponent
            outcome = replace(outcome, opponent=Arrangement(short.melds, short.deadwood_cards, short.deadwood + ruling.penalty_points))
        result = score(knocker_arr, outcome, self.rules, max(self.limit, knocker_arr.deadwood), names=names)
        return hand_score(result, names), ruling, f"{ruling.text} {result.explanation}"

    # --- bookkeeping ------------------------------------------------------------------------

    def _emit(self, kind: EventKind, frame_id: int, player: str | None = None, **fields) -> Event:
        event = Event(len(self.events) + 1, kind, frame_id, player, **fields)
        self.events.append(event)
        return event


def _place(seen: Sequence[Sighting], radius: float) -> tuple[float, float]:
    """Where one card lies by its readings over a window: the medians of their x and y (a card
    misread once elsewhere must not drag the position of the real one). Where no reading lies
    within ``radius`` of that point, the readings lie at two places, and their medians at one
    between them where no card lies (a fan's last card read in some frames at its lower index
    as if at its upper one, a card's length away, which put it beside its meld): then the place
    read most often (the most readings within ``radius`` of one; the surer ones on a tie).

    >>> upper = [Sighting("8C", c, 11.0, 6.5, "seat0") for c in (0.99, 0.97, 0.96)]
    >>> lower = [Sighting("8C", c, 16.3, 12.6, "seat0") for c in (0.96, 0.97, 0.97)]
    >>> _place(upper[:2] + lower[:1], 1.0), _place(upper + lower, 1.0), _place(upper[:1] + lower, 1.0)
    ((11.0, 6.5), (11.0, 6.5), (16.3, 12.6))
    """
    x, y = median(s.x for s in seen), median(s.y for s in seen)
    if any(math.dist((s.x, s.y), (x, y)) <= radius for s in seen):
        return x, y
    around = [[t for t in seen if math.dist((s.x, s.y), (t.x, t.y)) <= radius] for s in seen]
    most = max(around, key=lambda near: (len(near), sum(t.confidence for t in near)))
    return median(t.x for t in most), median(t.y for t in most)


def _by_weight(seen: Sequence[Sighting], code: str) -> tuple[str, ...]:
    """The alternatives read for one card over a window, the likeliest first: each sighting's
    candidates count more the earlier they stand in its list (a reader names its best guess first).

    >>> _by_weight([Sighting("UNREAD", 0, 0, 0, None, ("KC", "QH")), Sighting("UNREAD", 0, 0, 0, None, ("QH",))], "UNREAD")
    ('QH', 'KC')
    """
    weight: dict[str, float] = defaultdict(float)
    for s in seen:
        for rank, candidate in enumerate(s.candidates):
            if candidate != code:
                weight[candidate] += 1 / (rank + 1)
    return tuple(sorted(weight, key=lambda c: -weight[c]))


def _join_place(places: list[list[Sighting]], sighting: Sighting, radius: float) -> None:
    """Add ``sighting`` to the place (a list of sightings) it lies at, or start a new place."""
    for seen in places:
        if math.dist((seen[0].x, seen[0].y), (sighting.x, sighting.y)) <= radius:
            seen.append(sighting)
            return
    places.append([sighting])


def _likely_misreads(read: str, fits: Sequence[str]) -> tuple[str, ...]:
    """The cards a card read as ``read`` may be, the likeliest first (a misread keeps the rank or the
    suit more often than neither), as many as a question offers.

    >>> _likely_misreads("9C", ["9S", "4D", "8C"])
    ('9S', '8C', '4D')
    """
    read_card = parse_card(read)
    same = lambda c, what: getattr(parse_card(c), what, None) == getattr(read_card, what, None)  # noqa: E731 (a joker has no rank)
    likely = sorted(fits, key=lambda c: (not same(c, "rank"), not same(c, "suit"), _order(c)))
    return tuple(likely[:CHOICES - 1])


def _is_meld(cards: list[Card], rules) -> bool:
    try:
        Meld.of(cards, rules)
    except MeldError:
        return False
    return True


def _rank_between(first: str, second: str) -> bool:
    """Two cards of one suit with one rank left out between them (a run's hole).

    >>> _rank_between("4C", "6C"), _rank_between("4C", "5C"), _rank_between("4C", "6H"), _rank_between("JK", "6C")
    (True, False, False, False)
    """
    a, b = parse_card(first), parse_card(second)
    return isinstance(a, Card) and isinstance(b, Card) and a.suit == b.suit and abs(a.rank - b.rank) == 2


def _is_meld_group(group: tuple[str, ...], layout: _Layout) -> bool:
    return set(group).isdisjoint(layout.deadwood)


def _order(code: str) -> int:
    card = parse_card(code) if code != BACK else None
    return -1 if card is None else getattr(card, "index", 52)  # a joker after the cards


def _no_layoffs(own: Arrangement) -> LayoffOutcome:
    return LayoffOutcome((), own, own.deadwood)


def hand_score(result: HandResult, names: tuple[str, str]) -> HandScore:
    """The match's view of an engine result: who scores what, and how.

    A tie that scores nothing (``tie_is_undercut`` off) is written as no game.
    """
    if result.winner == "none":
        return HandScore.no_game()
    winner = names[0] if result.winner == "knocker" else names[1]
    kind = "big_gin" if result.big_gin else "gin" if result.gin else "undercut" if result.undercut else "knock"
    return HandScore(winner, result.points, kind)
