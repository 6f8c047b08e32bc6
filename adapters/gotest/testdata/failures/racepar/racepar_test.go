// Package racepar races in TestA while TestB runs beside it: go test -race
// fails both (run with -parallel 4, for a machine of one CPU).
package racepar

import (
	"testing"
	"time"
)

var shared int

func TestA(t *testing.T) {
	t.Parallel()
	time.Sleep(20 * time.Millisecond)
	go func() { shared++ }()
	shared++
	time.Sleep(50 * time.Millisecond)
}

func TestB(t *testing.T) {
	t.Parallel()
	time.Sleep(300 * time.Millisecond)
}
