package adapterstest

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
)

// colour is a terminal's colour or style code (kit.StripANSI's, which
// adapterstest cannot import: kit's own tests import adapterstest).
var colour = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// PasteShown plans req with a and pastes the plan's command as the answer
// shows it (Plan.Shown) in the plan's directory, as a person would once
// the run is over, and returns the command and what it printed, without
// terminal colours (vitest colours its output under CI=true). The test
// fails when the plan shows no command of its own (the answer would name
// strobe's exact argv), or when the command names a file the run's end
// removed (a reporter, a plugin or a report in the run's directory) or
// strobe's own modules.
func PasteShown(t *testing.T, a adapters.Adapter, req adapters.Request) (cmd string, out []byte) {
	t.Helper()
	plan, err := a.Plan(t.Context(), req, adapters.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := plan.Parser.(adapters.Closer); ok {
		c.Close() // removes the run's own files, as the run's end does
	}
	cmd = plan.Shown
	if cmd == "" {
		t.Fatalf("the plan shows no command of its own: the answer names its argv %q", plan.Argv)
	}
	if strings.Contains(cmd, "strobe_") {
		t.Fatalf("shown command %q names strobe's own modules", cmd)
	}
	for _, w := range strings.Fields(cmd) {
		w = strings.Trim(w, `'"`)
		if _, path, ok := strings.Cut(w, os.TempDir()+"/"); ok {
			if _, err := os.Stat(os.TempDir() + "/" + path); err != nil {
				t.Fatalf("shown command %q names %s, gone once the run ended", cmd, w)
			}
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Dir = plan.Dir
	out, _ = c.CombinedOutput()
	return cmd, colour.ReplaceAll(out, nil)
}
