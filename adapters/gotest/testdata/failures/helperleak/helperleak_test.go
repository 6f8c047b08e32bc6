// Package helperleak's TestStartsHelper starts, through a helper, a
// goroutine that panics while TestSlow runs. TestOther calls no helper;
// TestLaterHelper calls it too, but never runs: the panic ends the binary
// first.
package helperleak

import (
	"testing"
	"time"
)

func startWorker(t *testing.T) {
	t.Helper()
	go func() {
		time.Sleep(30 * time.Millisecond)
		var m map[string]int
		m["x"] = 1
	}()
}

func TestOther(t *testing.T) {}

func TestStartsHelper(t *testing.T) {
	startWorker(t)
}

func TestSlow(t *testing.T) { time.Sleep(2 * time.Second) }

func TestLaterHelper(t *testing.T) { startWorker(t) }
