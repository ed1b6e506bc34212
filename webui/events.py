"""Checking and writing events: the single door through which anything enters the record.

Forms and the JSON API both call :func:`record`; it validates the payload against
the match as it stands, with errors that name the field, and only then appends.

>>> check_name("  ")
Traceback (most recent call last):
...
webui.events.InvalidInput: players: a player name must not be empty
"""

from __future__ import annotations

import re
import secrets
import threading
from typing import Any, Mapping

from engine.cards import CardError, TilePalette, parse_card, parse_cards, parse_tile
from webui import engine_adapter
from webui.engine_adapter.base import seat_words
from webui.engine_adapter import tournament as tournament_adapter
from webui.state import MatchState, TournamentState, replay, replay_tournament
from webui.store import Event, EventStore

_WRITE_LOCK = threading.Lock()
_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
MAX_TEXT = 200
MAX_CHOICES = 7
"""The most answers a question offers: six cards and "no card here" (:func:`rummyref.pipeline.reading_choices`)."""
PICKERS = ("tiles", "cards")
"""What a question may offer besides its choices: ``tiles``, any tile of the set (a tile picker);
``cards``, any card (a card picker; the joker too in a game played with jokers)."""
CAMERA_STATES = ("connecting", "streaming", "lost", "waiting", "ended", "failed", "stopped")
"""The states of ``hardware.cameras.CameraStatus`` (webui imports nothing from hardware)."""
PLAY_KINDS = ("pickup", "stock_draw", "knock", "layout", "layoff", "hand_end", "irregularity")
"""The camera tracker's events that have no kind of their own in the record."""
TILE_PLAY_KINDS = ("turn", "draw", "irregularity")
"""The same for tile Rummy: a turn judged by the engine (``cards``: the tiles played from the rack,
``melds``: the table's groups after it, ``flagged``: illegal), a draw from the pool."""


class InvalidInput(ValueError):
    """Input that cannot be recorded; ``field`` names what was wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _require(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise InvalidInput(field, message)


def check_name(name: Any, field: str = "players") -> str:
    _require(isinstance(name, str), field, f"a player name must be text, got {name!r}")
    name = " ".join(name.split())
    _require(bool(name), field, "a player name must not be empty")
    _require(len(name) <= 24, field, f"player name {name[:30]!r} is longer than 24 characters")
    _require(name.isprintable(), field, "a player name must be printable text")
    return name


def check_text(value: Any, field: str, required: bool = True) -> str:
    _require(isinstance(value, str), field, f"must be text, got {type(value).__name__}")
    value = value.strip()
    _require(bool(value) or not required, field, "must not be empty")
    _require(len(value) <= MAX_TEXT, field, f"must be at most {MAX_TEXT} characters")
    return value


def check_player(state: MatchState, name: Any, field: str) -> str:
    _require(name in state.players, field, f"{name!r} is not a player of this match ({', '.join(state.players)})")
    return name


def check_card_codes(value: Any, field: str) -> list[str]:
    _require(isinstance(value, (list, str)), field, "must be a list of card codes or a space-separated string")
    try:
        return [str(card) for card in parse_cards(value)]
    except CardError as exc:
        raise InvalidInput(field, str(exc)) from None


def check_pieces(state: MatchState, value: Any, field: str) -> list[str]:
    """Card or tile codes as the match's game takes its pieces (:meth:`GameForm.parse_pieces`: one deck
    for Gin, two with jokers for Wiener Rummy, the match's tile set), as a list or a space-separated string."""
    _require(isinstance(value, (list, str)), field, "must be a list of codes or a space-separated string")
    try:
        return [str(piece) for piece in engine_adapter.form(state.game).parse_pieces(setup_of(state), value)]
    except CardError as exc:
        raise InvalidInput(field, str(exc)) from None


def check_snapshot(store: EventStore, digest: Any, field: str = "evidence") -> str | None:
    if digest is None:
        return None
    _require(isinstance(digest, str) and bool(_SHA.match(digest)), field, "must be the sha256 hex digest of a stored snapshot")
    _require(store.has_snapshot(digest), field, f"no snapshot {digest[:12]}... has been stored; post it to /api/snapshots first")
    return digest


