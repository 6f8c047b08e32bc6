// Package bubble deadlocks testing/synctest bubbles (Go 1.25+).
package bubble

import (
	"testing"
	"testing/synctest"
)

func TestBubbleDeadlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() { <-ch }()
		synctest.Wait()
		<-ch
	})
}

func TestLeftBlocked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		go func() { ch <- 1 }()
	})
}

func TestAfter(t *testing.T) {}
