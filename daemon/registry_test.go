package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/runner"
)

// TestCancelReachesARunBeingPlanned: while cargo metadata hangs, the run
// is already in the registry by its id, a second request is told that id,
// and cancelling the entry (debug_test_cancel's call) ends the planning.
func TestCancelReachesARunBeingPlanned(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "planning")
	script := "#!/bin/sh\nif [ \"$1\" = metadata ]; then : >" + marker + "; exec sleep 60; fi\nexit 0\n"
	os.WriteFile(filepath.Join(bin, "cargo"), []byte(script), 0o755)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "Cargo.toml"), []byte("[package]\nname = \"p\"\nversion = \"0.1.0\"\n"), 0o644)
	req := runner.Request{ProjectRoot: root, Framework: "cargo", Level: "unit", Command: "cargo test",
		Env: map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}}

	g := newRegistry(time.Minute)
	started := make(chan error, 1)
	go func() {
		_, err := g.start(req, runner.Options{DetailsDir: t.TempDir()}, 0)
		started <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cargo metadata never ran")
		}
	}
	runs := g.list()
	if len(runs) != 1 {
		t.Fatalf("runs while planning: %+v, want the one being planned", runs)
	}
	_, err := g.start(req, runner.Options{DetailsDir: t.TempDir()}, 0)
	if !adapters.IsUsage(err) || !strings.Contains(err.Error(), runs[0].RunID) || !strings.Contains(err.Error(), "`strobe show "+runs[0].RunID+"`") {
		t.Errorf("a second run: %v, want busy naming run %s, for an agent and for a person at a terminal", err, runs[0].RunID)
	}
	g.get(runs[0].RunID).Cancel()
	select {
	case err := <-started:
		if err == nil {
			t.Error("the cancelled run started")
		}
	case <-time.After(15 * time.Second):
		t.Fatal("cancel did not reach the planning")
	}
	if g.get(runs[0].RunID) != nil || g.running() != 0 {
		t.Errorf("the cancelled run stays registered: %+v", g.list())
	}
	if !g.cancelAll(time.Second) {
		t.Error("the registry still waits for the cancelled run")
	}
}

// TestStartAfterADoneRun: the answer of a run can reach its client, and
// the client's next request arrive, before the registry's goroutine clears
// the project; a run that is done does not make the next one busy (an
// agent asking again at once was told "a run … is already going").
func TestStartAfterADoneRun(t *testing.T) {
	root := t.TempDir()
	req := runner.Request{ProjectRoot: root, Framework: "generic", Command: "true"}
	g := newRegistry(time.Minute)
	done := make(chan struct{})
	close(done)
	g.active[filepath.Clean(root)] = &entry{id: "finished", root: root, started: time.Now(), done: done}
	e, err := g.start(req, runner.Options{DetailsDir: t.TempDir()}, 0)
	if err != nil {
		t.Fatalf("a run after a done one: %v", err)
	}
	<-e.done
	running := make(chan struct{}) // not closed: a run still going
	g.mu.Lock()
	g.active[filepath.Clean(root)] = &entry{id: "going", root: root, started: time.Now(), done: running}
	g.mu.Unlock()
	if _, err := g.start(req, runner.Options{DetailsDir: t.TempDir()}, 0); !adapters.IsUsage(err) || !strings.Contains(err.Error(), "going") {
		t.Errorf("a run beside one going: %v, want busy", err)
	}
	g.wg.Wait()
}
