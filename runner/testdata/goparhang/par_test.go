// Package goparhang has a parallel subtest that hangs beside siblings that
// pass: the pass printed last before the silence is one test2json holds
// back until a line that never comes.
package goparhang

import "testing"

func TestParHang(t *testing.T) {
	for _, name := range []string{"a", "b", "c", "d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "c" {
				select {}
			}
		})
	}
}
