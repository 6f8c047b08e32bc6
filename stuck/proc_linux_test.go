package stuck

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestProcViewSeesExec: a process read before it execs is read again
// after: its key (pid, start time) stays, its command line does not. A
// vitest test's `sleep`, first seen between fork and exec, kept the
// fork's command line and was taken for a test process.
func TestProcViewSeesExec(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 0.3; exec sleep 5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	v := NewProcView()
	args := func() (string, []string) {
		snap, err := v.Sample(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		return snap.Procs[0].Name, snap.Procs[0].Args
	}
	if name, a := args(); name != "sh" || a[0] != "sh" {
		t.Fatalf("before exec: %s %q, want sh", name, a)
	}
	want := []string{"sleep", "5"}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if name, a := args(); name == "sleep" && slices.Equal(a, want) {
			return
		}
	}
	name, a := args()
	t.Fatalf("after exec: %s %q, want sleep %q", name, a, want)
}
