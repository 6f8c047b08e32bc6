package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeCargo puts a cargo on PATH whose metadata hangs, writing its pid to
// the returned file first: a planning step that does not end by itself
// (the unit level asks cargo metadata which targets are unit tests).
func fakeCargo(t *testing.T) (root string, env map[string]string, pidFile string) {
	t.Helper()
	bin := t.TempDir()
	pidFile = filepath.Join(t.TempDir(), "metadata.pid")
	script := "#!/bin/sh\nif [ \"$1\" = metadata ]; then echo $$ >" + pidFile + "; exec sleep 60; fi\nexit 0\n"
	if err := os.WriteFile(filepath.Join(bin, "cargo"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	os.WriteFile(filepath.Join(root, "Cargo.toml"), []byte("[package]\nname = \"p\"\nversion = \"0.1.0\"\n"), 0o644)
	return root, map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}, pidFile
}

// gone waits for the process in pidFile to be gone (or never started).
func gone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(5 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("cargo metadata (pid %d) outlived the cancelled plan", pid)
		}
	}
}

// TestCancelWhilePlanning: Cancel reaches a run whose adapter is still
// planning (cargo metadata hangs), which ends with an error, its Done
// closed, and the metadata process killed.
func TestCancelWhilePlanning(t *testing.T) {
	root, env, pidFile := fakeCargo(t)
	r, err := New(Request{ProjectRoot: root, Framework: "cargo", Level: "unit", Command: "cargo test", Env: env}, Options{DetailsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(pidFile); err == nil {
				break
			}
		}
		r.Cancel()
	}()
	start := time.Now()
	if err := r.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "stopped while it was being planned") {
		t.Errorf("Start = %v, want the planning stopped", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Start returned %v after the cancel", d)
	}
	select {
	case <-r.Done():
	default:
		t.Error("Done is not closed after a failed start")
	}
	if r.Result() == nil || r.Result().RunID != r.ID {
		t.Errorf("result %+v, want an error answer for run %s", r.Result(), r.ID)
	}
	gone(t, pidFile)
}

// TestExecContextStopsPlanning: the caller's context reaches the planning
// (strobe test --no-daemon interrupted while cargo metadata hangs).
func TestExecContextStopsPlanning(t *testing.T) {
	root, env, pidFile := fakeCargo(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	if _, err := Exec(ctx, Request{ProjectRoot: root, Framework: "cargo", Level: "unit", Command: "cargo test", Env: env}, Options{DetailsDir: t.TempDir()}); err == nil {
		t.Error("Exec planned and ran a cancelled run")
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Exec returned after %v, for a 1s context", d)
	}
	gone(t, pidFile)
}

// TestFailedSpawnClosesTheParser: Catch2's Plan starts a goroutine that
// tails the report file, in a directory of its own. When the binary then
// cannot start (its #! names no interpreter), the runner closes the
// parser: the goroutine ends and the directory goes.
func TestFailedSpawnClosesTheParser(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root := t.TempDir()
	bin := filepath.Join(root, "tests")
	os.WriteFile(bin, []byte("#!/nonexistent/interpreter\n"), 0o755)
	_, err := Exec(context.Background(), Request{ProjectRoot: root, Framework: "catch2", Command: bin}, Options{DetailsDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("Exec = %v, want the spawn's failure", err)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "strobe-catch2-*"))
	if len(left) > 0 {
		t.Errorf("the report directory stayed: %v", left)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "catch2.(*catch2Parser).decode") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the report's reader still runs:\n%s", stacks)
		}
	}
}
