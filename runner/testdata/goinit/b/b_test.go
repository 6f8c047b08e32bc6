// Package b hangs in an init function of its tests, before any of them
// runs, while package a's test has passed.
package b

import (
	"testing"
	"time"
)

func init() {
	time.Sleep(time.Hour) // line 11
}

func TestB(t *testing.T) {}
