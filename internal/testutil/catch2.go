package testutil

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	catch2Once  sync.Once
	catch2Build *CachedBuild
)

// Catch2Fixtures builds testdata/fixtures/catch2/plain (g++ and Debian's
// Catch2 v2) and returns the directory of its binaries (see CachedBuild).
func Catch2Fixtures(t testing.TB) string {
	t.Helper()
	RequireTool(t, "g++")
	RequireHeader(t, "/usr/include/catch2/catch.hpp", "catch2")
	catch2Once.Do(func() {
		src := Fixture("catch2", "plain")
		catch2Build = &CachedBuild{Name: "catch2-fixtures", Src: src, Sentinel: "notcatch", Build: func(dir string) error {
			if out, err := exec.Command(filepath.Join(src, "build.sh"), dir).CombinedOutput(); err != nil {
				return fmt.Errorf("%s%w", out, err)
			}
			return nil
		}}
	})
	return catch2Build.Dir(t)
}
