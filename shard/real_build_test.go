package shard_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
)

// gtest300 is the 300-test GoogleTest fixture, built once per source.
var gtest300 = testutil.CachedBuild{Name: "shard-gtest300", Sentinel: "many_test", Build: func(dir string) error {
	src, _ := filepath.Abs(filepath.Join("testdata", "gtest300"))
	cmd := exec.Command("g++", "-std=c++17", "-o", filepath.Join(dir, "many_test"), filepath.Join(src, "many_test.cpp"),
		"-lgtest", "-lgtest_main", "-pthread")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s%w", out, err)
	}
	return nil
}}

func buildGTest(t *testing.T, root string) string {
	t.Helper()
	testutil.RequireHeader(t, "/usr/include/gtest/gtest.h", "libgtest-dev")
	gtest300.Src = root
	return filepath.Join(gtest300.Dir(t), "many_test")
}

// npmCI installs a JavaScript fixture's locked dependencies; the run needs
// no command.
func npmCI(t *testing.T, root string) string {
	t.Helper()
	adapterstest.NpmCI(t, root)
	return ""
}
