"""The Wiener Rummy tracker: the Gin tracker's discard-pile reading for 2-6 seats, two decks.

Play goes round the table to the left (seat ``i`` then ``i + 1``); the dealer holds 11 cards and
opens by discarding. The discard pile says what happened as in Gin: a new top card is a discard
by the player to move, the card under it showing again a pickup, a face-down card the knock;
a stock draw is inferred, and an empty stock is rebuilt from the pile (001), so there is no
"no game". After the knock every player lays out: once each seat's area holds ten cards the
round is settled by :func:`engine.wiener.settle_round` with the knocker's melds as laid (cards
lying together are one meld) and the end event carries each seat's penalty points; an area read
with more than ten cards is flagged and waited on. With two decks a card may be seen twice;
three times is a question.

Two decks make the discard pile ambiguous where one deck is not: the card under the top showing
again is a pickup of the top card, or the second copy of it just discarded on top; the top card
still showing may be a second copy discarded onto the first. The place decides: a card showing
where that card lay (``same_place_cm``) is the same card; elsewhere, where a second copy may still
be in play, the players are asked which move it was (a ``move`` question, answered with one of its
candidates, see :meth:`WienerTracker.confirm`). The knocker must be the first to lay out: when
another seat lays out first, the turn order was lost; the players are asked who knocked, the
round is settled with their answer and a flagged irregularity says that the events before the
knock may name the wrong players. A card a player took from the pile, never discarded and did
not lay out is flagged too (the knocker's face-down card excepted).

>>> from engine.zones import default_zones
>>> from engine.tracker import Sighting
>>> zones = default_zones("wiener", players=3)
>>> t = WienerTracker(("Ann", "Ben", "Cleo"), dealer="Cleo", zones=zones, options=TrackerOptions(window=1, quorum=1))
>>> pile = zones.named("discard").centre[0] + 0.5, zones.named("discard").centre[1]
>>> [e.describe() for e in t.update(1, [Sighting("7H", 0.95, *pile, "discard")], still=True)]
['#1 discard Cleo 7H (stock 75)']
>>> [e.describe() for e in t.update(2, [Sighting("9C", 0.95, *pile, "discard")], still=True)]
['#2 stock_draw Ann (stock 74) (inferred)', '#3 discard Ann 9C (stock 74)']

A second 9C lands away from the first: Ben discarded it, or the pile was pushed? The players say.

>>> [e.describe() for e in t.update(3, [Sighting("9C", 0.95, pile[0] + 2, pile[1], "discard")], still=True)]
['#4 move Ben 9C needs confirmation: Ben discarded 9C or nothing moved']
>>> [e.describe() for e in t.confirm(4, "Ben discarded 9C")]
['#5 stock_draw Ben (stock 73) (inferred)', '#6 discard Ben 9C (stock 73)']
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from statistics import median
from typing import Sequence

from engine.cards import ALL_CARDS, JOKER, parse_card
from engine.tracker import (_TWICE, BACK, LAID_OUT_FRAMES, NOTHING, PLACE_QUESTION, UNLEARNED_DECK_CONFIDENCE, UNREAD, Event,
                            GinTracker, Sighting, TrackerError, TrackerOptions, _Card)
from engine.wiener import WienerError, WienerRules, settle_round
from engine.wildmelds import WildMeld, WildMeldError
from engine.zones import FAN_STEP_CM, ZoneMap, default_zones

HAND_SIZE = 10
DECK_SIZE = 106
NOTHING_MOVED = "nothing moved"
"""The answer to a move question when the pile was only pushed."""
LAYOUT_CONFIDENCE = 0.9
"""From the knock on, readings below this need confirmation (before it, :attr:`TrackerOptions.min_confidence`):
the layouts alone decide the penalties. Rendered rounds read with a learned deck (whole rounds 0-5, seeds 6, 8,
10 from the knock on; readings of the players' areas, frame by frame): at 0.8-0.9, 9 of 898 were another card
(one 9S read 9C at 0.89 in every frame, seed 10, which made Dan's 24 points 45); at 0.9 and above, none of 2,279."""


def layout_confidence(deck_learned: bool) -> float:
    """The bar for layout readings with the players' deck learned or not.

    >>> layout_confidence(True), layout_confidence(False)
    (0.9, 0.98)
    """
    return LAYOUT_CONFIDENCE if deck_learned else UNLEARNED_DECK_CONFIDENCE


def took(player: str, card: str) -> str:
    """A move question's answer: ``player`` took ``card`` from the discard pile.

    >>> took("Ann", "7H")
    'Ann took 7H'
    """
    return f"{player} took {card}"


def discarded(player: str, card: str) -> str:
    """A move question's answer: ``player`` discarded ``card``."""
    return f"{player} discarded {card}"


def drew(player: str) -> str:
    """A move question's answer: ``player`` drew from the stock.

    >>> drew("Ann")
    'Ann drew from the stock'
    """
    return f"{player} drew from the stock"


def knocked(player: str) -> str:
    """A move question's answer: ``player`` knocked (the turn order was lost)."""
    return f"{player} knocked"


@dataclass(frozen=True)
class _MoveQuestion:
    """A card on the discard pile that more than one move explains; ``options`` are the answers."""

    code: str
    x: float
    y: float
    options: tuple[str, ...]
    draw_before: bool = False
    """``code`` is a new discard, and the question is how its player drew before it."""


class WienerTracker(GinTracker):
    """Tracks one Wiener Rummy round of ``players`` (2-6, in seat order) dealt by ``dealer``."""

    decks = 2
    _copies = "two decks hold it twice at most"

    def __init__(self, players: Sequence[str], dealer: str, rules: WienerRules = WienerRules(),
                 zones: ZoneMap | None = None, options: TrackerOptions = TrackerOptions(),
                 layout_confidence: float = LAYOUT_CONFIDENCE, play_confidence: float = 0.0) -> None:
        if not 2 <= len(players) <= 6 or len(set(players)) != len(players):
            raise TrackerError(f"Wiener Rummy is tracked for 2-6 players with different names, got {list(players)!r}")
        if dealer not in players:
            raise TrackerError(f"dealer {dealer!r} is not one of the players {', '.join(players)}")
        self.players, self.dealer, self.rules = tuple(players), dealer, rules
        self._play_options = options.asking_below(play_confidence)
        self._layout_options = options.asking_below(layout_confidence)
        self.zones = zones or default_zones("wiener", len(players))
        if self.zones.players != len(players) or self.zones.of_kind("discard") is None:
            raise TrackerError(f"Wiener Rummy needs a zone map with {len(players)} seats and a discard zone")
        self.discard_zone = self.zones.of_kind("discard").name
        self.seat_zones = tuple(self.zones.seat_zone(seat).name for seat in range(len(players)))
        self._start(opener=self.players.index(dealer), stock=DECK_SIZE - HAND_SIZE * len(players) - 1)
        self._places: list[tuple[float, float] | None] = []
        """Where each card of the discard pile lay when it was the top card (parallel to ``pile``)."""
        self._pile_now: dict[str, tuple[float, float] | None] = {}
        """Where each card on the pile is read now (None: read unsurely, so not placed, :meth:`_pile_place`)."""
        self._moves: dict[int, _MoveQuestion] = {}
        self._first_laid: tuple[int, ...] | None = None
        self._taken: list[Counter[str]] = [Counter() for _ in self.players]
        """The cards each seat took from the pile and has not discarded since: they must show in its layout."""
        self._laid_counts: tuple[tuple[int, ...], int] = ((), 0)
        """The cards each seat's area showed after the knock, and the frame they were first shown so."""
        self._taken_asked: set[tuple[int, str]] = set()
        """(seat, card) for each card taken and missing from the layout that the players were asked about."""

    @property
    def options(self) -> TrackerOptions:
        """The options given, with ``min_confidence`` raised to ``play_confidence`` (an untaught deck's,
        :func:`engine.tracker.deck_confidence`); from the knock on, raised to ``layout_confidence`` (see :data:`LAYOUT_CONFIDENCE`).

        >>> t = WienerTracker(("Ann", "Ben"), dealer="Ben")
        >>> t.options.min_confidence, t._layout_options.min_confidence
        (0.8, 0.9)
        """
        return self._play_options if self.phase == "play" else self._layout_options

    def update(self, frame_id: int, sightings: Sequence[Sighting], still: bool) -> list[Event]:
        """As :meth:`GinTracker.update`; a joker read on the stock is its back: the stock lies face down
        (001), and some decks' backs read as a joker. The misread is learned as if the players had named
        it (:attr:`misread`), so a joker read on the discard pile, where a knock lays a face-down card,
        is asked about; the stock is not asked about again after every draw. From the knock on the
        discard pile plays no part: what is read there (the knocker's face-down card read as a joker)
        is no copy of a card laid out.

        >>> from engine.zones import default_zones
        >>> zones = default_zones("wiener", players=2)
        >>> t = WienerTracker(("Ann", "Ben"), dealer="Ben", zones=zones, options=TrackerOptions(window=1, quorum=1))
        >>> t.update(1, [Sighting("JK", 0.45, *zones.named("stock").centre, "stock")], still=True), t.misread
        ([], (('JK', 'BACK'),))
        """
        if self.phase != "play":
            sightings = [s for s in sightings if s.zone != self.discard_zone]
        stock = self.zones.of_kind("stock")
        if still and stock is not None and any((s.zone, s.code) == (stock.name, str(JOKER)) for s in sightings):
            sightings = [replace(s, code=BACK, candidates=()) if (s.zone, s.code) == (stock.name, str(JOKER)) else s
                         for s in sightings]
            if (str(JOKER), BACK) not in self.misread:
                self.misread += ((str(JOKER), BACK),)
        return super().update(frame_id, sightings, still)

    # --- two decks: copies of a card told apart by place ----------------------------------------

    def _votes(self) -> dict[tuple[str, str], list[Sighting]]:
        """Each copy of a card in a zone keeps its own votes: the readings of a code are grouped by
        place over the window, the copy read most often keeps the plain code, a further copy gets a star.
        (Split by confidence per frame instead, the two copies' readings would mix and their median
        place would lie between them, breaking the melds they belong to.) Two places of a code closer
        than :data:`NAMED_APART_CM`, one of them named so by the players (or confirmed as read), are one card
        (:func:`_named_twice`). The stock is one place: its back read at two places is not two cards."""
        readings: dict[tuple[str, str], list[tuple[int, Sighting, bool]]] = defaultdict(list)
        for index, (_, sightings) in enumerate(self._window):
            for raw in sightings:
                if raw.zone is not None:
                    s = self._corrected(raw)
                    if s.code != NOTHING:
                        readings[(s.zone, s.code)].append((index, s, s is not raw))  # answered: named or confirmed
        votes: dict[tuple[str, str], list[Sighting]] = {}
        for (zone, code), seen in readings.items():
            places: list[list[tuple[int, Sighting, bool]]] = []
            for index, s, named in seen:
                place = next((p for p in places if math.dist((p[0][1].x, p[0][1].y), (s.x, s.y))
                              <= self.options.confirm_radius_cm), None)
                if place is None:
                    places.append(place := [])
                place.append((index, s, named))
            places = _named_twice(places)
            if self.zones.named(zone).kind == "stock":
                places = [[r for place in places for r in place]]  # one face-down pile, however its back is read
            places.sort(key=lambda p: (-len({i for i, _, _ in p}), p[0][1].x, p[0][1].y))
            for copy, place in enumerate(places):
                best: dict[int, Sighting] = {}
                for index, s, _ in place:
                    if index not in best or s.confidence > best[index].confidence:
                        best[index] = s
                votes[(zone, code + _TWICE * copy)] = list(best.values())
        return votes

    def _legal_meld(self, codes: list[str]) -> bool:
        """A legal Wiener meld (jokers wild, the ace high or low).

        >>> t = WienerTracker(("Ann", "Ben"), dealer="Ben")
        >>> t._legal_meld(["9S", "9H", "9C"]), t._legal_meld(["9S", "9C", "9C"]), t._legal_meld(["JD", "KD", "JK"])
        (True, False, True)
        """
        try:
            WildMeld.of([parse_card(c) for c in codes], ace_high=True)
        except WildMeldError:
            return False
        return True

    def _completions(self, others: list, reading: dict[str, dict[str, _Card]]) -> tuple[str, ...]:
        """The cards (jokers too) that make a legal Wiener meld with ``others``, but those seen twice
        already (two decks) on the pile or the table.

        >>> t = WienerTracker(("Ann", "Ben"), dealer="Ben")
        >>> t._completions([parse_card("7H"), parse_card("8H")], {"seat0": {}})
        ('6H', '9H', 'JK')
        """
        seen = Counter(self.pile) + Counter(_card_code(c.code) for zone in reading.values() for c in zone.values())
        found = []
        for candidate in (*ALL_CARDS, JOKER):
            if seen[str(candidate)] >= self.decks:
                continue
            try:
                WildMeld.of([*others, candidate], ace_high=True)
            except WildMeldError:
                continue
            found.append(str(candidate))
        return tuple(found)

    # --- the discard pile: which move a card showing there is -----------------------------------

    def _play(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        pile = reading.get(self.discard_zone, {})
        self._pile_now = {_card_code(c.code): self._pile_place(c.x, c.y) for c in pile.values()}
        if self._moves:
            return self._waiting_for_move(frame_id)
        question = self._pile_doubt(pile, frame_id)
        if question:
            return question
        if self.pile and self._same_place(self.pile[-1], self._places[-1]):
            self._places[-1] = self._pile_now[self.pile[-1]]  # follow the pile as it settles
        return super()._play(reading, frame_id)

    def _pile_place(self, x: float, y: float) -> tuple[float, float] | None:
        """A card's place on the pile, or None where it is not known: the table reader puts a pile card it
        reads only unsurely at the pile zone's centre (:meth:`rummyref.pipeline.TableReader.pile_top`),
        and the players name it there; that place says nothing of where the card lies.

        >>> t = WienerTracker(("Ann", "Ben"), dealer="Ben")
        >>> t._pile_place(*t.zones.named(t.discard_zone).centre), t._pile_place(51.2, 38.5)
        (None, (51.2, 38.5))
        """
        centre = self.zones.named(self.discard_zone).centre
        return None if math.dist((x, y), centre) < 1e-6 else (x, y)

    def _same_place(self, code: str, place: tuple[float, float] | None) -> bool:
        """``code`` is read on the pile close to ``place``; a place not known (:meth:`_pile_place`) is
        never the same: the card may be another copy."""
        seen = self._pile_now.get(code)
        return place is not None and seen is not None and math.dist(seen, place) <= self.options.same_place_cm

    def _second_copy_possible(self, code: str) -> bool:
        """A copy of ``code`` may still be in a hand: two decks, and the pile holds fewer than two."""
        return self.pile.count(code) < self.decks

    def _pile_doubt(self, pile: dict[str, _Card], frame_id: int) -> list[Event]:
        """A move question when the card showing is the top or the one under it, not where that card
        lay, and a second copy of it may have been discarded instead."""
        faces = [c for c in pile.values() if c.code != BACK]
        if len(faces) != 1 or BACK in pile or not self.pile or self.pile[-1] == BACK:
            return []
        card = faces[0]
        code = _card_code(card.code)
        top, under = self.pile[-1], (self.pile[-2] if len(self.pile) >= 2 else None)
        player = self.players[self.turn.player]
        if code == top:
            if self._same_place(top, self._places[-1]) or (self._places[-1] is None and self._pile_now[code] is None):
                return []  # where it lay; or read unsurely then and now, the top card as it was
            options = [took(player, top)] if under == top and not self.turn.drawn else []
            if self._second_copy_possible(top):
                options.append(discarded(player, top))
            if not options:
                self._places[-1] = self._pile_now[code]  # only a push explains it
                return []
            options.append(NOTHING_MOVED)
            why = f"{top} on the discard pile lies elsewhere than before"
        elif code == under:
            if not self._second_copy_possible(under):
                return []  # the generic reading: the top card was taken
            if self.turn.drawn:
                why = f"{under} shows on the discard pile again, but {player} has already drawn"
            elif self._same_place(under, self._places[-2]):
                return []  # where it lay: the top card was taken
            else:
                why = f"{under} shows on the discard pile, but not where the {under} under {top} lay"
            options = [took(player, top), discarded(player, under)]
        else:
            return []
        question = _MoveQuestion(code, card.x, card.y, tuple(options))
        event = self._emit("move", frame_id, player, cards=(code,), needs_confirmation=True, candidates=question.options,
                           zone=self.discard_zone, position=(round(card.x, 1), round(card.y, 1)),
                           detail=f"{why}: {' or '.join(question.options)}? (two decks hold every card twice)")
        self._moves[event.seq] = question
        return [event]

    def _waiting_for_move(self, frame_id: int) -> list[Event]:
        """Nothing is committed while a move question is open; if the pile changes before the answer,
        the turn order is lost and the round is left to the players."""
        seq, question = next(iter(self._moves.items()))
        seen = self._pile_now.get(question.code, (math.inf, math.inf))
        if seen is None or math.dist(seen, (question.x, question.y)) <= self.options.confirm_radius_cm:
            return []  # still there (or read unsurely there: not placed)
        self._moves.clear()
        self.phase = "over"
        return [self._emit("hand_end", frame_id, needs_confirmation=True, flagged=True, candidates=question.options,
                           detail=f"the question #{seq} ({' or '.join(question.options)}) was not answered before "
                                  "the discard pile changed: the tracker lost the turn order; record this round by hand")]

    def _ask_knocker(self, frame_id: int) -> list[Event]:
        """Another seat laid out first: the turn order was lost somewhere, so the players say who knocked."""
        first = ", ".join(self.players[seat] for seat in self._first_laid)
        question = _MoveQuestion(BACK, math.nan, math.nan, tuple(knocked(player) for player in self.players))
        event = self._emit("move", frame_id, cards=(BACK,), needs_confirmation=True, candidates=question.options,
                           zone=self.discard_zone,
                           detail=f"{first} laid out first, but by the turn order {self.players[self.knocker]} knocked, "
                                  "and the knocker lays out first (001): the turn order was lost. Who knocked?")
        self._moves[event.seq] = question
        return [event]

    def awaits(self, seq: int) -> bool:
        return seq in self._moves or super().awaits(seq)

    def confirm(self, seq: int, code: str) -> list[Event]:
        """Answer question ``seq``: a card code for a ``reading``, one of the candidates for a ``move``."""
        if seq not in self._moves:
            return super().confirm(seq, code)
        question = self._moves[seq]
        if code not in question.options:
            raise TrackerError(f"event #{seq} asks which move it was: answer one of {', '.join(map(repr, question.options))}, "
                               f"not {code!r}")
        del self._moves[seq]
        frame_id = self._window[-1][0] if self._window else 0
        player = self.players[self.turn.player]
        if question.code == BACK:
            self.knocker = question.options.index(code)
            events = [self._emit("irregularity", frame_id, self.players[self.knocker], flagged=True,
                                 detail=f"the players say {self.players[self.knocker]} knocked: the tracker had lost the turn "
                                        "order, so the discards and pickups before the knock may name the wrong players")]
        elif question.draw_before:
            events = self._pickup(frame_id) if code == took(player, self.pile[-1]) else self._draw_if_not_drawn(frame_id)
            self._pile_now[question.code] = self._pile_place(question.x, question.y)
            events += self._discard(question.code, frame_id)
        elif code == NOTHING_MOVED:
            self._places[-1] = self._pile_place(question.x, question.y)
            events = []
        elif code == took(player, self.pile[-1]):
            events = self._pickup(frame_id)
            self._places[-1] = self._pile_place(question.x, question.y)
        else:
            self._pile_now[question.code] = self._pile_place(question.x, question.y)
            events = self._discard(question.code, frame_id)
        return events + self._reevaluate()

    def _discard(self, code: str, frame_id: int) -> list[Event]:
        """A discard; where the player may have taken the top card unseen first (:meth:`_copies_stacked`),
        the players are asked how they drew."""
        if not self.turn.drawn and self._copies_stacked():
            return self._ask_how_drawn(code, frame_id)
        self._places.append(self._pile_now.get(code))
        self._taken[self.turn.player] -= Counter([code])
        return super()._discard(code, frame_id)

    def _copies_stacked(self) -> bool:
        """The pile's top two cards are the two copies of one card, not known to lie apart: the top one
        taken, the pile may look as before (the second copy lying where the first lay, or either read only
        unsurely, so not placed: :meth:`_pile_place`), and a pickup is not told from a draw from the stock.
        Copies lying apart show a pickup (the one under it showing at its own place)."""
        if len(self.pile) < 2 or self.pile[-1] != self.pile[-2] or self.pile[-1] == BACK:
            return False
        top, under = self._places[-1], self._places[-2]
        return top is None or under is None or math.dist(top, under) <= self.options.same_place_cm

    def _ask_how_drawn(self, code: str, frame_id: int) -> list[Event]:
        player, top = self.players[self.turn.player], self.pile[-1]
        x, y = self._pile_now.get(code) or self.zones.named(self.discard_zone).centre
        question = _MoveQuestion(code, x, y, (took(player, top), drew(player)), draw_before=True)
        event = self._emit("move", frame_id, player, cards=(code,), needs_confirmation=True, candidates=question.options,
                           zone=self.discard_zone, position=(round(x, 1), round(y, 1)),
                           detail=f"{player} discarded {code}; before it, {' or '.join(question.options)}? (two {top} "
                                  "lay on the pile: with the top one taken, the pile looks the same)")
        self._moves[event.seq] = question
        return [event]

    def _pickup(self, frame_id: int) -> list[Event]:
        del self._places[-1:]
        events = super()._pickup(frame_id)
        if events[-1].kind == "pickup":
            self._taken[self.turn.player][events[-1].cards[0]] += 1
        return events

    def _too_many(self, over: tuple[int, ...], laid: list[list[str]], reading: dict[str, dict[str, _Card]],
                  frame_id: int) -> list[Event]:
        """Seats that show more than ten cards: a card read twice, or read where none lies. Nothing is
        laid out or settled on such a table. Where one card is read at two places a fan step or so apart
        (:data:`READ_TWICE_CM`: its index and its picture, or a neighbour's index read as it), the players
        are asked which card lies at the place read less often, if any (:meth:`_read_twice_question`);
        otherwise they are told once, and the tracker waits for ten (or for them to say the layouts are
        complete)."""
        for seat in over:
            question = self._read_twice_question(seat, reading, frame_id)
            if question:
                return question
        key = ("more_than_a_hand", over)
        if key in self._flagged_keys:
            return []
        self._flagged_keys.add(key)
        shown = ", ".join(f"{self.players[seat]} {len(laid[seat])}" for seat in over)
        return [self._emit("irregularity", frame_id, flagged=True,
                           detail=f"more than {HAND_SIZE} cards read in a player's area ({shown}): a card read twice "
                                  "or where none lies; the tracker waits until it reads ten each")]

    def _short_questions(self, short: list[int], laid: list[list[str]], reading: dict[str, dict[str, _Card]],
                         frame_id: int) -> list[Event]:
        """Seats whose areas show fewer than ten cards once every seat has laid out and nothing changed
        for :data:`~engine.tracker.LAID_OUT_FRAMES` frames: a card lies there unseen (its index hidden
        under its neighbour, its face merged with theirs). The players are asked about one place at a
        time, once each: between two neighbours of a row whose step is wider than the fan's usual one,
        the widest first, then a step beyond each row's ends, then between the other neighbours (a reading's
        place can be a little off, so a hidden card need not widen its step); they name the card lying
        there, or none."""
        counts = tuple(len(cards) for cards in laid)
        if counts != self._laid_counts[0]:
            self._laid_counts = (counts, frame_id)
        if not all(laid) or frame_id - self._laid_counts[1] < LAID_OUT_FRAMES:
            self._settled_still = False  # the still frames count towards "done": keep them coming
            return []
        for seat in short:
            zone = self.seat_zones[seat]
            cards = {key: card for key, card in reading.get(zone, {}).items() if card.code not in (BACK, UNREAD)}
            rows = [sorted(group, key=lambda key: cards[key].x) for group in self._group(cards)]
            steps = [[(cards[b].x - cards[a].x, cards[b].y - cards[a].y) for a, b in zip(row, row[1:])] for row in rows]
            fan = median([math.hypot(*step) for row in steps for step in row] or [FAN_STEP_CM])
            places = []  # (how unusual, x, y, where): a step wider than the fan's first, then the rows' ends
            for row, row_steps in zip(rows, steps):
                names = [self._copy_of(key) for key in row]
                for (a, b), (name_a, name_b), step in zip(zip(row, row[1:]), zip(names, names[1:]), row_steps):
                    places.append(((-math.hypot(*step) / fan, 1), (cards[a].x + cards[b].x) / 2, (cards[a].y + cards[b].y) / 2,
                                   f"between {name_a} and {name_b}"))
                dx, dy = (median(s[0] for s in row_steps), median(s[1] for s in row_steps)) if row_steps else (fan, 0.0)
                first, last = cards[row[0]], cards[row[-1]]
                places.append(((-1.0, 0), first.x - dx, first.y - dy, f"before {names[0]}"))
                places.append(((-1.0, 0), last.x + dx, last.y + dy, f"after {names[-1]}"))
            for _, x, y, where in sorted(places, key=lambda place: place[0]):
                x, y = round(x, 1), round(y, 1)
                key = ("short", zone, where)
                inside = self.zones.zone_at(x, y)
                if key in self._flagged_keys or inside is None or inside.name != zone:
                    continue
                self._flagged_keys.add(key)
                return [self._ask_place(zone, x, y, frame_id, (NOTHING,),
                                        f"{self.players[seat]}'s area shows {len(laid[seat])} cards, fewer than "
                                        f"{HAND_SIZE}: {PLACE_QUESTION} {where}, if any?")]
        return []

    def _read_twice_question(self, seat: int, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """The closest two readings of one card in the seat's area, if within :data:`READ_TWICE_CM`: a place
        question about the copy read less often (its key has the star), once per place. The players name
        the card lying there other than that one, or none; their answer replaces what they said of that
        reading before (:meth:`GinTracker.confirm`)."""
        zone = self.seat_zones[seat]
        cards = {key: card for key, card in reading.get(zone, {}).items() if card.code not in (BACK, UNREAD)}
        pairs = sorted((math.dist((cards[a].x, cards[a].y), (cards[b].x, cards[b].y)), a, b)
                       for a in cards for b in cards if a < b and self._copy_of(a) == self._copy_of(b))
        for apart, a, b in pairs:
            if apart > READ_TWICE_CM:
                break
            # The reading the players made of a card the camera could not read, else the one read less often.
            extra = max((a, b), key=lambda k: (self._named_unread(zone, cards[k]), k.endswith(_TWICE)))
            card, code = cards[extra], self._copy_of(extra)
            x, y = round(card.x, 1), round(card.y, 1)
            key = ("read_twice", zone, code, round(x), round(y))
            if key in self._flagged_keys:
                continue
            self._flagged_keys.add(key)
            # The players may have named this reading before: the question is about what they named.
            read = next((o.read for o in self._overrides if o.zone == zone and o.card == code
                         and math.dist((o.x, o.y), (x, y)) <= self.options.confirm_radius_cm), code)
            detail = (f"{self.players[seat]}'s area shows more than {HAND_SIZE} cards, {code} read twice {apart:.1f} cm "
                      f"apart: {PLACE_QUESTION} at ({x:.0f}, {y:.0f}) cm besides that {code}, if any?")
            return [self._ask_place(zone, x, y, frame_id, (NOTHING, code), detail, about=code, read=read)]
        return []

    def _named_unread(self, zone: str, card: _Card) -> bool:
        """The card is what the players named a place the camera read no index at (an unread card)."""
        return any(o.zone == zone and o.read == UNREAD and o.card == self._copy_of(card.code)
                   and math.dist((o.x, o.y), (card.x, card.y)) <= self.options.confirm_radius_cm for o in self._overrides)

    def _taken_not_laid(self, laid: list[list[str]], frame_id: int) -> list[Event]:
        """A card a seat took from the pile and never discarded must lie in its layout (the knocker's
        face-down discard may be one): if not, the pickup was another seat's, or another move."""
        events = []
        for seat, cards in enumerate(laid):
            missing = self._taken[seat] - Counter(cards)
            if sum(missing.values()) > (seat == self.knocker):
                player = self.players[seat]
                events.append(self._emit("irregularity", frame_id, player, cards=tuple(sorted(missing.elements())),
                                         flagged=True, detail=f"{player} took {' '.join(sorted(missing.elements()))} from "
                                         "the discard pile but has not laid it out: the tracker may have given a move "
                                         "to the wrong player"))
        return events

    def _taken_questions(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """A card a seat took from the pile is missing from its layout, where a card of its rank or suit
        lies that the players have not confirmed: that card may be the one taken, misread (7S read as 7C
        breaks a run of spades). Before the layouts are settled the players are asked about it, the likeliest
        first (same rank, then same suit, then the least sure); once per missing card, so a card they
        confirm as read leaves the taken card to :meth:`_taken_not_laid`."""
        events = []
        for seat, zone in enumerate(self.seat_zones):
            cards = {key: card for key, card in reading.get(zone, {}).items() if card.code not in (BACK, UNREAD)}
            missing = self._taken[seat] - Counter(self._copy_of(key) for key in cards)
            if sum(missing.values()) <= (seat == self.knocker):
                continue  # the knocker's face-down discard may be the card taken
            for code in missing:
                if (seat, code) in self._taken_asked:
                    continue
                wanted = parse_card(code)
                suspects = [(getattr(read, "rank", None) != wanted.rank, getattr(read, "suit", None) != wanted.suit,
                             card.confidence, key)
                            for key, card in cards.items() for read in [parse_card(self._copy_of(key))]
                            if read != wanted and not self._confirmed(zone, card)
                            and (getattr(read, "rank", None) == wanted.rank or getattr(read, "suit", None) == wanted.suit)]
                if not suspects:
                    continue
                *_, key = min(suspects)
                self._taken_asked.add((seat, code))
                read = self._copy_of(key)
                events += self._ask(zone, replace(cards[key], code=read, candidates=(code,)), frame_id,
                                    f"{self.players[seat]} took {code} from the discard pile, but it is not read in their "
                                    f"layout: is the card read as {read} the {code}?")
        return events

    def _draw_if_not_drawn(self, frame_id: int) -> list[Event]:
        """An empty stock is first rebuilt from the discard pile but its top card (001)."""
        if not self.turn.drawn and self.stock == 0 and len(self.pile) > 1:
            self.stock, self.pile, self._places = len(self.pile) - 1, self.pile[-1:], self._places[-1:]
        return super()._draw_if_not_drawn(frame_id)

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def _stock_ended(self) -> bool:
        return False  # an empty stock is rebuilt from the discard pile (001)

    def _layouts(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """Settle once every seat shows its ten cards (or the players say the layouts are complete)."""
        laid = [[_card_code(c.code) for c in reading.get(zone, {}).values() if c.code != BACK] for zone in self.seat_zones]
        knocker = self.players[self.knocker]
        if self._moves:
            return []  # who knocked is open
        if self._first_laid is None and any(laid):
            self._first_laid = tuple(seat for seat, cards in enumerate(laid) if cards)
            if self.knocker not in self._first_laid:
                return self._ask_knocker(frame_id)
        short = [seat for seat, cards in enumerate(laid) if len(cards) < HAND_SIZE]
        if short and not self._finish:
            return self._short_questions(short, laid, reading, frame_id)
        over = tuple(seat for seat, cards in enumerate(laid) if len(cards) > HAND_SIZE)
        if over and not self._finish:
            return self._too_many(over, laid, reading, frame_id)
        own = {code: card for code, card in reading.get(self.seat_zones[self.knocker], {}).items() if code != BACK}
        questions = self._misread_questions(self.knocker, own, reading, frame_id) or self._taken_questions(reading, frame_id)
        if questions:
            return questions
        groups_of = lambda group: [_card_code(c) for c in group]  # noqa: E731
        groups = [tuple(groups_of(g)) for g in self._group(own) if len(g) >= 3]
        events = []
        try:
            melds = [WildMeld.of([parse_card(c) for c in g], ace_high=True) for g in groups]
        except WildMeldError as error:
            melds = None
            events.append(self._emit("irregularity", frame_id, knocker, flagged=True, detail=f"{knocker}'s layout: {error}"))
        melded = Counter(c for g in groups for c in g)
        for seat, cards in enumerate(laid):
            mine = seat == self.knocker
            events.append(self._emit("layout", frame_id, self.players[seat], melds=tuple(groups) if mine else (),
                                     cards=tuple((Counter(cards) - melded).elements()) if mine else tuple(cards)))
        events += self._taken_not_laid(laid, frame_id)
        self.phase = "over"
        try:
            if melds is None:
                raise WienerError("the knocker's layout holds no valid meld grouping")
            result = settle_round([[parse_card(c) for c in cards] for cards in laid], self.knocker, self.rules,
                                  knocker_melds=[m.pieces for m in melds])
        except WienerError as error:
            events.append(self._emit("hand_end", frame_id, flagged=True, needs_confirmation=True,
                                     detail=f"the round cannot be settled as laid: {error}"))
            return events
        events.append(self._emit("hand_end", frame_id, penalties=result.penalties, detail=result.explanation))
        return events


READ_TWICE_CM = 4.4
"""Two readings of one card closer than this (half a card's height) in an area holding more cards than a
hand may be one card read twice: its index and its picture, its neighbour's index, or its face found
without an index (an unread card the players named after the card lying there). Rendered rounds 13, 18
and 16: 1.7, 2.2, 2.8-2.9 and 3.6 cm apart; cards of a fan lie a step of about 2 cm apart, so the players
are asked rather than a reading dropped."""

NAMED_APART_CM = 1.6
"""One card may be read at two places about 1.5 cm apart (its index, and its face further along the fan;
a joker's two corners), and the players, asked about each, name or confirm it twice; two cards of a fan
lie a fan step (about 2 cm) apart."""


def _named_twice(places: list[list[tuple[int, Sighting, bool]]]) -> list[list[tuple[int, Sighting, bool]]]:
    """Places of one code in one zone (readings: window index, sighting, named by the players) with two
    places joined where they lie closer than :data:`NAMED_APART_CM` and the players named one of them:
    the same card asked about twice, not the second copy (a misjoin leaves the area a card short, to be
    waited on or asked about, never a card too many).

    >>> at = lambda x, named: [(0, Sighting("JK", 0.9, x, 6.0, "seat0"), named)]
    >>> [len(p) for p in _named_twice([at(25.9, True), at(27.3, True), at(40.0, True)])]
    [2, 1]
    >>> [len(p) for p in _named_twice([at(25.9, False), at(27.3, False)])]  # two copies read, none named
    [1, 1]
    """
    def centre(place: list[tuple[int, Sighting, bool]]) -> tuple[float, float]:
        return median(s.x for _, s, _ in place), median(s.y for _, s, _ in place)

    joined: list[list[tuple[int, Sighting, bool]]] = []
    for place in places:
        named = any(n for _, _, n in place)
        twin = next((j for j in joined if (named or any(n for _, _, n in j))
                     and math.dist(centre(j), centre(place)) < NAMED_APART_CM), None)
        if twin is None:
            joined.append(list(place))
        else:
            twin += place
    return joined


def _card_code(code: str) -> str:
    """The card of a reading; the tracker marks a further copy in one zone with a star."""
    return code.rstrip(_TWICE)
