package hang

import (
	"os"
	"testing"
)

// TestDeadlock hangs forever when TRACEFIX_DEADLOCK is set, so that a
// whole-suite run of the fixture stays quick.
func TestDeadlock(t *testing.T) {
	if os.Getenv("TRACEFIX_DEADLOCK") == "" {
		t.Skip("set TRACEFIX_DEADLOCK=1 to deadlock")
	}
	Twice()
}
