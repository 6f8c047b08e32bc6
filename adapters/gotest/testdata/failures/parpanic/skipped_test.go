package parpanic

import "testing"

type point struct{ x int }

func TestSkippedSibling(t *testing.T) {
	for _, name := range []string{"alpha", "beta", "gamma"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "gamma" {
				t.Skip("not today")
			}
			if name == "beta" {
				var p *point
				_ = p.x // line 16
			}
		})
	}
}
