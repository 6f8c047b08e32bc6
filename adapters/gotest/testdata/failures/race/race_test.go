// Package race has a data race, for go test -race.
package race

import "testing"

var shared int

func TestRace(t *testing.T) {
	done := make(chan bool)
	go func() {
		shared++
		done <- true
	}()
	shared++
	<-done
}
