"""A Wiener Rummy simulator: simple players play a round by :class:`engine.wiener.Round`, the
camera reads the discard pile and the layouts with noise (:class:`engine.simulate.Camera`).

Players take the discard when it lowers their deadwood, discard what leaves the least, and knock
as soon as the rules allow. After the knock every player lays out: the knocker his melds (each
in a row, fanned) and his deadwood apart; the others their ten cards in fanned rows. The truth
is the events in order and :func:`engine.wiener.settle_round`'s penalty points. An empty stock
is rebuilt from the discard pile but its top card (001).

A discard lands anywhere within :data:`DISCARD_SPREAD_CM` of the pile's middle, so a second copy
of a card (two decks) seldom lands where the first lies; every frame carries the last move at the
pile as the players saw it (:attr:`engine.simulate.SimFrame.move`), which is how they answer the
tracker's move questions.

>>> game = simulate_wiener(2, players=4)
>>> game.truth[0].kind, game.truth[-1].kind, len(game.truth[-1].penalties)
('discard', 'hand_end', 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.simulate import FAN_STEP_CM, SHOW_DOWN_HOLD, Camera, Noise, Pace, Placed, SimFrame, feed
from engine.tracker import BACK, Event
from engine.wiener import Round, WienerError, WienerRules, arrange, best_discard, knock_legal, min_deadwood, settle_round
from engine.wiener_tracker import discarded, drew, knocked, took
from engine.zones import CARD_HEIGHT_CM, CARD_WIDTH_CM, Zone, ZoneMap, default_zones

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn")
TABLE_CM = (100.0, 80.0)
MAX_TURNS = 150
"""A round still open after this many turns is played no further (it has no result in the truth)."""
DISCARD_SPREAD_CM = 2.0
"""A discard lands up to this far (in x and in y) from the middle of the discard zone: a card
dropped on the pile does not land where the card under it lies."""


@dataclass
class SimulatedRound:
    seed: int
    players: tuple[str, ...]
    dealer: str
    zones: ZoneMap
    frames: list[SimFrame]
    truth: list[Event]

    @property
    def penalties(self) -> tuple[int, ...] | None:
        return self.truth[-1].penalties if self.truth and self.truth[-1].kind == "hand_end" else None

    def knock_action(self) -> int:
        """The index in :attr:`frames` of the first frame of the knock's action (the hand over the pile
        before the face-down card shows): from there on the round is the knock and the layouts.

        >>> game = simulate_wiener(3, players=4)
        >>> start = game.knock_action()
        >>> game.frames[start - 1].still, game.frames[start].still
        (True, False)
        """
        knock = next(e.frame_id for e in self.truth if e.kind == "knock")
        index = next(i for i, frame in enumerate(self.frames) if frame.frame_id == knock)
        while self.frames[index - 1].still:
            index -= 1
        while not self.frames[index - 1].still:
            index -= 1
        return index


def simulate_wiener(seed: int, players: int = 4, rules: WienerRules = WienerRules(), noise: Noise = Noise(),
                    pace: Pace = Pace()) -> SimulatedRound:
    """Play one round from ``seed`` (the dealer drawn by it); the same seed gives the same round."""
    rng = random.Random(seed)
    names = NAMES[:players]
    dealer = rng.randrange(players)
    zones = default_zones("wiener", players, *TABLE_CM)
    game = Round.deal(players, dealer, seed=rng.randrange(1 << 30))
    game.rules = rules
    camera = Camera(rng, noise, pace)
    truth: list[Event] = []
    pile: list[Placed] = []
    laid: dict[str, Placed] = {}
    discard_zone = zones.of_kind("discard")
    stock_zone = zones.of_kind("stock")

    def view() -> dict[str, Placed]:
        table = dict(laid)
        table["stock"] = Placed(BACK, *stock_zone.centre, stock_zone.name)
        if pile:
            table["pile"] = pile[-1]
        return table

    def record(kind: str, frame: int, seat: int | None = None, **fields) -> None:
        truth.append(Event(0, kind, frame, None if seat is None else names[seat], **fields))

    def stock_left() -> int:
        return len(game.stock)

    first = True
    for _ in range(MAX_TURNS):
        seat = game.current
        hand = game.hands[seat]
        taken = None
        camera.turn = ()
        if not first:
            top = game.discard_pile[-1] if game.discard_pile else None
            better = top is not None and _deadwood_with(hand, top) < min_deadwood(hand)
            if better:
                taken = game.draw_discard()
                pile.pop()
                frame = camera.action(view(), discard_zone.name, took(names[seat], str(taken)))
                record("pickup", frame, seat, cards=(str(taken),), stock=stock_left())
            else:
                rebuilt = game.reshuffles
                game.draw_stock()
                if game.reshuffles > rebuilt:
                    del pile[:-1]  # the pile but its top card became the new stock (001)
                camera.turn += (drew(names[seat]),)
                record("stock_draw", -1, seat, stock=stock_left(), inferred=True)
        choice = [c for c in best_discard(hand).discards if c != taken] or [c for c in hand if c != taken]
        card = choice[0]
        if knock_legal(hand, rules):
            try:
                game.knock(card)
            except WienerError:
                pass  # not with this discard (the card just taken may not go): play on
        if game.phase == "over":
            pile.append(Placed(BACK, *discard_zone.centre, discard_zone.name))
            frame = camera.action(view(), discard_zone.name, knocked(names[seat]))
            _shown(truth, frame)
            record("knock", frame, seat, stock=stock_left())
            break
        game.discard(card)
        cx, cy = discard_zone.centre
        spread = DISCARD_SPREAD_CM
        pile.append(Placed(str(card), cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread), discard_zone.name))
        frame = camera.action(view(), discard_zone.name, discarded(names[seat], str(card)))
        _shown(truth, frame)
        record("discard", frame, seat, cards=(str(card),), stock=stock_left())
        first = False
    else:
        return SimulatedRound(seed, names, names[dealer], zones, camera.frames, truth)
    knocker = game.knocker
    knocker_melds = arrange(game.hands[knocker]).melds
    layouts: list[Event] = []
    for offset in range(players):
        seat = (knocker + offset) % players
        zone = zones.seat_zone(seat)
        if seat == knocker:
            arranged = arrange(game.hands[seat])
            rows = [list(m.pieces) for m in knocker_melds] + [[c] for c in arranged.deadwood_cards]
        else:
            cards = list(game.hands[seat])
            rows = [cards[i:i + 5] for i in range(0, len(cards), 5)]
        laid.update(_lay_out(zone, rows))
        frame = camera.action(view(), zone.name, knocked(names[knocker]))  # the pile's last move is still the knock
        melds = tuple(tuple(str(c) for c in m.pieces) for m in knocker_melds) if seat == knocker else ()
        loose = arrange(game.hands[seat]).deadwood_cards if seat == knocker else game.hands[seat]
        layouts.append(Event(0, "layout", frame, names[seat], cards=tuple(str(c) for c in loose), melds=melds))
    camera.hold(SHOW_DOWN_HOLD)  # the players look at the table: time to ask about a card the camera cannot see
    # the tracker reports the layouts by seat, once the last one is down
    truth += [replace(e, frame_id=frame) for e in sorted(layouts, key=lambda e: names.index(e.player))]
    result = settle_round(game.hands, knocker, rules, knocker_melds=[m.pieces for m in knocker_melds])
    record("hand_end", frame, penalties=result.penalties, detail=result.explanation)
    return SimulatedRound(seed, names, names[dealer], zones, camera.frames, truth)


def _deadwood_with(hand: list, top) -> int:
    """The least deadwood after taking ``top`` and discarding another card."""
    choice = best_discard(hand + [top])
    if any(c != top for c in choice.discards):
        return choice.deadwood
    return min_deadwood(hand)


def _shown(truth: list[Event], frame: int) -> None:
    """A stock draw shows only with the discard (or knock) that follows it."""
    if truth and truth[-1].kind == "stock_draw" and truth[-1].frame_id == -1:
        last = truth[-1]
        truth[-1] = Event(0, last.kind, frame, last.player, stock=last.stock, inferred=True)


def _lay_out(zone: Zone, rows: list[list]) -> dict[str, Placed]:
    """Groups fanned in a zone: side by side along a wide zone (loose single cards in a second row),
    one above the other in a tall one (two loose cards a row). Keys are unique per physical card."""
    x0, y0, x1, y1 = zone.rect
    placed: dict[str, Placed] = {}
    wide = x1 - x0 > y1 - y0
    groups = [r for r in rows if len(r) > 1]
    singles = [r[0] for r in rows if len(r) == 1]
    spots: list[tuple[list, float, float]] = []
    if wide:
        x = x0 + CARD_WIDTH_CM
        for group in groups:
            spots.append((group, x, y0 + (y1 - y0) * 0.3))
            x += (len(group) - 1) * FAN_STEP_CM + CARD_WIDTH_CM + 4
        spots += [([card], x0 + CARD_WIDTH_CM + i * 8.0, y0 + (y1 - y0) * 0.75) for i, card in enumerate(singles)]
    else:
        y = y0 + CARD_HEIGHT_CM / 2 + 0.5
        for group in groups:
            spots.append((group, x0 + CARD_WIDTH_CM / 2 + 0.5, y))
            y += CARD_HEIGHT_CM + 0.7
        for i, card in enumerate(singles):
            spots.append(([card], x0 + CARD_WIDTH_CM / 2 + 0.5 + (i % 2) * 8.0, y + (i // 2) * (CARD_HEIGHT_CM + 0.7)))
    for group, x, y in spots:
        for i, card in enumerate(group):
            key = f"{zone.name}:{x:.1f}:{y:.1f}:{i}"
            placed[key] = Placed(str(card), x + i * FAN_STEP_CM, y, zone.name)
    return placed


def track_wiener(game: SimulatedRound, answer: bool = True, options=None) -> tuple[list[Event], list[tuple[Event, str]]]:
    """The round through a :class:`~engine.wiener_tracker.WienerTracker`; questions answered from the
    table as a player would (:meth:`engine.simulate.SimFrame.answer`, :meth:`~engine.simulate.SimFrame.answer_move`).

    Returns the events committed (questions left out) and each question with its answer ('' if none).
    """
    from engine.tracker import TrackerOptions
    from engine.wiener_tracker import WienerTracker

    tracker = WienerTracker(game.players, game.dealer, zones=game.zones, options=options or TrackerOptions())
    return feed(tracker, game.frames, answer, limit=100)
