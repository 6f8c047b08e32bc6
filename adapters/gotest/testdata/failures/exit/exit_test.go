// Package exit's TestExit ends its test binary; TestAfterExit never runs.
package exit

import (
	"os"
	"testing"
)

func TestBeforeExit(t *testing.T) {}

func TestExit(t *testing.T) { os.Exit(3) }

func TestAfterExit(t *testing.T) {}
