"""Cards lying unread on a rendered table become UNREAD sightings at their places (vision.presence in TableReader)."""

import math
from dataclasses import replace

import pytest

from engine.simulate import Placed
from engine.tracker import BACK, UNREAD
from engine.zones import default_zones
from rummyref.pipeline import INDEX_TO_CENTRE_CM, TableReader, make_calibrator
from rummyref.render_game import GameRenderer
from vision.observation import CardObservation
from vision.presence import table_view

ZONES = default_zones("gin", 2)
STOCK = Placed(BACK, *ZONES.named("stock").centre, "stock")
FAN = [Placed(code, 10.0 + 2.0 * i, 46.0, "seat0") for i, code in enumerate(("JD", "QD", "KD"))]
LOOSE = Placed("5C", 40.0, 55.0, "seat0")


def read(table, seen=()):
    """The reader's sightings of a rendered still ``table`` when the recognizer read only the cards ``seen``
    (each at its upper-left index, as a fanned card shows)."""
    renderer = GameRenderer(1280, 720, (ZONES.width, ZONES.height), seed=5)
    image = renderer.render(tuple(table), still=True)
    calibration = make_calibrator((ZONES.width, ZONES.height)).update(image).calibration
    index = lambda p: renderer._project([(p.x - INDEX_TO_CENTRE_CM[0], p.y - INDEX_TO_CENTRE_CM[1])])[0]
    observations = [CardObservation(p.code, 0.95, (tuple(map(float, index(p))),)) for p in seen]
    view = table_view(image, calibration.homography, (ZONES.width, ZONES.height))
    return TableReader(None, ZONES, None).sightings(observations, calibration, view)


def unread(sightings):
    return [(s.zone, s.x, s.y) for s in sightings if s.code == UNREAD]


def test_a_table_read_in_full_has_no_unread_card_and_the_stock_and_markers_are_none():
    assert unread(read([STOCK, *FAN, LOOSE], seen=[*FAN, LOOSE])) == []


def test_a_discard_nobody_read_is_an_unread_card_where_it_lies():
    [(zone, x, y)] = unread(read([STOCK, Placed("QC", 44.7, 30.1, "discard")]))
    assert zone == "discard" and math.dist((x, y), (44.7, 30.1)) < 1.0


@pytest.mark.parametrize("missing", [0, 1, 2], ids=["first", "middle", "last"])
def test_a_fanned_card_not_read_is_asked_about_at_its_place(missing):
    seen = [p for i, p in enumerate(FAN) if i != missing] + [LOOSE]
    [(zone, x, y)] = unread(read([STOCK, *FAN, LOOSE], seen=seen))
    assert zone == "seat0" and math.dist((x, y), (FAN[missing].x, FAN[missing].y)) < 1.0


def test_a_pile_read_only_unsurely_is_one_unread_card_at_the_piles_place_with_the_readings_as_candidates():
    from engine.tracker import Sighting

    reader = TableReader(None, ZONES, None)
    pile = ZONES.named("discard")
    weak = [Sighting("KC", 0.42, pile.centre[0] + 1.7, pile.centre[1], "discard"),
            Sighting("QH", 0.34, pile.centre[0] + 0.1, pile.centre[1] + 0.1, "discard", ("JH",)),
            Sighting("7S", 0.9, 10.0, 46.0, "seat0")]
    [seat, top] = reader.pile_top(weak)
    assert seat == weak[2]
    assert (top.code, top.zone, (top.x, top.y), top.candidates) == (UNREAD, "discard", pile.centre, ("KC", "QH", "JH", BACK))
    sure = [replace(weak[0], confidence=0.93), weak[1]]  # a sure reading: the pile is read as it is
    assert reader.pile_top(sure) == sure


def test_a_new_discard_read_as_the_card_it_covers_puts_the_pile_in_doubt_until_the_table_moves():
    """Seed 125 of the rendered replay: QS discarded onto QH was read as QH, the discard went unseen
    and the next discards were given to the wrong player. The pile's picture changed: it is asked about."""
    from engine.tracker import Sighting

    renderer = GameRenderer(1280, 720, (ZONES.width, ZONES.height), seed=5)
    reader = TableReader(None, ZONES, None)
    pile = ZONES.named("discard")

    def still_pile(code: str, read_as: str):
        image = renderer.render((STOCK, Placed(code, *pile.centre, "discard")), still=True)
        calibration = make_calibrator((ZONES.width, ZONES.height)).update(image).calibration
        view = table_view(image, calibration.homography, (ZONES.width, ZONES.height))
        return reader.pile_watch.check(view, [Sighting(read_as, 0.93, *pile.centre, "discard")])

    assert [s.code for s in still_pile("QH", "QH")] == ["QH"]
    reader.pile_watch.moved()
    assert [s.code for s in still_pile("QH", "QH")] == ["QH"]  # nothing changed: read as it is
    reader.pile_watch.moved()
    [doubt] = still_pile("QS", "QH")
    assert doubt.code == UNREAD and doubt.candidates[0] == "QH" and doubt.zone == "discard"
    assert still_pile("QS", "QH")[0].code == UNREAD  # the whole still period
    reader.pile_watch.moved()
    assert [s.code for s in still_pile("9C", "9C")] == ["9C"]  # another card, read as another: no doubt


