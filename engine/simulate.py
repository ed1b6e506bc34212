"""A Gin simulator: plays whole hands with simple rule-following players and emits what a camera
would read, frame by frame, so the tracker can be tested end to end without images.

Players draw the discard if it lowers their deadwood (else the stock), discard the card that
leaves the least deadwood (the highest of those), and knock once their deadwood is at or below
their own threshold (some play for gin). The knocker lays out the engine's arrangement; the
opponent lays out his melds and lays off as the engine's best choice says.

Each action is a few frames with a hand over the table (not still; cards under the hand are
hidden) followed by still frames in which every visible card is read with noise: dropped
readings, single-frame misreads, and now and then a card read with low confidence (wrong or
right) for a whole still period. The ground truth comes along: the events in order, the true
hands and the engine's settlement.

>>> hand = simulate_hand(7)
>>> hand.truth[0].kind, hand.truth[-1].kind
('discard', 'hand_end')
>>> hand.frames[0].frame_id, all(f.frame_id == i for i, f in enumerate(hand.frames))
(0, True)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Sequence

from engine.cards import ALL_CARDS, Card
from engine.dealing import StockEnd, deal_plan, stock_end
from engine.gin import best_layoffs, knock_limit, meld_rules, settle_hand
from engine.match import HandScore
from engine.melds import Arrangement, Meld, MeldRules, solver
from engine.rules import GinRules
from engine.tracker import BACK, LAID_OUT_FRAMES, NOTHING, PLACE_QUESTION, QUESTION_KINDS, Event, Sighting, hand_score
from engine.zones import CARD_HEIGHT_CM, CARD_WIDTH_CM, FAN_STEP_CM, ZoneMap, default_zones

_CARD_CODE = re.compile(r"\b(?:(?:10|[2-9AJQK])[SHDC]|JK)\b")
MELD_GAP_CM = 8.0
"""Free space between two melds' outermost possible layoffs."""
SHOW_DOWN_HOLD = 2 * LAID_OUT_FRAMES
"""The players leave the last table of a hand still this many more frames (they read the result) before
they gather the cards: time for the tracker to ask about a layoff it cannot read."""
ANSWER_SURE_CM = 1.0
"""A question pointing this close to a card's centre is about that card."""
ON_CARD_CM = 0.5
"""A question pointing no farther than this beyond every card's edge points at a card (cards lie
turned a little); beyond, the players see the bare table there."""
LOOSE_STEP_CM = 8.0
"""Deadwood cards lie apart from each other."""


@dataclass(frozen=True)
class Noise:
    """How badly the simulated recognizer reads: per card and still frame ``drop`` (not read at
    all) and ``flip`` (read as another card, often confidently); per card and still period
    ``doubt`` (read with low confidence the whole period, half the time as a wrong card)."""

    drop: float = 0.02
    flip: float = 0.005
    doubt: float = 0.01
    jitter_cm: float = 0.2
    confidence: tuple[float, float] = (0.88, 0.99)
    doubt_confidence: tuple[float, float] = (0.35, 0.75)


QUIET = Noise(drop=0.0, flip=0.0, doubt=0.0, jitter_cm=0.0)


@dataclass(frozen=True)
class Pace:
    """How many frames an action takes: a hand over the table, then the table still."""

    moving: tuple[int, int] = (3, 8)
    still: tuple[int, int] = (9, 14)


@dataclass(frozen=True)
class Placed:
    """A card as it really lies: code (``BACK`` face down), table position, zone name."""

    code: str
    x: float
    y: float
    zone: str


