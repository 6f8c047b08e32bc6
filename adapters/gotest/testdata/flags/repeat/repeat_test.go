// Package repeat fails some tests in some runs of go test -count=N: the
// runs share the test binary, so a package counter tells them apart.
package repeat

import "testing"

var runs = map[string]int{}

// run counts the calls of a test, from 1.
func run(t *testing.T) int {
	runs[t.Name()]++
	return runs[t.Name()]
}

func TestFirstOnly(t *testing.T) {
	if n := run(t); n == 1 {
		t.Errorf("first run fails (run %d)", n)
	}
}

func TestLastOfThree(t *testing.T) {
	if n := run(t); n == 3 {
		t.Fatalf("third run fails (run %d)", n)
	}
}

func TestTwice(t *testing.T) {
	if n := run(t); n != 2 {
		t.Errorf("fails but in run 2 (run %d)", n)
	}
}

func TestAlways(t *testing.T) {
	run(t)
	t.Error("always fails")
}

func TestPasses(t *testing.T) { run(t) }

func TestTable(t *testing.T) {
	t.Run("flaky", func(t *testing.T) {
		if n := run(t); n == 2 {
			t.Errorf("second run of the subtest fails (run %d)", n)
		}
	})
	t.Run("fine", func(t *testing.T) { run(t) })
}

// check logs from a helper when a run is fine: its line, the call site, is
// of no known kind, as is its failure's.
func check(t *testing.T, n int) {
	t.Helper()
	if n == 2 {
		t.Errorf("helper fails run %d", n)
	} else {
		t.Logf("helper is fine in run %d", n)
	}
}

func TestHelper(t *testing.T) {
	check(t, run(t))
}
