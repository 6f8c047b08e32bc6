package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestAverage(t *testing.T) {
	if got := Average([]int{1, 2}); got != 2 {
		t.Errorf("Average([1 2]) = %d, want 2 (rounded)", got)
	}
}

func TestMaxEmpty(t *testing.T) {
	if got := Max(nil); got != 0 {
		t.Errorf("Max(nil) = %d, want 0", got)
	}
}