@dataclass(frozen=True)
class SimFrame:
    """One camera frame: what the recognizer read, whether the table is still, and the truth."""

    frame_id: int
    sightings: tuple[Sighting, ...]
    still: bool
    table: tuple[Placed, ...]
    move: str | None = None
    """What the players saw happen in the action this frame belongs to, in the words of a move
    question's answers (``'Ann took 7H'``); None where the simulator does not say."""
    turn: tuple[str, ...] = ()
    """The moves of the player to move so far this turn, as the players saw them (a draw from the stock
    too, which changes nothing the camera sees of the table)."""

    def answer(self, question: Event) -> str | None:
        """What a player looking at the table answers: the card at the place the question points at.
        A place read off a card's index can be a fan step off; then the card read, if it lies at that
        place too (and the question is not about a card read twice), else the nearest card there.
        :data:`~engine.tracker.NOTHING` where no card of the zone lies at that place (the camera
        read the bare table); None (no answer) where the question points at no place.

        >>> frame = SimFrame(1, (), True, (Placed("7H", 40.0, 30.0, "discard"),))
        >>> ask = lambda x: Event(1, "reading", 1, cards=("UNREAD",), needs_confirmation=True, zone="discard", position=(x, 30.0))
        >>> frame.answer(ask(42.0)), frame.answer(ask(50.0))
        ('7H', 'NONE')
        >>> SimFrame(1, (), True, frame.table + (Placed("7D", 40.0, 30.0, "discard"),)).answer(ask(40.0))  # laid on top
        '7D'

        A misreading names a card lying elsewhere in the zone: the players name the card at the place.

        >>> apart = SimFrame(1, (), True, (Placed("4S", 12.0, 16.2, "seat1"), Placed("AC", 9.0, 6.5, "seat1")))
        >>> apart.answer(Event(1, "reading", 1, cards=("AC",), needs_confirmation=True, zone="seat1", position=(14.0, 12.6)))
        '4S'

        Asked about a place beside cards read (:data:`~engine.tracker.PLACE_QUESTION`), they name a card
        only if one lies there, never its neighbour a fan step away:

        >>> from dataclasses import replace
        >>> place = lambda x: replace(ask(x), detail=f"{PLACE_QUESTION} before 7H, if any?")
        >>> frame.answer(place(38.0)), frame.answer(replace(place(38.0), detail=f"{PLACE_QUESTION} before 8H, if any?"))
        ('NONE', '7H')

        Two copies of a card side by side (two decks), the camera reading one: the other is the card there.

        >>> twins = SimFrame(1, (), True, (Placed("8H", 9.65, 30.0, "discard"), Placed("8H", 11.65, 30.0, "discard")))
        >>> twins.answer(replace(place(12.6), detail=f"{PLACE_QUESTION} after 8H, if any?"))
        '8H'
        >>> twins.answer(replace(place(13.6), detail=f"{PLACE_QUESTION} after 8H, if any?"))
        'NONE'
        """
        if question.position is None:
            return None
        x, y = question.position
        here = [p for p in self.table if p.zone == question.zone]
        distance = lambda p: (p.x - x) ** 2 + (p.y - y) ** 2  # noqa: E731
        if PLACE_QUESTION in question.detail:
            # A place a fan step from cards read: the players name a card lying there, never the neighbours
            # the question names; but a second copy of a neighbour's card (two decks) within half a fan step
            # is the card lying there.
            named = set(_CARD_CODE.findall(question.detail))

            def neighbour(p: Placed) -> bool:
                return p.code in named and not (distance(p) < (FAN_STEP_CM / 2) ** 2 and any(
                    q is not p and q.code == p.code and distance(q) <= (2 * FAN_STEP_CM) ** 2 for q in here))

            there = [p for p in reversed(here) if distance(p) <= FAN_STEP_CM ** 2 and not neighbour(p)]
            return min(there, key=distance).code if there else NOTHING
        under = [p for p in here if abs(p.x - x) <= CARD_WIDTH_CM / 2 + ON_CARD_CM and abs(p.y - y) <= CARD_HEIGHT_CM / 2 + ON_CARD_CM]
        if not under:
            return NOTHING
        # Of two cards at one place the one laid last lies on top: that is the card the players see.
        nearest = min(reversed(under), key=distance)
        read = question.cards[0] if question.cards else None
        if distance(nearest) > ANSWER_SURE_CM ** 2 and "twice" not in question.detail \
                and any(p.code == read for p in under):
            return read
        return nearest.code

    def answer_move(self, question: Event) -> str | None:
        """What the players answer when asked which move a card on the pile was: the move they saw,
        if the question offers it; that nothing moved, if the move they saw was another player's, or
        no move of this turn took or discarded the card asked about (it only slid, say as the
        player knocked). Asked how a player drew before a discard, the move of this turn they saw.
        None (no answer) when they cannot tell which of the offered answers it was.

        >>> frame = SimFrame(1, (), True, (), move="Ben discarded 9H", turn=("Ben took 7S", "Ben discarded 9H"))
        >>> frame.answer_move(Event(1, "move", 1, "Ben", candidates=("Ben took 7S", "Ben drew from the stock")))
        'Ben took 7S'

        Ann took Dan's 6D, which bared Cleo's 7C, and knocks; the 7C, read a little elsewhere, only slid:

        >>> knock = SimFrame(1, (), True, (), move="Ann knocked", turn=("Ann took 6D", "Ann knocked"))
        >>> knock.answer_move(Event(1, "move", 1, "Ann", cards=("7C",), candidates=("Ann discarded 7C", "nothing moved")))
        'nothing moved'
        >>> knock.answer_move(Event(1, "move", 1, "Ann", cards=("6D",), candidates=("Ann discarded 6D", "nothing moved")))
        """
        if self.move in question.candidates:
            return self.move
        seen = [move for move in self.turn if move in question.candidates]
        if seen:
            return seen[-1]
        nothing = [c for c in question.candidates if not c.startswith(f"{question.player} ")]
        if len(nothing) != 1:
            return None
        if self.move is not None and not self.move.startswith(f"{question.player} "):
            return nothing[0]
        if not question.cards:
            return None
        moved = any(move.endswith(f" {question.cards[0]}") for move in (*self.turn, self.move) if move)
        return None if moved else nothing[0]


