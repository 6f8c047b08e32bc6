// Package many's tests fail several times before they end: strobe's
// answer names every failure after the first, not only the first.
package many

import "testing"

func TestMany(t *testing.T) {
	t.Errorf("first: got %d want %d", 1, 2)
	t.Errorf("second: got %q", "x")
	t.Error("third")
}

func eq(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("got %d want %d", got, want)
	}
}

// TestHelper's failures are at its lines calling eq (t.Helper), which
// call neither Error nor Log.
func TestHelper(t *testing.T) {
	t.Log("setting up")
	eq(t, 1, 2)
	eq(t, 3, 4)
}

func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) {
		t.Log("a log is no failure")
		t.Error("sub first")
		t.Errorf("sub second\nwith a second line")
	})
}

// TestLoop fails 50 times: the answer names a few and counts the rest.
func TestLoop(t *testing.T) {
	for i := range 50 {
		t.Errorf("i=%d", i)
	}
}
