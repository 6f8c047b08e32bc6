// Package main (a test package of that name) leaks a goroutine that goleak.VerifyTestMain finds after its tests passed.
package main

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func worker(ch chan int) {
	for range ch {
	}
}

func TestLeaky(t *testing.T) {
	ch := make(chan int)
	go worker(ch)
}

func TestFine(t *testing.T) {}