def check_new_match(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a ``match_created`` payload and return it normalised.

    ``game`` is one of :data:`webui.engine_adapter.FORMS` (default ``gin``); the players are
    given in seat order, which each form reads as its rules say (see the setup page).
    """
    try:
        form = engine_adapter.form(payload.get("game", "gin"))
    except engine_adapter.HandRejected as exc:
        raise InvalidInput(exc.field, str(exc)) from None
    players = payload.get("players")
    _require(isinstance(players, list), "players", f"must be a list of {seat_words(form)} names ({form.title})")
    players = [check_name(p) for p in players]
    folded = [p.casefold() for p in players]
    _require(len(set(folded)) == len(folded), "players", "every player needs a different name")
    options = payload.get("options", {})
    _require(isinstance(options, dict), "options", "must be an object of rule options")
    first_dealer = payload.get("first_dealer") or None
    try:
        preset, options, first_dealer = form.normalize(players, payload.get("preset", "rulebook"), options, first_dealer)
    except engine_adapter.HandRejected as exc:
        raise InvalidInput(exc.field, str(exc)) from None
    return {"players": players, "game": form.game, "preset": preset, "options": options, "first_dealer": first_dealer}


def check_result(result: Any, state: MatchState) -> dict[str, Any]:
    """Validate a hand result dict (see :mod:`webui.engine_adapter`)."""
    _require(isinstance(result, dict), "result", "must be an object")
    _require(result.get("kind") in engine_adapter.HAND_KINDS, "result.kind", f"must be one of {', '.join(engine_adapter.HAND_KINDS)}")
    winner = result.get("winner")
    _require(winner is None or winner in state.players, "result.winner", f"{winner!r} is not a player of this match")
    knocker = result.get("knocker")
    _require(knocker is None or knocker in state.players, "result.knocker", f"{knocker!r} is not a player of this match")
    points = result.get("points")
    _require(isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= 1000, "result.points", "must be a whole number 0..1000")
    clean = {
        "kind": result["kind"], "knocker": knocker, "winner": winner, "points": points,
        "explanation": check_text(result.get("explanation", ""), "result.explanation", required=False),
        "rule": check_text(result.get("rule", ""), "result.rule", required=False),
        "players": {},
    }
    per_player = result.get("players", {})
    _require(isinstance(per_player, dict), "result.players", "must be an object keyed by player")
    for player, shown in per_player.items():
        field = f"result.players.{player}"
        check_player(state, player, field)
        _require(isinstance(shown, dict), field, "must be an object")
        melds = shown.get("melds", [])
        _require(isinstance(melds, list), f"{field}.melds", "must be a list of card lists")
        points_shown = shown.get("deadwood_points", 0)
        _require(isinstance(points_shown, int) and points_shown >= 0, f"{field}.deadwood_points", "must be a whole number >= 0")
        clean["players"][player] = {
            "melds": [check_card_codes(meld, f"{field}.melds") for meld in melds],
            "deadwood": check_card_codes(shown.get("deadwood", []), f"{field}.deadwood"),
            "deadwood_points": points_shown,
            "laid_off": check_card_codes(shown.get("laid_off", []), f"{field}.laid_off"),
        }
    return clean


def _checked_result(result: Any, state: MatchState, settled: bool) -> dict[str, Any]:
    """A result the engine just settled here is stored as it is; one posted from outside must
    be a single Gin hand, in the forms that take those (the camera pipeline's)."""
    if settled:
        return result
    form = engine_adapter.form(state.game)
    _require(form.raw_results, "result", f"{form.title} results are settled from the cards: post them to "
             f"/api/matches/{state.match_id}/hands")
    return check_result(result, state)


def check_event(store: EventStore, state: MatchState, kind: str, payload: Any, settled: bool = False) -> dict[str, Any]:
    """Validate the payload of an event for an existing match; return it normalised.

    ``settled``: the result in the payload comes from the engine in this process (manual scoring).
    """
    _require(isinstance(payload, dict), "payload", "must be an object")
    p = payload
    if kind == "discard":
        try:
            card = str(parse_card(p.get("card", "")))
        except CardError as exc:
            raise InvalidInput("card", str(exc)) from None
        return {"player": check_player(state, p.get("player"), "player"), "card": card}
    if kind == "table":
        clean: dict[str, Any] = {}
        if "stock_count" in p:
            count = p["stock_count"]
            most = engine_adapter.form(state.game).stock_max
            _require(isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= most, "stock_count",
                     f"must be a whole number 0..{most}")
            clean["stock_count"] = count
        if "turn" in p:
            clean["turn"] = check_player(state, p["turn"], "turn")
        _require(bool(clean), "payload", "a table event needs stock_count and/or turn")
        return clean
    if kind == "reading_proposed":
        reading = p.get("reading")
        _require(isinstance(reading, str) and bool(_ID.match(reading)), "reading", "must be an id of 1-40 letters, digits, - or _")
        _require(reading not in state.readings, "reading", f"reading {reading!r} was already proposed")
        picker = p.get("picker")
        _require(picker is None or picker in PICKERS, "picker", f"must be one of {', '.join(PICKERS)} or left out")
        choices = p.get("choices")
        fewest = 1 if picker else 2     # with a picker, one choice ("no card here") and the picker are a question
        _require(isinstance(choices, list) and fewest <= len(choices) <= MAX_CHOICES, "choices",
                 f"must be a list of {fewest} to {MAX_CHOICES} answers")
        choices = [check_text(c, "choices") for c in choices]
        _require(len(set(choices)) == len(choices), "choices", "answers must differ")
        return {"reading": reading, "prompt": check_text(p.get("prompt"), "prompt"), "choices": choices,
                "evidence": check_snapshot(store, p.get("evidence"))} | ({"picker": picker} if picker else {})
    if kind == "reading_confirmed":
        reading = state.readings.get(p.get("reading"))
        _require(reading is not None, "reading", f"no reading {p.get('reading')!r} in this match")
        _require(reading.answer is None, "reading", f"reading {reading.reading_id!r} was already confirmed as {reading.answer!r}")
        choice = p.get("choice")
        if reading.picker == "tiles" and choice not in reading.choices:
            try:
                choice = str(parse_tile(str(choice), tile_set(state)))
            except CardError:
                raise InvalidInput("choice", f"must be one of {', '.join(reading.choices)} or a tile of the set "
                                             f"(like R7 or JK), got {choice!r}") from None
        elif reading.picker == "cards" and choice not in reading.choices:
            _require(isinstance(choice, str), "choice", f"must be one of {', '.join(reading.choices)} or a card")
            (choice,) = check_pieces(state, [choice], "choice")
        else:
            _require(choice in reading.choices, "choice", f"must be one of {', '.join(reading.choices)}")
        return {"reading": reading.reading_id, "choice": choice}
    if kind == "camera":
        _require(p.get("state") in CAMERA_STATES, "state", f"must be one of {', '.join(CAMERA_STATES)}")
        return {"state": p["state"], "camera": check_text(p.get("camera"), "camera"),
                "reason": check_text(p.get("reason", ""), "reason", required=False)}
    if kind == "play":
        kinds = TILE_PLAY_KINDS if state.game == "tiles" else PLAY_KINDS
        codes = lambda value, field: check_pieces(state, value, field)    # noqa: E731
        _require(p.get("kind") in kinds, "kind", f"must be one of {', '.join(kinds)}")
        player = p.get("player")
        melds = p.get("melds", [])
        _require(isinstance(melds, list), "melds", "must be a list of card lists")
        return {"kind": p["kind"], "player": None if player is None else check_player(state, player, "player"),
                "cards": codes(p.get("cards", []), "cards") if p.get("cards") else [],
                "melds": [codes(m, "melds") for m in melds],
                "flagged": bool(p.get("flagged", False)),
                "detail": check_text(p.get("detail", ""), "detail", required=False),
                "evidence": check_snapshot(store, p.get("evidence"))}
    if kind == "rebuy":
        _require(state.game == "wiener", "kind", "only Wiener Rummy has a re-buy")
        return {"player": check_player(state, p.get("player"), "player")}
    if kind == "rebuy_voided":
        event_id = p.get("rebuy")
        try:
            rebuy = state.rebuy(event_id)
        except LookupError:
            raise InvalidInput("rebuy", f"no re-buy {event_id!r} in this match") from None
        _require(rebuy.counted, "rebuy", f"{rebuy.player}'s re-buy is already undone")
        return {"rebuy": rebuy.event_id, "reason": check_text(p.get("reason", ""), "reason")}
    if kind == "hand_recorded":
        dealer = p.get("dealer")
        return {"dealer": None if dealer is None else check_player(state, dealer, "dealer"),
                "input": _check_input(p.get("input", {})), "result": _checked_result(p.get("result"), state, settled),
                "evidence": check_snapshot(store, p.get("evidence"))}
    if kind in ("hand_corrected", "hand_voided", "hand_restored"):
        hand_id = p.get("hand")
        try:
            hand = state.hand(hand_id)
        except LookupError:
            raise InvalidInput("hand", f"no hand {hand_id!r} in this match") from None
        clean = {"hand": hand.hand_id, "reason": check_text(p.get("reason", ""), "reason")}
        if kind == "hand_corrected":
            clean.update(input=_check_input(p.get("input", {})), result=_checked_result(p.get("result"), state, settled))
        elif kind == "hand_voided":
            _require(hand.counted, "hand", f"hand {hand.number} is already undone")
        else:
            _require(not hand.counted, "hand", f"hand {hand.number} is counted; only an undone hand can be restored")
        return clean
    raise InvalidInput("kind", f"unknown event kind {kind!r}")


def tile_set(state: MatchState) -> TilePalette:
    """The tile set a tile Rummy match is played with (its rules' palette)."""
    return engine_adapter.form("tiles").rules(setup_of(state)).palette


def setup_of(state: MatchState) -> engine_adapter.Setup:
    return engine_adapter.Setup(state.game, tuple(state.players), state.preset, state.options, state.first_dealer)


def standing(state: MatchState, before: int | None = None) -> engine_adapter.Standing:
    """The standing from every hand and re-buy that counts (undone ones do not), in
    the order they were recorded; with ``before``, only those recorded before that event id."""
    actions: list[tuple[int, engine_adapter.Action]] = [
        (h.hand_id, engine_adapter.Played(h.result, h.dealer)) for h in state.counted_hands]
    actions += [(r.event_id, engine_adapter.Rebuy(r.player)) for r in state.counted_rebuys]
    ordered = [action for event_id, action in sorted(actions, key=lambda pair: pair[0])
               if before is None or event_id < before]
    return engine_adapter.form(state.game).standing(setup_of(state), ordered)


def _check_input(value: Any) -> dict[str, Any]:
    _require(isinstance(value, dict), "input", "must be an object")
    return value


def record(store: EventStore, match_id: str, kind: str, payload: Any, actor: str, settled: bool = False) -> Event:
    """Validate and append one event to an existing match (``match_created`` goes via :func:`create_match`)."""
    with _WRITE_LOCK:
        events = store.events(match_id)
        state = replay(events)
        clean = check_event(store, state, kind, payload, settled)
        if kind.startswith("hand_") or kind == "rebuy":
            # the match scorer must accept the match with this change (no hand after the match is over)
            after = replay([*events, Event(state.last_event_id + 1, match_id, kind, clean, actor, "")])
            try:
                standing(after)
            except engine_adapter.HandRejected as exc:
                raise InvalidInput({"rebuy": "player", "rebuy_voided": "rebuy"}.get(kind, "hand"), str(exc)) from None
        return store.append(match_id, kind, clean, actor)


def create_match(store: EventStore, payload: Mapping[str, Any], actor: str) -> Event:
    clean = check_new_match(payload)
    return store.append(secrets.token_hex(4), "match_created", clean, actor)


def score_hand(store: EventStore, match_id: str, form: Mapping[str, Any], actor: str, correcting: int | None = None,
               evidence: str | None = None) -> Event:
    """Record a hand from the cards (or tiles) each player showed: the engine settles it.

    ``form`` holds ``hands`` (player -> codes) and, as the game needs, ``knocker`` (one table),
    ``knockers`` (a list, one per partnership table), ``winner`` (tile Rummy; none: a draw),
    ``upcard`` (Oklahoma) and ``dealer``. With ``correcting`` the result replaces that hand's
    (a ``hand_corrected`` event), settled at the table as it was then. ``evidence``: the snapshot
    the camera settled the hand on (the camera referee's rounds).
    """
    state = replay(store.events(match_id))
    game = engine_adapter.form(state.game)
    setup = setup_of(state)
    hands_in = form.get("hands")
    _require(isinstance(hands_in, dict), "hands", "must give the cards of each player")
    upcard = form.get("upcard") or None
    if upcard:
        check_card_codes([upcard], "upcard")
    try:
        before = standing(state, correcting)
        hands = game.check_hands(setup, game.scorers(setup, before), hands_in)
        hand_input = {key: form.get(key) for key in ("knocker", "knockers", "winner") if form.get(key) is not None}
        hand_input.update(hands=hands, upcard=upcard)
        result = game.settle(setup, before, hand_input)
    except engine_adapter.HandRejected as exc:
        raise InvalidInput(exc.field, str(exc)) from None
    dealer = form.get("dealer") or (before.tables[0].dealer if len(before.tables) == 1 else None)
    if correcting is not None:
        payload = {"hand": correcting, "input": hand_input, "result": result,
                   "reason": form.get("reason") or "cards corrected by hand"}
        return record(store, match_id, "hand_corrected", payload, actor, settled=True)
    payload = {"dealer": dealer, "input": hand_input, "result": result, "evidence": evidence}
    return record(store, match_id, "hand_recorded", payload, actor, settled=True)


# -- tournaments --------------------------------------------------------------------------
def _adapter_error(exc: engine_adapter.HandRejected) -> InvalidInput:
    return InvalidInput(exc.field, str(exc))


def tournament_view(state: TournamentState) -> tournament_adapter.TournamentView:
    return tournament_adapter.tournament_view(state.players, state.system, state.seed, state.results)


def create_tournament(store: EventStore, payload: Mapping[str, Any], actor: str) -> Event:
    """Validate a ``tournament_created`` payload (players, system, optional seed) and append it."""
    players = payload.get("players")
    _require(isinstance(players, list), "players", "must be a list of player names")
    players = [check_name(p) for p in players]
    _require(len({p.casefold() for p in players}) == len(players), "players", "every player needs a different name")
    system = payload.get("system", "round_robin")
    seed = payload.get("seed") or secrets.token_hex(4)
    _require(isinstance(seed, str) and len(seed) <= 40 and seed.isprintable(), "seed", "must be text of at most 40 characters")
    try:
        tournament_adapter.check_setup(players, system)
    except engine_adapter.HandRejected as exc:
        raise _adapter_error(exc) from None
    return store.append("t" + secrets.token_hex(4), "tournament_created",
                        {"players": players, "system": system, "seed": seed}, actor)


def record_tournament_result(store: EventStore, tournament_id: str, payload: Any, actor: str) -> Event:
    """Enter (or correct) the result of one pairing: ``round``, ``first``, ``second``, ``winner``, ``amount``."""
    _require(isinstance(payload, dict), "payload", "must be an object")
    number, amount = payload.get("round"), payload.get("amount")
    _require(isinstance(number, int) and not isinstance(number, bool), "round", "must be a round number")
    _require(isinstance(amount, int) and not isinstance(amount, bool) and 0 <= amount <= 100000, "amount",
             "must be a whole number 0..100000: what the winner's match settled for")
    with _WRITE_LOCK:
        state = replay_tournament(store.events(tournament_id))
        first, second = payload.get("first"), payload.get("second")
        for name, field in ((first, "first"), (second, "second")):
            _require(name in state.players, field, f"{name!r} is not a player of this tournament")
        try:
            tournament_adapter.check_result(tournament_view(state), state.system, number, first, second, payload.get("winner"))
        except engine_adapter.HandRejected as exc:
            raise _adapter_error(exc) from None
        clean = {"round": number, "first": first, "second": second, "winner": payload["winner"], "amount": amount}
        return store.append(tournament_id, "tournament_result", clean, actor)
