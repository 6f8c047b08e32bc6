// Package runtests's TestRunsTests runs a failing test itself, as a test
// framework's own suite does (testify's suite package): go test -json
// reports the inner test as a failed subtest, and the package passes.
package runtests

import "testing"

func TestRunsTests(t *testing.T) {
	inner := []testing.InternalTest{{Name: "TestInner", F: func(t *testing.T) { t.Error("inner failure, on purpose") }}}
	if testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, inner) {
		t.Fatal("the inner test passed: it should have failed")
	}
}

func TestPlain(t *testing.T) {}
