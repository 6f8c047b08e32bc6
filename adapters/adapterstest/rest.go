package adapterstest

import (
	"os/exec"
	"strings"
	"testing"
)

// RunRest runs, in dir, the command a stopped run's hint gives for the
// rest of its tests ("…; to run the rest without what hung: CMD", the
// runner's own hint after it), as a person pasting it would, and returns
// the command and what it printed. The test fails when the hint has none.
func RunRest(t *testing.T, hint, dir string) (cmd string, out []byte, err error) {
	t.Helper()
	_, rest, ok := strings.Cut(hint, "to run the rest without what hung: ")
	if !ok {
		t.Fatalf("hint %q gives no command for the rest", hint)
	}
	rest, _, _ = strings.Cut(rest, "; ")
	rest, _, _ = strings.Cut(rest, ". ") // the runner's hint follows
	c := exec.Command("sh", "-c", rest)
	c.Dir = dir
	out, err = c.CombinedOutput()
	return rest, out, err
}
