"""300 tests for strobe's partition tests; three of them fail (7, 107, 207)."""
import pytest


@pytest.mark.parametrize("n", range(1, 301))
def test_n(n):
    assert n % 100 != 7, f"test {n} fails on purpose"
