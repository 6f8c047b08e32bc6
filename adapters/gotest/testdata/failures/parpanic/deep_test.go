package parpanic

import "testing"

func TestDeep(t *testing.T) {
	t.Run("outer", func(t *testing.T) {
		for _, name := range []string{"inner", "later"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				if name == "inner" {
					panic("deep down") // line 11
				}
			})
		}
	})
}
