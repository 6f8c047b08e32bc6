// Package loc's tests fail after output that looks like their failure:
// TestGoRealFailures checks which line strobe reports.
package loc

import (
	"fmt"
	"testing"
)

func TestLogThenFatalf(t *testing.T) {
	t.Log("before")
	t.Fatalf("fatal: %s", "boom")
}

func TestParallelErrors(t *testing.T) {
	t.Parallel()
	t.Logf("case %d", 1)
	t.Errorf("first error %d", 1)
	t.Errorf("second error %d", 2)
}

func check(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("got %d, want %d", got, want)
	}
}

func TestHelperAfterLog(t *testing.T) {
	t.Log("setting up")
	check(t, 1, 2)
	t.Log("tearing down")
}

func TestProgress(t *testing.T) {
	fmt.Print("progress 50%...")
	t.Errorf("boom")
}

func TestParentFailNow(t *testing.T) {
	t.Run("sub", func(*testing.T) {
		t.FailNow()
	})
}

// Example_sum's output is wrong: testing prints got and want, no line.
func Example_sum() {
	fmt.Println(1 + 1)
	// Output: 3
}

// Example_blank's output differs by a blank line alone.
func Example_blank() {
	fmt.Println("a")
	fmt.Println()
	fmt.Println("b")
	// Output:
	// a
	// b
}

// TestLayout's message has lines of its own indentation, and a blank one.
func TestLayout(t *testing.T) {
	t.Errorf("Output:\n{\n  \"a\": [\n    1\n  ]\n}\n\nend")
}
