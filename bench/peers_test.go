package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// gotestsumVersion is the gotestsum installed when none is found: the peer
// strobe's go figures are compared with.
const gotestsumVersion = "v1.13.0"

// gotestsum finds gotestsum on PATH or in the user's GOBIN (or
// GOPATH/bin), and otherwise installs it with `go install` into a GOBIN of
// this run's own, so that a fresh CI machine measures the peer too.
var gotestsum = sync.OnceValues(func() (string, error) {
	dst := filepath.Join(tmp, "gotestsum") // a copy, as strobe's (settled)
	if p, err := exec.LookPath("gotestsum"); err == nil {
		return settled(p, dst)
	}
	if p := userGoBin("gotestsum"); p != "" {
		return settled(p, dst)
	}
	gobin := filepath.Join(tmp, "gobin")
	cmd := exec.Command("go", "install", "gotest.tools/gotestsum@"+gotestsumVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing gotestsum %s: %w\n%s", gotestsumVersion, err, out)
	}
	return settled(filepath.Join(gobin, "gotestsum"), dst)
})

// userGoBin is name in `go env GOBIN`, else in GOPATH/bin, when it is there.
func userGoBin(name string) string {
	for _, v := range []string{"GOBIN", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil || len(out) <= 1 {
			continue
		}
		dir := string(out[:len(out)-1])
		if v == "GOPATH" {
			dir = filepath.Join(filepath.SplitList(dir)[0], "bin")
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func gotestsumBin(b *testing.B) string {
	b.Helper()
	p, err := gotestsum()
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// nextestInstalled says whether `cargo nextest` runs here; it is measured
// only when it does (it is not installed for the benchmark).
func nextestInstalled() bool {
	return exec.Command("cargo", "nextest", "--version").Run() == nil
}
