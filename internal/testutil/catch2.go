package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var catch2 struct {
	once sync.Once
	dir  string
	err  string
}

// Catch2Fixtures builds testdata/fixtures/catch2/plain (g++ and Debian's
// Catch2 v2) and returns the directory of its binaries. The build lands in
// a directory named after a hash of the sources and their place (Catch2
// records absolute source paths), so later runs and other test packages
// reuse it, and a changed source or another checkout builds anew.
func Catch2Fixtures(t testing.TB) string {
	t.Helper()
	RequireTool(t, "g++")
	if _, err := os.Stat("/usr/include/catch2/catch.hpp"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("catch2 headers missing: .ci/run must install Debian's catch2")
		}
		t.Skip("catch2 headers missing")
	}
	catch2.once.Do(func() {
		src := Fixture("catch2", "plain")
		h := sha256.New()
		h.Write([]byte(src))
		files, _ := filepath.Glob(filepath.Join(src, "*"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			h.Write([]byte(filepath.Base(f)))
			h.Write(b)
		}
		dir := filepath.Join(os.TempDir(), "strobe-catch2-fixtures-"+hex.EncodeToString(h.Sum(nil))[:12])
		if _, err := os.Stat(filepath.Join(dir, "notcatch")); err == nil {
			catch2.dir = dir
			return
		}
		tmp, err := os.MkdirTemp(os.TempDir(), "strobe-catch2-build-")
		if err != nil {
			catch2.err = err.Error()
			return
		}
		if out, err := exec.Command(filepath.Join(src, "build.sh"), tmp).CombinedOutput(); err != nil {
			catch2.err = string(out) + err.Error()
			os.RemoveAll(tmp)
			return
		}
		if os.Rename(tmp, dir) != nil { // another test process built it first
			os.RemoveAll(tmp)
		}
		catch2.dir = dir
	})
	if catch2.err != "" {
		t.Fatalf("building the Catch2 fixtures: %s", catch2.err)
	}
	return catch2.dir
}
