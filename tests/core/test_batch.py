"""The batch helpers shared by every game's batched rules (``meeple.core.batch``)."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.core.batch import random_legal_ids


def test_a_random_legal_id_is_uniform_over_the_legal_ids_of_its_row() -> None:
    """Each legal id of a row is drawn about equally often (four standard errors), and an
    id that is not legal never."""
    mask = np.zeros((2, 785), dtype=np.bool_)
    legal = [3, 100, 101, 500, 784]
    mask[0, legal] = True
    mask[1, 0] = True
    rng = np.random.default_rng(0)
    draws = 20_000
    counts = np.zeros(785, dtype=np.int64)
    for _ in range(draws // 100):
        chosen = random_legal_ids(np.tile(mask, (100, 1)), rng)
        assert (chosen[1::2] == 0).all()
        np.add.at(counts, chosen[0::2], 1)
    total = draws  # a hundred rows of the first kind a batch
    expected = total / len(legal)
    sd = (total * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
    assert counts.sum() == total and counts[legal].sum() == total
    for k in legal:
        assert abs(counts[k] - expected) < 4 * sd, (k, counts[k], expected)


def test_a_simultaneous_games_seats_each_get_an_id_and_a_seat_with_none_gets_0() -> None:
    """``(B, S, A)`` masks give ``(B, S)`` ids; a seat with no legal id (not to act) gets 0."""
    mask = np.zeros((3, 2, 6), dtype=np.bool_)
    mask[:, 0, 5] = True
    mask[1, 1, [2, 4]] = True
    chosen = random_legal_ids(mask, np.random.default_rng(1))
    assert chosen.shape == (3, 2)
    assert (chosen[:, 0] == 5).all()
    assert chosen[1, 1] in (2, 4) and chosen[0, 1] == 0 and chosen[2, 1] == 0


@pytest.mark.parametrize("mask", [np.ones((3, 4), dtype=np.int8), np.ones(4, dtype=np.bool_)])
def test_masks_that_are_not_boolean_rows_are_refused(mask: np.ndarray) -> None:
    """Masks must be booleans of two or three axes; anything else says what was wrong."""
    with pytest.raises(ValueError, match="masks must be booleans"):
        random_legal_ids(mask, np.random.default_rng(0))
