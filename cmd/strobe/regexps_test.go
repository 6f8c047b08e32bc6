package main

import (
	"testing"

	"strobe/internal/lazyre"
)

// The adapters' expressions compile on first use; this binary links every
// one of them, so a bad one fails here rather than in a user's run.
func TestEveryRegexpCompiles(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
}