def feed(tracker, frames: Sequence[SimFrame], answer: bool = True, limit: int = 200) -> tuple[list[Event], list[tuple[Event, str]]]:
    """Every frame through a tracker (:class:`~engine.tracker.GinTracker` or a subclass); the players
    answer each question from the table (up to ``limit`` answers) unless ``answer`` is False.

    Returns the events committed (questions left out) and each question with its answer.
    """
    committed: list[Event] = []
    asked: list[tuple[Event, str]] = []
    for frame in frames:
        pending = tracker.update(frame.frame_id, frame.sightings, frame.still)
        while pending:
            event = pending.pop(0)
            if not (event.needs_confirmation and event.kind in QUESTION_KINDS):
                committed.append(event)
                continue
            reply = None
            if answer and len(asked) < limit and tracker.awaits(event.seq):  # an earlier answer may have settled it
                reply = frame.answer(event) if event.kind == "reading" else frame.answer_move(event)
            asked.append((event, reply or ""))
            if reply:
                pending += tracker.confirm(event.seq, reply)
    return committed, asked


@dataclass
class SimulatedHand:
    """One simulated hand: frames, the true events (``seq`` 0, ``frame_id`` where they show) and hands."""

    seed: int
    players: tuple[str, str]
    dealer: str
    frames: list[SimFrame]
    truth: list[Event]
    result: HandScore
    hands: dict[str, tuple[Card, ...]] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        """``knock``, ``gin``, ``undercut`` or ``no_game``."""
        return self.result.kind


