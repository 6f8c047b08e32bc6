// Package order has a test that fails only after another (go test -shuffle=on).
package order

import "testing"

var polluted bool

func TestPollute(t *testing.T) { polluted = true }

func TestVictim(t *testing.T) {
	if polluted {
		t.Fatal("polluted by an earlier test")
	}
}
