package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/runner"
)

// A strobe killed outright (SIGKILL: a harness's hard timeout, the OOM
// killer) cannot sweep its run, and Pdeathsig ends only the command's own
// process: cargo's test binary and a shell's children lived on, a hung one
// forever. The run's guard ends them.
func TestKilledStrobeLeavesNoProcess(t *testing.T) {
	rust, _ := filepath.Abs("../../stuck/testdata/rustdeadlock")
	cases := []struct {
		name, tool string
		args       []string
		env        []string
		waitFor    string // in the command line of the process that must go
	}{
		{"shell", "sh", []string{"--framework", "generic", "--command", `sh -c "sleep 3001 & sleep 3002; wait"`}, nil, "sleep 3002"},
		{"cargo", "cargo", []string{rust, "--framework", "cargo", "--test", "tests::sleeps_past_the_timeout"},
			[]string{"CARGO_TARGET_DIR=" + filepath.Join(os.TempDir(), "strobe-stuck-cargo-target")}, "sleeps_past_the_timeout"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testutil.RequireTool(t, tc.tool)
			marker := "STROBE_E2E_GUARD=" + strconv.FormatInt(time.Now().UnixNano(), 36) + tc.name
			cmd := exec.Command(strobeBin, append(append([]string{"test"}, tc.args...), "--no-daemon")...)
			cmd.Env = append(append(os.Environ(), "TMPDIR="+tmpdir(t), "STROBE_HOME="+strobeHome(t), marker), tc.env...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// The test's process is up and the guard watches its run.
			var runID string
			for deadline := time.Now().Add(2 * time.Minute); runID == "" || !guarded(runID); time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no guarded run of %q in time; processes: %v", tc.waitFor, processesWith(marker))
				}
				runID = runOf(marker, tc.waitFor)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			var left []string
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if left = processesWith(marker); len(left) == 0 {
					return
				}
			}
			t.Fatalf("strobe was killed; processes of its run lived on: %v", left)
		})
	}
}

// runOf is the run id of the process holding marker whose command line
// has want.
func runOf(marker, want string) string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, _ := os.ReadFile(d + "/environ")
		cmdline, _ := os.ReadFile(d + "/cmdline")
		if !strings.Contains(string(env), marker) || !strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), want) {
			continue
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if id, ok := strings.CutPrefix(kv, runner.RunIDEnv+"="); ok {
				return id
			}
		}
	}
	return ""
}

// guarded says whether the guard of run id is running.
func guarded(id string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmdline, _ := os.ReadFile(d + "/cmdline")
		if strings.Contains(string(cmdline), "strobe-guard") && strings.Contains(string(cmdline), runner.RunIDEnv+"="+id) {
			return true
		}
	}
	return false
}
