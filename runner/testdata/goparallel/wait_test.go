// Package goparallel has a test that hangs while tests that called
// t.Parallel wait for it: go test runs its top-level tests one at a time
// first, and the parallel ones, paused, only after them.
package goparallel

import "testing"

// TestEarly is paused until TestHang ends.
func TestEarly(t *testing.T) {
	t.Parallel()
	helper()
}

func TestHang(t *testing.T) {
	block := make(chan int)
	<-block
}

// TestLate never starts.
func TestLate(t *testing.T) {
	t.Parallel()
}

func helper() {}
