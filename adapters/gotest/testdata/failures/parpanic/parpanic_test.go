// Package parpanic panics in one of several parallel subtests: the ones
// that start after it pause, so the last to start is not the one that
// panicked (TestSleepingSibling: gamma still sleeps; TestSkippedSibling:
// gamma skipped), nor is it two levels down (TestDeep).
package parpanic

import (
	"testing"
	"time"
)

func TestSleepingSibling(t *testing.T) {
	for _, name := range []string{"alpha", "beta", "gamma"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "gamma" {
				time.Sleep(500 * time.Millisecond)
			}
			if name == "beta" {
				var m map[string]int
				m["x"] = 1 // line 21
			}
		})
	}
}
