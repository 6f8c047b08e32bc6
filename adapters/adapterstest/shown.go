package adapterstest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
)

// PasteShown plans req with a and pastes the plan's command as the answer
// shows it (Plan.Shown) in the plan's directory, as a person would, and
// returns the command and what it printed. The test fails when the
// command names something of strobe's own (a reporter or plugin in a
// temporary directory, removed after the run), or is the exact argv
// strobe runs rather than what a person types.
func PasteShown(t *testing.T, a adapters.Adapter, req adapters.Request) (cmd string, out []byte) {
	t.Helper()
	plan, err := a.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := plan.Parser.(adapters.Closer); ok {
		defer c.Close()
	}
	cmd = plan.Shown
	if cmd == "" {
		t.Fatalf("the plan shows no command of its own: the answer names its argv %q", plan.Argv)
	}
	if strings.Contains(cmd, os.TempDir()+"/") || strings.Contains(cmd, "strobe") {
		t.Fatalf("shown command %q names strobe's own files", cmd)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Dir = plan.Dir
	out, _ = c.CombinedOutput()
	return cmd, out
}
