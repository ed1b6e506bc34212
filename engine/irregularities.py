"""Irregularities (000 §14) as rulings: given what went wrong, what does the rule say now?

Each function takes the situation as plain values and returns a :class:`Ruling`: the paragraph,
the decision, what it means in words, and the choices now open to whom.

>>> r = illegal_knock("Anna", "Ben", correctable=False, opponent_laid_down=False)
>>> r.rule, r.decision.value
('000 §14.7', 'opponent_chooses')
>>> [(o.player, o.action) for o in r.options]
[('Ben', 'accept_knock'), ('Ben', 'play_on')]

The deadwood values and whether a knock can be corrected come from the hand engine; this
module only applies §14 to them.

One gap in the source: §14.2 ends with "Die Karten müssen jedoch neu geteilt werden, wenn" and
the condition is missing from our copy of the rules. The redeal for a wrong number of cards
noticed before the cards are picked up is §14.9 (:func:`wrong_card_count`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

from engine.match import HandScore
from engine.rules import GinRules

HAND_SIZE = 10
MISSING_CARD_POINTS = 10


class IrregularityError(ValueError):
    """A situation described inconsistently (nothing irregular, same player twice, ...)."""


class Decision(Enum):
    """What a ruling decides."""

    NO_REDEAL = "no_redeal"
    PLAY_ON = "play_on"
    SHOW_AND_REPLACE = "show_and_replace"
    KEEP_DRAWN_CARD = "keep_drawn_card"
    DISCARD_WITHOUT_DRAWING = "discard_without_drawing"
    DRAW_WITHOUT_DISCARDING = "draw_without_discarding"
    OPPONENT_CHOOSES = "opponent_chooses"
    KNOCK_ACCEPTED = "knock_accepted"
    REDEAL = "redeal"
    MISSING_CARDS_COUNT = "missing_cards_count"
    KNOCKER_SCORES = "knocker_scores"
    NO_GAME = "no_game"


@dataclass(frozen=True)
class Option:
    """A choice the rule gives ``player`` now."""

    player: str
    action: str
    meaning: str


@dataclass(frozen=True)
class Ruling:
    """What §14 says about one situation.

    ``player`` is whom the decision concerns; ``turns`` how many turns a correction takes;
    ``penalty_points`` what ``player``'s missing cards add to his deadwood; ``outcome`` the hand
    result where the ruling settles the hand.
    """

    rule: str
    decision: Decision
    text: str
    options: tuple[Option, ...] = ()
    player: str | None = None
    turns: int = 0
    may_knock: bool = True
    penalty_points: int = 0
    outcome: HandScore | None = None


def _two(first: str, second: str) -> None:
    if not (isinstance(first, str) and isinstance(second, str) and first and second and first != second):
        raise IrregularityError(f"the two players must have different names, got {first!r} and {second!r}")


def wrong_dealer(correct_dealer: str, actual_dealer: str, play_started: bool) -> Ruling:
    """A player dealt out of turn (§14.1, §14.2).

    Before play there is no redeal, but the player who would have been forehand under the right
    deal plays first. Once play has started it goes on as if the deal had been in turn; record
    the hand with ``HandScore(dealer=actual_dealer)`` so the rotation goes on from it.

    >>> wrong_dealer("Ben", "Anna", play_started=False).player
    'Anna'
    >>> wrong_dealer("Ben", "Anna", play_started=True).decision
    <Decision.PLAY_ON: 'play_on'>
    """
    _two(correct_dealer, actual_dealer)
    if play_started:
        return Ruling("000 §14.2", Decision.PLAY_ON,
                      f"Play goes on as if {actual_dealer}'s deal had been in turn.", player=actual_dealer)
    return Ruling(
        "000 §14.1", Decision.NO_REDEAL,
        f"No redeal; {actual_dealer}, who would have been forehand had {correct_dealer} dealt, plays first.",
        player=actual_dealer,
    )


def exposed_stock_card(drawer: str, opponent: str) -> Ruling:
    """Drawing from the stock, a player exposed or could see the next card (§14.3).

    >>> [o.action for o in exposed_stock_card("Anna", "Ben").options]
    ['take_exposed_card', 'reshuffle_stock']
    """
    _two(drawer, opponent)
    return Ruling(
        "000 §14.3", Decision.SHOW_AND_REPLACE,
        f"{drawer} shows the card to {opponent} and puts it back on the stock. "
        f"If {opponent} draws from the stock next, he may take that card or have the stock reshuffled.",
        options=(
            Option(opponent, "take_exposed_card", "draw the exposed card from the stock"),
            Option(opponent, "reshuffle_stock", "have the stock shuffled again before drawing"),
        ),
        player=drawer,
    )


def drew_before_discard(player: str, opponent: str) -> Ruling:
    """A player drew from the stock before the opponent had discarded (§14.4).

    >>> drew_before_discard("Anna", "Ben").decision
    <Decision.KEEP_DRAWN_CARD: 'keep_drawn_card'>
    """
    _two(player, opponent)
    return Ruling(
        "000 §14.4", Decision.KEEP_DRAWN_CARD,
        f"{player} keeps the card drawn and may not take the card {opponent} discards now.",
        player=player,
    )


def drew_extra_cards(player: str, extra: int) -> Ruling:
    """A player drew two or more cards from the stock and took the extra ones into his hand (§14.5).

    For each extra card he skips drawing on one of his next turns and only discards, and he may
    not knock until his hand is right again (§14.10).

    >>> r = drew_extra_cards("Anna", 2)
    >>> r.decision, r.turns, r.may_knock
    (<Decision.DISCARD_WITHOUT_DRAWING: 'discard_without_drawing'>, 2, False)
    """
    if not isinstance(extra, int) or extra < 1:
        raise IrregularityError(f"extra cards drawn must be 1 or more, got {extra!r}")
    return Ruling(
        "000 §14.5", Decision.DISCARD_WITHOUT_DRAWING,
        f"{player} may neither draw nor knock on his next {_turns(extra)}; he must discard each time.",
        player=player, turns=extra, may_knock=False,
    )


def _turns(count: int) -> str:
    return "turn" if count == 1 else f"{count} turns"


def illegal_knock(knocker: str, opponent: str, correctable: bool, opponent_laid_down: bool) -> Ruling:
    """A knock with more deadwood than allowed (§14.6-8).

    ``correctable``: the knocker can make it legal by arranging his melds differently or
    discarding another card (the hand engine finds out). He may do so (§14.6). Otherwise, found
    before the opponent laid down any cards, the opponent accepts the knock or has the knocker
    take his cards back and play on (§14.7); found later, the knock stands as accepted (§14.8).

    >>> illegal_knock("Anna", "Ben", correctable=False, opponent_laid_down=True).decision
    <Decision.KNOCK_ACCEPTED: 'knock_accepted'>
    >>> r = illegal_knock("Anna", "Ben", correctable=True, opponent_laid_down=False)
    >>> r.rule, [o.action for o in r.options]
    ('000 §14.6, §14.7', ['correct_knock', 'accept_knock', 'play_on'])
    """
    _two(knocker, opponent)
    correction = (Option(knocker, "correct_knock", "rearrange melds or discard another card so the knock is legal"),)
    return _knock_ruling(knocker, opponent, opponent_laid_down, "§14.6, " if correctable else "",
                         correction if correctable else (), "the knock with too much deadwood")


def _knock_ruling(knocker: str, opponent: str, opponent_laid_down: bool, first: str,
                  options: tuple[Option, ...], what: str, play_on: str = "", penalty: int = 0) -> Ruling:
    """§14.7 / §14.8, shared by the illegal knock and the knock with a wrong number of cards."""
    if opponent_laid_down:
        return Ruling(
            f"000 {first}§14.8", Decision.KNOCK_ACCEPTED,
            f"{opponent} has laid down cards: {what} counts as accepted and the hand is scored.",
            options, knocker, penalty_points=penalty,
        )
    return Ruling(
        f"000 {first}§14.7", Decision.OPPONENT_CHOOSES,
        f"{opponent} may accept {what}, or have {knocker} take his cards back and play on{play_on}.",
        options + (
            Option(opponent, "accept_knock", "accept the knock; the hand is scored"),
            Option(opponent, "play_on", f"{knocker} takes his cards back and play goes on"),
        ),
        knocker, penalty_points=penalty,
    )


Stage = Literal["before_pickup", "during_play"]


def wrong_card_count(player: str, held: int, stage: Stage, expected: int = HAND_SIZE) -> Ruling:
    """A player holds the wrong number of cards, noticed before a knock (§14.9, §14.10).

    ``expected`` is what he should hold (10 between turns; 11 for forehand right after the
    rulebook deal). Noticed before the cards were picked up: redeal (§14.9). During play he
    corrects his hand, discarding without drawing or drawing without discarding, one card a
    turn, and may not knock meanwhile (§14.10).

    >>> wrong_card_count("Anna", 11, "before_pickup").decision
    <Decision.REDEAL: 'redeal'>
    >>> r = wrong_card_count("Anna", 9, "during_play")
    >>> r.decision, r.turns, r.may_knock
    (<Decision.DRAW_WITHOUT_DISCARDING: 'draw_without_discarding'>, 1, False)
    """
    _check_count(held, expected)
    if stage == "before_pickup":
        return Ruling("000 §14.9", Decision.REDEAL, f"{player} was dealt {held} cards instead of {expected}: deal again.",
                      player=player)
    if stage != "during_play":
        raise IrregularityError(f"stage must be 'before_pickup' or 'during_play', got {stage!r}")
    turns = abs(held - expected)
    if held > expected:
        decision, how = Decision.DISCARD_WITHOUT_DRAWING, "discards without drawing"
    else:
        decision, how = Decision.DRAW_WITHOUT_DISCARDING, "draws without discarding"
    return Ruling(
        "000 §14.10", decision,
        f"{player} holds {held} cards instead of {expected}: on his next {_turns(turns)} he {how}, "
        "and he may not knock until his hand is right.",
        player=player, turns=turns, may_knock=False,
    )


def _check_count(held: int, expected: int) -> None:
    if not isinstance(held, int) or held < 0:
        raise IrregularityError(f"cards held must be a whole number >= 0, got {held!r}")
    if held == expected:
        raise IrregularityError(f"{held} cards is the right number: nothing irregular")


def knock_with_wrong_count(knocker: str, opponent: str, held: int, opponent_laid_down: bool) -> Ruling:
    """The knocker turns out to hold a wrong number of cards (§14.11).

    As for an illegal knock (§14.7, §14.8): the opponent, while he has laid down nothing, may
    accept it or have the knocker take his cards back and play on, correcting his hand per
    §14.10. If the knocker has fewer than ten cards, each missing card counts 10 points of his
    deadwood.

    >>> r = knock_with_wrong_count("Anna", "Ben", 9, opponent_laid_down=True)
    >>> r.decision, r.penalty_points
    (<Decision.KNOCK_ACCEPTED: 'knock_accepted'>, 10)
    """
    _two(knocker, opponent)
    _check_count(held, HAND_SIZE)
    penalty = MISSING_CARD_POINTS * max(0, HAND_SIZE - held)
    what = f"the knock with {held} cards" + (f" (each missing card counts 10: +{penalty} deadwood)" if penalty else "")
    return _knock_ruling(knocker, opponent, opponent_laid_down, "§14.11, ", (), what,
                         play_on=", correcting his hand per §14.10", penalty=penalty)


def opponent_short_at_knock(opponent: str, held: int) -> Ruling:
    """After a knock the opponent turns out to hold fewer than ten cards (§14.12).

    >>> opponent_short_at_knock("Ben", 8).penalty_points
    20
    """
    if not isinstance(held, int) or not 0 <= held < HAND_SIZE:
        raise IrregularityError(f"§14.12 is about fewer than {HAND_SIZE} cards, got {held!r}")
    missing = HAND_SIZE - held
    return Ruling(
        "000 §14.12", Decision.MISSING_CARDS_COUNT,
        f"{opponent} holds {held} cards: each of the {missing} missing cards counts 10 points of his deadwood.",
        player=opponent, penalty_points=MISSING_CARD_POINTS * missing,
    )


def opponent_over_at_knock(
    knocker: str, opponent: str, held: int, knocker_deadwood: int, opponent_deadwood: int,
    gin: bool = False, rules: GinRules | None = None,
) -> Ruling:
    """After a knock the opponent turns out to hold more than ten cards (§14.13).

    He lays down his hand but may not lay off. With more deadwood than the knocker the knocker
    scores as usual (the difference, plus the gin bonus on gin); with less the hand is no game
    and is dealt again. Equal deadwood is not spelt out: the opponent cannot win an undercut
    with too many cards, and the knocker is not ahead, so we rule it no game as well.

    >>> opponent_over_at_knock("Anna", "Ben", 11, knocker_deadwood=4, opponent_deadwood=19).outcome
    HandScore(winner='Anna', points=15, kind='knock', dealer=None)
    >>> opponent_over_at_knock("Anna", "Ben", 11, knocker_deadwood=4, opponent_deadwood=3).decision
    <Decision.NO_GAME: 'no_game'>
    """
    _two(knocker, opponent)
    if not isinstance(held, int) or held <= HAND_SIZE:
        raise IrregularityError(f"§14.13 is about more than {HAND_SIZE} cards, got {held!r}")
    for name, value in (("knocker_deadwood", knocker_deadwood), ("opponent_deadwood", opponent_deadwood)):
        if not isinstance(value, int) or value < 0:
            raise IrregularityError(f"{name} must be a whole number >= 0, got {value!r}")
    if gin and knocker_deadwood:
        raise IrregularityError(f"a gin hand has no deadwood, got {knocker_deadwood}")
    rules = rules or GinRules()
    no_layoffs = f"{opponent} holds {held} cards: he lays down his hand and may not lay off."
    if opponent_deadwood > knocker_deadwood:
        points = opponent_deadwood - knocker_deadwood + (rules.gin_bonus if gin else 0)
        return Ruling(
            "000 §14.13", Decision.KNOCKER_SCORES,
            f"{no_layoffs} He has more deadwood, so {knocker} scores {points} as usual.",
            player=knocker, outcome=HandScore(knocker, points, "gin" if gin else "knock"),
        )
    return Ruling(
        "000 §14.13", Decision.NO_GAME,
        f"{no_layoffs} He has no more deadwood than {knocker}, so the hand is no game and is dealt again.",
        player=opponent, outcome=HandScore.no_game(),
    )
