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

// TestRunsSubtests runs failing tests named as its own subtests, as
// testify's suite tests do (TestSuiteRecoverPanic/InSetupSuite): go test
// -json reports them failed under a parent that passed.
func TestRunsSubtests(t *testing.T) {
	inner := []testing.InternalTest{
		{Name: t.Name() + "/InSetup", F: func(t *testing.T) { t.Error("inner failure, on purpose") }},
		{Name: t.Name() + "/InTest", F: func(t *testing.T) {
			t.Run("Test", func(t *testing.T) { t.Error("inner subtest failure, on purpose") })
		}},
	}
	if testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, inner) {
		t.Fatal("the inner tests passed: they should have failed")
	}
}
