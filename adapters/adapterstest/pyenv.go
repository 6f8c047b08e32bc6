package adapterstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ShimExit is the exit status of FakePyenv's shim: a run that went through
// it.
const ShimExit = 97

// FakePyenv makes a pyenv installation whose global version, 9.9.9, is this
// machine's python3 (a symlink to it), and puts its shims first on PATH.
// Its python3 shim is pyenv's as far as strobe reads it, and fails with
// ShimExit when run. It returns pyenv's root and the version's bin
// directory.
func FakePyenv(t *testing.T) (root, bin string) {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(t.TempDir(), "pyenv")
	bin = filepath.Join(root, "versions", "9.9.9", "bin")
	WriteFiles(t, root, map[string]string{"version": "9.9.9\n", "libexec/pyenv": ""})
	shim := "#!/bin/sh\necho went through the shim >&2\nexit 97\nexec \"" + root + "/libexec/pyenv\" exec \"$program\" \"$@\"\n"
	for _, d := range []string{filepath.Join(root, "shims"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "shims", "python3"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(strings.TrimSpace(string(out)), filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(root, "shims")+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("PYENV_ROOT", root)
	t.Setenv("PYENV_VERSION", "")
	os.Unsetenv("PYENV_VERSION")
	t.Setenv("PYENV_DIR", "")
	os.Unsetenv("PYENV_DIR")
	return root, bin
}

// PyenvEnvTest is a Python test file that passes when it runs as pyenv
// exec would run it from FakePyenv's shim: the version's bin first on
// PATH, PYENV_VERSION set.
func PyenvEnvTest(bin string) string {
	return `import os
import unittest


class TestEnv(unittest.TestCase):
    def test_env(self):
        self.assertEqual(os.environ["PATH"].split(os.pathsep)[0], ` + strconv.Quote(bin) + `)
        self.assertEqual(os.environ["PYENV_VERSION"], "9.9.9")
`
}
