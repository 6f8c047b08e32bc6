package panichelper

import "testing"

// assert panics on purpose, as tidwall/gjson's tests' helper does: its
// line is every assertion's, the caller's line tells which one failed.
func assert(t testing.TB, cond bool) {
	if !cond {
		panic("assert failed")
	}
}

func TestDouble(t *testing.T) {
	assert(t, double(0) == 0)
	assert(t, double(2) == 4)
}
