// Package leak's TestLeakA leaves a goroutine behind that panics while
// TestLeakB runs; TestAfter never runs.
package leak

import (
	"testing"
	"time"
)

func worker() {
	time.Sleep(30 * time.Millisecond)
	var m map[string]int
	m["x"] = 1
}

func TestLeakA(t *testing.T) { go worker() }

func TestLeakB(t *testing.T) { time.Sleep(2 * time.Second) }

func TestAfter(t *testing.T) {}