def test_a_new_discard_read_as_the_unread_card_it_covers_is_in_doubt_too():
    """Seed 125 again: QH lay unread (asked; its candidates named it), then QS on it was read surely as QH."""
    from engine.tracker import Sighting

    renderer = GameRenderer(1280, 720, (ZONES.width, ZONES.height), seed=5)
    reader = TableReader(None, ZONES, None)
    pile = ZONES.named("discard")

    def view_of(code: str):
        image = renderer.render((STOCK, Placed(code, *pile.centre, "discard")), still=True)
        calibration = make_calibrator((ZONES.width, ZONES.height)).update(image).calibration
        return table_view(image, calibration.homography, (ZONES.width, ZONES.height))

    weak = reader.pile_top([Sighting("KC", 0.4, *pile.centre, "discard"), Sighting("QH", 0.3, *pile.centre, "discard")])
    assert [s.code for s in reader.pile_watch.check(view_of("QH"), weak)] == [UNREAD]
    reader.pile_watch.moved()
    [doubt] = reader.pile_watch.check(view_of("QS"), [Sighting("QH", 0.93, *pile.centre, "discard")])
    assert doubt.code == UNREAD and doubt.candidates[0] == "QH"


def test_a_pile_whose_only_reading_falls_outside_its_zone_is_an_unread_card():
    """Seed 125 once more: QS on the pile was read only at its lower index, weakly, as another card; that
    reading's estimated centre lies below the pile's zone, and the pile looked empty (the discard unseen)."""
    renderer = GameRenderer(1280, 720, (ZONES.width, ZONES.height), seed=5)
    pile = ZONES.named("discard")
    card = Placed("QS", *pile.centre, "discard")
    image = renderer.render((STOCK, card), still=True)
    calibration = make_calibrator((ZONES.width, ZONES.height)).update(image).calibration
    lower = renderer._project([(card.x + INDEX_TO_CENTRE_CM[0], card.y + INDEX_TO_CENTRE_CM[1])])[0]
    view = table_view(image, calibration.homography, (ZONES.width, ZONES.height))
    sightings = TableReader(None, ZONES, None).sightings([CardObservation("10C", 0.5, (tuple(map(float, lower)),))],
                                                        calibration, view)
    assert not any(s.code == "10C" and s.zone == "discard" for s in sightings)
    [(zone, x, y)] = [(s.zone, s.x, s.y) for s in sightings if s.code == UNREAD]
    assert zone == "discard" and (x, y) == pile.centre


def test_the_last_card_of_a_fan_read_only_at_its_lower_index_lies_in_its_fan():
    """Seed 130: the JC closing a fan of jacks was read only at its lower-right index. Taken for an
    upper-left index, it lay a diagonal off, beside the fan (the meld split, the knock over the limit)."""
    renderer = GameRenderer(1280, 720, (ZONES.width, ZONES.height), seed=5)
    fan = [Placed(code, 25.0 + 2.0 * i, 45.0, "seat0") for i, code in enumerate(("JH", "JD", "JC"))]
    image = renderer.render((STOCK, *fan), still=True)
    calibration = make_calibrator((ZONES.width, ZONES.height)).update(image).calibration
    upper = lambda p: renderer._project([(p.x - INDEX_TO_CENTRE_CM[0], p.y - INDEX_TO_CENTRE_CM[1])])[0]
    lower = renderer._project([(fan[2].x + INDEX_TO_CENTRE_CM[0], fan[2].y + INDEX_TO_CENTRE_CM[1])])[0]
    observations = [CardObservation(p.code, 0.95, (tuple(map(float, upper(p))),)) for p in fan[:2]]
    observations.append(CardObservation("JC", 0.95, (tuple(map(float, lower)),)))
    view = table_view(image, calibration.homography, (ZONES.width, ZONES.height))
    sightings = TableReader(None, ZONES, None).sightings(observations, calibration, view)
    [jc] = [s for s in sightings if s.code == "JC"]
    assert jc.zone == "seat0" and math.dist((jc.x, jc.y), (fan[2].x, fan[2].y)) < 1.0
    assert unread(sightings) == []
