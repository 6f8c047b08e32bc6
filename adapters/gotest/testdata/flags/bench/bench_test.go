// Package bench has a benchmark that passes and one that calls b.Fatal.
package bench

import "testing"

func add(a, b int) int { return a + b }

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		add(1, 2)
	}
}

func BenchmarkBroken(b *testing.B) {
	b.Fatal("benchmark broke")
}

func TestAdd(t *testing.T) {
	if add(1, 2) != 3 {
		t.Fatal("add")
	}
}
