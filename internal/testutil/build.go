package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// RequireHeader fails (under CI=true) or skips the test when a system
// header is missing, saying which Debian package .ci/run must install.
func RequireHeader(t testing.TB, header, pkg string) {
	t.Helper()
	if _, err := os.Stat(header); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s missing: .ci/run must install Debian's %s", header, pkg)
		}
		t.Skipf("%s missing (Debian's %s)", header, pkg)
	}
}

// CachedBuild is a native fixture built once per test binary into a
// directory named after a hash of its sources and their place (the
// frameworks record absolute source paths), so later runs and other test
// packages reuse it and a changed source or another checkout builds anew.
type CachedBuild struct {
	Name     string                 // names the directory: strobe-NAME-HASH
	Src      string                 // the fixture's sources (their top level is hashed)
	Sentinel string                 // a file the finished build has
	Build    func(dir string) error // builds into dir

	once sync.Once
	dir  string
	err  string
}

// Dir builds the fixture if no earlier run did, and returns its directory.
func (b *CachedBuild) Dir(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		h := sha256.New()
		h.Write([]byte(b.Src))
		files, _ := filepath.Glob(filepath.Join(b.Src, "*"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			h.Write([]byte(filepath.Base(f)))
			h.Write(data)
		}
		dir := filepath.Join(os.TempDir(), "strobe-"+b.Name+"-"+hex.EncodeToString(h.Sum(nil))[:12])
		if _, err := os.Stat(filepath.Join(dir, b.Sentinel)); err == nil {
			b.dir = dir
			return
		}
		tmp, err := os.MkdirTemp(os.TempDir(), "strobe-"+b.Name+"-build-")
		if err != nil {
			b.err = err.Error()
			return
		}
		if err := b.Build(tmp); err != nil {
			b.err = err.Error()
			os.RemoveAll(tmp)
			return
		}
		if os.Rename(tmp, dir) != nil { // another test process built it first
			os.RemoveAll(tmp)
		}
		b.dir = dir
	})
	if b.err != "" {
		t.Fatalf("building the %s fixture: %s", b.Name, b.err)
	}
	return b.dir
}
