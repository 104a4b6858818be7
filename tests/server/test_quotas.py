"""The per-client limits, counted as the server counts them (ClientQuotas, no server)."""

from __future__ import annotations

import pytest

from meeple.interfaces.web.quotas import ClientQuotas, QuotaExceeded, Quotas


def test_creating_past_the_rate_is_refused_with_the_wait_and_other_clients_are_not():
    quotas = ClientQuotas(Quotas(creates_per_minute=3, open_matches=100))
    for _ in range(3):
        quotas.check_create("10.0.0.1")
    with pytest.raises(QuotaExceeded) as refused:
        quotas.check_create("10.0.0.1")
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 61
    assert "at most 3 new matches a minute" in str(refused.value)
    quotas.check_create("10.0.0.2")  # another address has its own share


def test_unfinished_matches_are_held_until_they_finish():
    quotas = ClientQuotas(Quotas(creates_per_minute=100, open_matches=2))
    for match in ("a", "b"):
        quotas.check_create("c")
        quotas.created("c", match)
    with pytest.raises(QuotaExceeded) as refused:
        quotas.check_create("c")
    assert refused.value.code == "too_many_open_matches"
    quotas.finished("a")
    quotas.check_create("c")


def test_sockets_are_counted_per_client_and_per_match_and_freed_on_close():
    quotas = ClientQuotas(Quotas(sockets_per_client=2, sockets_per_match=3))
    quotas.open_socket("x", "m")
    quotas.open_socket("x", "m")
    with pytest.raises(QuotaExceeded) as refused:
        quotas.open_socket("x", "n")
    assert refused.value.code == "too_many_connections"
    quotas.open_socket("y", "m")
    with pytest.raises(QuotaExceeded) as full:
        quotas.open_socket("z", "m")
    assert full.value.code == "match_full_of_connections"
    quotas.close_socket("x", "m")
    quotas.open_socket("x", "n")
    quotas.open_socket("z", "m")
