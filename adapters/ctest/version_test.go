package ctest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"strobe/adapters"
	"strobe/internal/testutil"
)

// TestInstalledVersion: the version is read from the one
// share/cmake-MAJOR.MINOR beside bin/ctest (through a symlink too), and
// not guessed when there are several or none.
func TestInstalledVersion(t *testing.T) {
	for _, tc := range []struct {
		name  string
		share []string
		want  [2]int
	}{
		{"one", []string{"cmake-3.28", "cmake", "aclocal"}, [2]int{3, 28}},
		{"two", []string{"cmake-3.25", "cmake-3.28"}, [2]int{}},
		{"none", []string{"cmake"}, [2]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := t.TempDir()
			os.MkdirAll(filepath.Join(prefix, "bin"), 0o755)
			os.WriteFile(filepath.Join(prefix, "bin", "ctest"), nil, 0o755)
			for _, d := range tc.share {
				os.MkdirAll(filepath.Join(prefix, "share", d), 0o755)
			}
			link := filepath.Join(t.TempDir(), "ctest")
			if err := os.Symlink(filepath.Join(prefix, "bin", "ctest"), link); err != nil {
				t.Fatal(err)
			}
			if got := installedVersion(link); got != tc.want {
				t.Errorf("installedVersion = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestInstalledVersionAgrees: where this machine's installation tells the
// version, it is the one ctest --version prints.
func TestInstalledVersionAgrees(t *testing.T) {
	testutil.RequireTool(t, "ctest")
	bin, err := exec.LookPath("ctest")
	if err != nil {
		t.Fatal(err)
	}
	v := installedVersion(bin)
	if v == [2]int{} {
		t.Logf("%s: its installation does not tell its version; ctest --version is asked", bin)
		return
	}
	asked := func() [2]int {
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		m := versionLine.FindSubmatch(out)
		if m == nil {
			t.Fatalf("ctest --version: %s", out)
		}
		major, _ := strconv.Atoi(string(m[1]))
		minor, _ := strconv.Atoi(string(m[2]))
		return [2]int{major, minor}
	}()
	if v != asked {
		t.Errorf("the installation of %s says %v, ctest --version %v", bin, v, asked)
	}
	if got := ctestVersion(context.Background(), bin, adapters.Request{ProjectRoot: t.TempDir()}); got != asked {
		t.Errorf("ctestVersion = %v, want %v", got, asked)
	}
}
