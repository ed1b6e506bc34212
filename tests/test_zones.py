"""Zone maps: defaults per game and player count, JSON round trip, validation errors."""

import pytest

from engine.zones import ZoneError, ZoneMap, default_zones


@pytest.mark.parametrize("game,players", [("gin", 2)] + [("wiener", n) for n in range(2, 7)] + [("tiles", n) for n in range(2, 5)])
def test_defaults_are_valid_and_round_trip(game, players):
    zones = default_zones(game, players)
    assert ZoneMap.from_json(zones.to_json()) == zones
    assert sorted(z.seat for z in zones.zones if z.kind == "layout") == list(range(players))
    kinds = {z.kind for z in zones.zones}
    assert kinds == ({"stock", "common", "layout"} if game == "tiles" else {"stock", "discard", "layout"})
    # each seat's strip is big enough for a row of melds and a row of loose cards
    for zone in zones.zones:
        x0, y0, x1, y1 = zone.rect
        assert min(x1 - x0, y1 - y0) >= 8.8


def test_points_map_to_zones():
    zones = default_zones("gin", 2)
    assert zones.zone_at(*zones.named("stock").centre).kind == "stock"
    assert zones.zone_at(10, 5).seat == 1 and zones.zone_at(10, 58).seat == 0
    assert zones.zone_at(2, 30) is None  # between zones


def base():
    return default_zones("wiener", 3).to_dict()


@pytest.mark.parametrize("change,message", [
    (lambda d: d["zones"][2].update(seat=3), "seat 3 is out of range 0..2"),
    (lambda d: d["zones"][2].update(seat=1), "every seat needs exactly one layout zone"),
    (lambda d: d["zones"][0].update(rect=[0, 0, 200, 10]), "lies outside the table"),
    (lambda d: d["zones"][1].update(rect=d["zones"][0]["rect"]), "zones 'stock' and 'discard' overlap"),
    (lambda d: d["zones"][0].update(kind="hand"), "kind must be one of"),
    (lambda d: d["zones"][0].update(colour="red"), "unknown field 'colour'"),
    (lambda d: d.update(players=7), "players must be 2..6"),
    (lambda d: d.pop("zones"), "missing 'zones'"),
])
def test_bad_maps_are_named(change, message):
    data = base()
    change(data)
    with pytest.raises(ZoneError, match=message):
        ZoneMap.from_dict(data)


def test_bad_json_and_bad_requests():
    with pytest.raises(ZoneError, match="not valid JSON"):
        ZoneMap.from_json("{")
    with pytest.raises(ZoneError, match="unknown game 'poker'"):
        default_zones("poker", 2)
    with pytest.raises(ZoneError, match="wiener is played by 2-6 players, got 7"):
        default_zones("wiener", 7)
    with pytest.raises(ZoneError, match="too small"):
        default_zones("gin", 2, width=30, height=30)
