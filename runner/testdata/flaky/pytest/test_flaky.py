"""A fixture for strobe's retries: one test fails on its first run and
passes on the next, one always fails, one always passes. Runs are counted
in files under $FLAKY_DIR, which the test sets."""

import os


def runs(name):
    """Counts this test's runs in a file, and returns how many ran before."""
    path = os.path.join(os.environ["FLAKY_DIR"], name)
    try:
        with open(path) as f:
            n = int(f.read())
    except FileNotFoundError:
        n = 0
    with open(path, "w") as f:
        f.write(str(n + 1))
    return n


def test_flaky():
    assert runs("flaky") != 0, "first run fails"


def test_always_fails():
    runs("always_fails")
    assert False, "always fails"


def test_passes():
    runs("passes")
