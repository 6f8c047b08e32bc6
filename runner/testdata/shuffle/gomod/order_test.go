// Package shuffle has a test that fails only after another has run
// (go test -shuffle=on): alone it passes.
package shuffle

import "testing"

var polluted bool

func TestPollute(t *testing.T) { polluted = true }

func TestVictim(t *testing.T) {
	if polluted {
		t.Fatal("polluted by an earlier test")
	}
}
