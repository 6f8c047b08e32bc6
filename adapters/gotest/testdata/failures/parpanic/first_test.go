package parpanic

import "testing"

// TestPanicFirst's parallel subtests run one at a time under -parallel 1:
// when boom panics, the siblings still paused in t.Parallel never ran.
func TestPanicFirst(t *testing.T) {
	for _, name := range []string{"boom", "two", "three"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "boom" {
				var m map[string]int
				m["x"] = 1 // line 13
			}
		})
	}
}