class Camera:
    """Turns the true table into frames with noise."""

    def __init__(self, rng: random.Random, noise: Noise, pace: Pace) -> None:
        self.rng, self.noise, self.pace = rng, noise, pace
        self.frames: list[SimFrame] = []
        self.move: str | None = None
        self.turn: tuple[str, ...] = ()
        """The moves of the player to move so far (:attr:`SimFrame.turn`); the game starts each turn anew."""

    def action(self, table: dict[str, Placed], zone: str, move: str | None = None) -> int:
        """A hand reaches over ``zone`` (its cards are hidden), then the table lies still; ``move``
        is what the players saw happen (:attr:`SimFrame.move`).

        Returns the id of the first still frame, where the change can first be seen."""
        self.move = move
        self.turn += (move,) if move else ()
        placed = tuple(table.values())
        for _ in range(self.rng.randint(*self.pace.moving)):
            visible = [p for p in placed if not (p.zone == zone and self.rng.random() < 0.7)]
            self._frame(visible, still=False, placed=placed, doubts={})
        doubts = {p.code: self._doubt(p.code) for p in placed
                  if p.code not in (BACK, "JK") and self.rng.random() < self.noise.doubt}
        first = len(self.frames)
        self._last = placed, doubts
        for _ in range(self.rng.randint(*self.pace.still)):
            self._frame(placed, still=True, placed=placed, doubts=doubts)
        return first

    def hold(self, frames: int) -> None:
        """The table of the last action lies still ``frames`` more frames (the players read the result)."""
        placed, doubts = self._last
        for _ in range(frames):
            self._frame(placed, still=True, placed=placed, doubts=doubts)

    def _doubt(self, code: str) -> tuple[str, float, tuple[str, ...]]:
        card = _card(code)
        confidence = self.rng.uniform(*self.noise.doubt_confidence)
        if self.rng.random() < 0.5:
            return code, confidence, (_lookalike(card, self.rng),)
        wrong = _lookalike(card, self.rng)
        return wrong, confidence, (code,)

    def _frame(self, visible: Sequence[Placed], still: bool, placed: tuple[Placed, ...],
               doubts: dict[str, tuple[str, float, tuple[str, ...]]]) -> None:
        n, rng = self.noise, self.rng
        sightings = []
        for p in visible:
            if rng.random() < n.drop:
                continue
            code, confidence, candidates = p.code, rng.uniform(*n.confidence), ()
            if p.code in doubts:
                code, confidence, candidates = doubts[p.code]
            elif p.code != BACK and rng.random() < n.flip:
                code = str(rng.choice(ALL_CARDS))
            x, y = p.x + rng.gauss(0, n.jitter_cm), p.y + rng.gauss(0, n.jitter_cm)
            sightings.append(Sighting(code, round(confidence, 3), x, y, p.zone, candidates))
        self.frames.append(SimFrame(len(self.frames), tuple(sightings), still, placed, self.move, self.turn))


def _lookalike(card: Card, rng: random.Random) -> str:
    """A card a recognizer might confuse with ``card``: same rank other suit, or a neighbouring rank."""
    if rng.random() < 0.5:
        return str(Card(card.rank, rng.choice([s for s in "SHDC" if s != card.suit])))
    return str(Card(card.rank % 13 + 1, card.suit))


class _Table:
    """The true table: the stock, the discard pile and the layouts, with positions."""

    def __init__(self, zones: ZoneMap, rng: random.Random, mrules: MeldRules) -> None:
        self.zones, self.rng, self.mrules = zones, rng, mrules
        self.stock_zone = zones.of_kind("stock")
        self.discard_zone = zones.of_kind("discard")
        self.pile: list[Placed] = []
        self.laid: dict[str, Placed] = {}

    def view(self, stock: int) -> dict[str, Placed]:
        table = dict(self.laid)
        if stock:
            table["stock"] = Placed(BACK, *self.stock_zone.centre, self.stock_zone.name)
        if self.pile:
            table["pile"] = self.pile[-1]
        return table

    def discard(self, code: str) -> None:
        cx, cy = self.discard_zone.centre
        self.pile.append(Placed(code, cx + self.rng.uniform(-0.6, 0.6), cy + self.rng.uniform(-0.6, 0.6),
                                self.discard_zone.name))

    def lay_out(self, seat: int, arrangement: Arrangement) -> dict[Meld, float]:
        """Melds fanned in a row, deadwood in a second row; returns each meld's first card's x."""
        zone = self.zones.seat_zone(seat)
        x0, y0, x1, y1 = zone.rect
        row, loose_row = y0 + (y1 - y0) * 0.3, y0 + (y1 - y0) * 0.75
        x, starts = x0 + 2 * FAN_STEP_CM + 1, {}
        for meld in arrangement.melds:
            starts[meld] = x
            for i, card in enumerate(meld.cards):
                self._place(card, x + i * FAN_STEP_CM, row, zone.name)
            x += (len(meld.cards) - 1 + 4) * FAN_STEP_CM + MELD_GAP_CM
        for i, card in enumerate(arrangement.deadwood_cards):
            self._place(card, x0 + 4 + i * LOOSE_STEP_CM, loose_row, zone.name)
        return starts

    def lay_off(self, seat: int, onto: Meld, cards: Sequence[Card], starts: dict[Meld, float]) -> None:
        """Cards lower than a run go before its first card, higher ones after its last; a card added to a
        set goes after its last card, as players lay it: never over a card of the fan."""
        zone = self.zones.seat_zone(seat)
        row = zone.rect[1] + (zone.rect[3] - zone.rect[1]) * 0.3
        result = Meld.of(onto.cards + tuple(cards), self.mrules)
        first = result.cards.index(onto.cards[0])
        end = len(onto.cards)
        for card in cards:
            offset = result.cards.index(card) - first
            if 0 <= offset < len(onto.cards):  # inside the fan: a set's suit order, not where it is laid
                offset, end = end, end + 1
            self._place(card, starts[onto] + offset * FAN_STEP_CM, row, zone.name)

    def _place(self, card: Card, x: float, y: float, zone: str) -> None:
        self.laid[str(card)] = Placed(str(card), x, y, zone)


