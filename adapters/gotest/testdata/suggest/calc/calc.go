// Package calc is the fixture of the suggested traces of a t.Errorf
// failure: each test names, in a "// want:" comment on its failing line,
// the traces strobe should suggest for it.
package calc

import (
	"strings"

	"example.com/suggest/calc/internal/digits"
)

// Sum adds the numbers of a "1+2" string.
func Sum(s string) int {
	n := 0
	for _, p := range strings.Split(s, "+") {
		n += Atoi(p)
	}
	return n
}

// Atoi reads a number.
func Atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + digits.Value(r)
	}
	return n
}

// Max is generic.
func Max[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// Calc holds a method: suggested by its name alone, the one Double of
// the project.
type Calc struct{}

// Double is a method.
func (Calc) Double(n int) int { return 2 * n }

// Wide calls more functions than a failure suggests.
func Wide() int { return w1() + w2() + w3() + w4() + w5() + w6() + w7() + w8() }

func w1() int { return 1 }
func w2() int { return 2 }
func w3() int { return 3 }
func w4() int { return 4 }
func w5() int { return 5 }
func w6() int { return 6 }
func w7() int { return 7 }
func w8() int { return 8 }
