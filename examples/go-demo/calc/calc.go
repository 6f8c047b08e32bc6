// Package calc is strobe's demo: small arithmetic with two bugs.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }

// Average returns the mean of xs, rounded to the nearest integer. The bug:
// integer division truncates instead.
func Average(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs)
}

// Max returns the largest of xs, or 0 for none. The bug: it reads xs[0]
// before it checks that there is one.
func Max(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
