package calc

import "testing"

type cases []struct {
	got, want int
}

// check has no t.Helper: a failure is at its own line.
func (cs cases) check(t *testing.T) {
	for _, c := range cs {
		if c.got != c.want {
			t.Errorf("got %d, want %d", c.got, c.want)
		}
	}
}

func TestThroughAHelper(t *testing.T) {
	cases{{Max(1, 2), 3}}.check(t)
}