@dataclass
class _Player:
    name: str
    hand: list[Card]
    knock_at: int


def _discard_choice(hand: Sequence[Card], keep: Card | None, mrules: MeldRules) -> tuple[Card, int]:
    """The discard leaving the least deadwood, the highest card among those; never ``keep``."""
    choice = solver(mrules).discards(list(hand))
    options = [(deadwood, -card.gin_value, -card.index, card) for card, deadwood in choice.deadwood_after if card != keep]
    deadwood, _, _, card = min(options)
    return card, deadwood


def simulate_hand(seed: int, rules: GinRules = GinRules(), zones: ZoneMap | None = None, noise: Noise = Noise(),
                  pace: Pace = Pace(), players: tuple[str, str] = ("Anna", "Ben"), dealer: str | None = None) -> SimulatedHand:
    """Play one hand from ``seed``; the same seed gives the same hand, frames and noise."""
    rng = random.Random(seed)
    zones = zones or default_zones("gin", 2)
    dealer = dealer or players[rng.randrange(2)]
    forehand = players[1 - players.index(dealer)]
    plan = deal_plan(rules, dealer, forehand)
    mrules, limit = meld_rules(rules), knock_limit(rules)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    thresholds = (limit, limit, limit // 2, 0)
    seats = {name: _Player(name, [], rng.choice(thresholds)) for name in players}
    seats[forehand].hand = deck[:plan.forehand_cards]
    seats[dealer].hand = deck[plan.forehand_cards:plan.forehand_cards + plan.dealer_cards]
    stock = deck[plan.forehand_cards + plan.dealer_cards:]
    table, camera = _Table(zones, rng, mrules), Camera(rng, noise, pace)
    truth: list[Event] = []

    def record(kind: str, frame: int, player: str | None = None, **fields) -> None:
        truth.append(Event(0, kind, frame, player, **fields))

    turn, first_turn = forehand, True
    while True:
        me = seats[turn]
        seat = players.index(turn)
        picked = None
        if not first_turn:
            top = table.pile[-1] if table.pile else None
            take = False
            if top is not None:
                top_card = _card(top.code)
                after = _discard_choice(me.hand + [top_card], top_card, mrules)[1]
                take = after < solver(mrules).min_deadwood(me.hand)
            if take:
                table.pile.pop()
                picked = top_card
                me.hand.append(picked)
                frame = camera.action(table.view(len(stock)), table.discard_zone.name)
                record("pickup", frame, turn, cards=(str(picked),), stock=len(stock))
            else:
                me.hand.append(stock.pop())
                record("stock_draw", -1, turn, stock=len(stock), inferred=True)
        card, deadwood = _discard_choice(me.hand, picked, mrules)
        me.hand.remove(card)
        if deadwood <= me.knock_at:
            table.pile.append(Placed(BACK, *table.discard_zone.centre, table.discard_zone.name))
            frame = camera.action(table.view(len(stock)), table.discard_zone.name)
            _fix_inferred(truth, frame)
            record("knock", frame, turn, stock=len(stock))
            return _show_down(seed, players, dealer, seats, turn, rules, mrules, table, camera, stock, record, truth)
        table.discard(str(card))
        frame = camera.action(table.view(len(stock)), table.discard_zone.name)
        _fix_inferred(truth, frame)
        record("discard", frame, turn, cards=(str(card),), stock=len(stock))
        if stock_end(rules, len(stock), "discard") is StockEnd.NO_GAME:
            result = HandScore.no_game()
            record("hand_end", frame, result=result, stock=len(stock))
            return SimulatedHand(seed, players, dealer, camera.frames, truth, result,
                                 {p: tuple(s.hand) for p, s in seats.items()})
        turn, first_turn = players[1 - seat], False


def _fix_inferred(truth: list[Event], frame: int) -> None:
    """A stock draw shows only with the discard that follows it."""
    if truth and truth[-1].kind == "stock_draw" and truth[-1].frame_id == -1:
        last = truth[-1]
        truth[-1] = Event(0, last.kind, frame, last.player, stock=last.stock, inferred=True)


def _card(code: str) -> Card:
    return next(c for c in ALL_CARDS if str(c) == code)


def _show_down(seed, players, dealer, seats, knocker, rules, mrules, table: _Table, camera: Camera,
               stock, record, truth) -> SimulatedHand:
    """The knocker lays out (in one or two goes), the opponent lays out and lays off; the engine settles."""
    opponent = players[1 - players.index(knocker)]
    k_seat, o_seat = players.index(knocker), players.index(opponent)
    k_hand, o_hand = seats[knocker].hand, seats[opponent].hand
    arranged = solver(mrules).arrange(k_hand)
    rng = camera.rng
    if rng.random() < 0.5 and len(arranged.melds) > 1:  # first the melds, then the rest after a pause
        first = Arrangement(arranged.melds[:1], (), 0)
        table.lay_out(k_seat, first)
        camera.action(table.view(len(stock)), table.zones.seat_zone(k_seat).name)
    starts = table.lay_out(k_seat, arranged)
    frame = camera.action(table.view(len(stock)), table.zones.seat_zone(k_seat).name)
    record("layout", frame, knocker, cards=tuple(str(c) for c in arranged.deadwood_cards),
           melds=tuple(tuple(str(c) for c in m.cards) for m in arranged.melds))
    if arranged.deadwood == 0 and not rules.layoffs_on_gin:
        own, layoffs = solver(mrules).arrange(o_hand), ()
    else:
        outcome = best_layoffs(arranged.melds, o_hand, mrules)
        own, layoffs = outcome.opponent, outcome.layoffs
    laid_off = {c for layoff in layoffs for c in layoff.cards}
    own_cards = [c for c in o_hand if c not in laid_off]
    own = Arrangement(own.melds, tuple(c for c in own_cards if c not in {x for m in own.melds for x in m.cards}), own.deadwood)
    table.lay_out(o_seat, own)
    frame = camera.action(table.view(len(stock)), table.zones.seat_zone(o_seat).name)
    opp_layout = (opponent, tuple(str(c) for c in own.deadwood_cards), tuple(tuple(str(c) for c in m.cards) for m in own.melds))
    if layoffs:
        for layoff in layoffs:
            table.lay_off(k_seat, layoff.onto, layoff.cards, starts)
        frame = camera.action(table.view(len(stock)), table.zones.seat_zone(k_seat).name)
    record("layout", frame, opp_layout[0], cards=opp_layout[1], melds=opp_layout[2])
    for layoff in sorted(layoffs, key=lambda layoff: arranged.melds.index(layoff.onto)):
        record("layoff", frame, opponent, cards=tuple(str(c) for c in layoff.cards),
               melds=(tuple(str(c) for c in layoff.onto.cards),))
    camera.hold(SHOW_DOWN_HOLD)
    engine_result = settle_hand(k_hand, o_hand, rules, knocker_melds=arranged.melds, names=(knocker, opponent))
    result = hand_score(engine_result, (knocker, opponent))
    record("hand_end", frame, result=result, detail=engine_result.explanation)
    return SimulatedHand(seed, players, dealer, camera.frames, truth, result,
                         {knocker: tuple(k_hand), opponent: tuple(o_hand)})
