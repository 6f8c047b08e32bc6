// Package raceleak: a goroutine TestLeaks left running races with TestLater.
package raceleak

import (
	"testing"
	"time"
)

var shared int

func TestLeaks(t *testing.T) {
	go func() {
		time.Sleep(50 * time.Millisecond)
		shared++
	}()
}

func TestLater(t *testing.T) {
	shared++
	time.Sleep(100 * time.Millisecond)
	shared++
}
