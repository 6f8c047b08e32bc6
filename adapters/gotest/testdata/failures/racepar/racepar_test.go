// Package racepar races in TestA while TestB runs beside it: go test -race
// fails both (run with -parallel 4, for a machine of one CPU). TestA waits
// for its goroutine, which orders neither write before the other, so the
// race is found while TestA runs however late a loaded machine runs the
// goroutine (when TestA only slept, the race once came after it passed).
package racepar

import (
	"testing"
	"time"
)

var shared, done = 0, make(chan struct{})

func TestA(t *testing.T) {
	t.Parallel()
	time.Sleep(20 * time.Millisecond)
	go func() { shared++; close(done) }()
	shared++
	<-done
	time.Sleep(50 * time.Millisecond)
}

func TestB(t *testing.T) {
	t.Parallel()
	time.Sleep(300 * time.Millisecond)
}
