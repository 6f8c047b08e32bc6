package node

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// KeepNodeOnly asks node about a script's options once per node program:
// the daemon's second run of the same script starts no node for it (each
// question is a node start, 62 ms of every run of a script such as
// `node --stack-size=256 --expose-gc jest`), and another node at the same
// path (its size or time changed) is asked again. node here is a wrapper
// that logs each start and runs the real one.
func TestKeepNodeOnlyAsksOnce(t *testing.T) {
	real := testutil.RequireTool(t, "node")
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "starts")
	wrapper := filepath.Join(bin, "node")
	write := func(extra string) {
		if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho start >> "+log+extra+"\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	starts := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "start")
	}
	keep := func() []string {
		s := Script{Words: []string{"node", "--stack-size=256", "--expose-gc", "node_modules/.bin/jest"}}
		s.KeepNodeOnly(context.Background(), env, dir)
		return s.NodeArgv()
	}
	want := []string{"node", "--stack-size=256"}
	if got := keep(); !slices.Equal(got, want) {
		t.Fatalf("NodeArgv %q, want %q", got, want)
	}
	first := starts()
	if first != 2 { // refused --stack-size=, then --expose-gc alone accepted
		t.Fatalf("node started %d times for the first run, want 2", first)
	}
	if got := keep(); !slices.Equal(got, want) || starts() != first {
		t.Errorf("second run: NodeArgv %q, node started %d more times; want %q and none", got, starts()-first, want)
	}
	write("\n: another node") // same path, another program
	os.Chtimes(wrapper, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if got := keep(); !slices.Equal(got, want) || starts() != first+2 {
		t.Errorf("after node changed: NodeArgv %q, node started %d more times; want %q and 2", got, starts()-first, want)
	}
}
