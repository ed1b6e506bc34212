"""Hypothesis strategies shared by the meld and Gin tests."""

from hypothesis import strategies as st

from engine.cards import ALL_CARDS
from engine.melds import MeldRules

# Uniform hands rarely hold long runs or wrapped ones; the narrow pools make them common.
POOLS = [
    list(ALL_CARDS),
    [c for c in ALL_CARDS if c.suit in "SH"],
    [c for c in ALL_CARDS if c.suit == "D" or c.rank in (1, 2, 12, 13)],
    [c for c in ALL_CARDS if c.rank in (1, 2, 3, 4, 11, 12, 13)],
]

meld_rules = st.builds(
    MeldRules,
    ace_high=st.booleans(),
    round_the_corner=st.booleans(),
    max_run_length=st.sampled_from([None, 3, 4, 5]),
)


def hands(min_size: int = 0, max_size: int = 11) -> st.SearchStrategy:
    """Distinct cards from one of :data:`POOLS`."""
    return st.sampled_from(POOLS).flatmap(
        lambda pool: st.lists(st.sampled_from(pool), unique=True, min_size=min_size, max_size=min(max_size, len(pool)))
    )


@st.composite
def deals(draw, knocker_size: int = 10, opponent_size: int = 10):
    """Two disjoint hands drawn from a shuffled pool."""
    pool = draw(st.sampled_from(POOLS[:2] + [list(ALL_CARDS)]))
    cards = draw(st.permutations(pool))
    return list(cards[:knocker_size]), list(cards[knocker_size:knocker_size + opponent_size])
