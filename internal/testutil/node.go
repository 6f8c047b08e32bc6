package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// node22Version is what the STROBE_TEST_NODE22 binary says its version is,
// asked once per test binary.
var node22Version struct {
	once sync.Once
	v    string
	err  error
}

// Node22Env names the node 22 binary the node:test tests also run under
// (.ci/run installs node@22 from npm and sets it). node 22 changed its
// test runner's events and their timing, and most users run it, while the
// machine's node is 20.
const Node22Env = "STROBE_TEST_NODE22"

// EachNode runs f as a subtest under the node on PATH ("node"), then
// under the node that STROBE_TEST_NODE22 names, first on PATH
// ("node22"). Without it that subtest is skipped on a developer's machine
// and fails under CI=true.
func EachNode(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	t.Run("node", f)
	t.Run("node22", func(t *testing.T) {
		UseNode22(t)
		f(t)
	})
}

// UseNode22 puts the node that STROBE_TEST_NODE22 names first on PATH for
// the rest of t, as EachNode's "node22" subtest does; without it t is
// skipped on a developer's machine and fails under CI=true. It sets PATH
// for the whole process, so t cannot be parallel. A test that should stay
// parallel to its package's others under the node on PATH (the runner's
// stuck tests, whose verdicts wait seconds and overlap) has a sibling for
// node 22 that calls it.
func UseNode22(t *testing.T) {
	t.Helper()
	bin := os.Getenv(Node22Env)
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: .ci/run must install node 22 and name its binary there", Node22Env)
		}
		t.Skipf("%s is not set: set it to a node 22 binary (npm install --prefix DIR node@22; DIR/bin/node) to run this test under node 22 too", Node22Env)
	}
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		t.Fatalf("%s=%s: not a node binary (%v)", Node22Env, bin, err)
	}
	// Another node there would pass for node 22 and test nothing new.
	node22Version.once.Do(func() {
		out, err := exec.Command(bin, "--version").Output()
		node22Version.v, node22Version.err = strings.TrimSpace(string(out)), err
	})
	if v := node22Version.v; node22Version.err != nil || !strings.HasPrefix(v, "v22.") {
		t.Fatalf("%s=%s: %s --version says %q (%v), want v22.*", Node22Env, bin, bin, v, node22Version.err)
	}
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
}
