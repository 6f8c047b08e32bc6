package godied

import (
	"testing"
	"time"
)

// worker panics a moment after the test that started it has ended: the
// panic ends the test binary while TestSlow runs, and TestLater never
// runs. TestSlow alone passes.
func worker() {
	time.Sleep(30 * time.Millisecond)
	var m map[string]int
	m["x"] = 1
}

func TestStartsWorker(t *testing.T) { go worker() }

func TestSlow(t *testing.T) { time.Sleep(300 * time.Millisecond) }

func TestLater(t *testing.T) {}
