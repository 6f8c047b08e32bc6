package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// CMakeTree configures and builds the CMake project src (a Debug build)
// once, in a temporary directory named after its place and its top-level
// files' hash, and returns the build tree. Unlike CachedBuild it builds in
// place: CTest's files name the tree by its absolute path, so a tree built
// elsewhere and renamed cannot run. A lock file beside the tree keeps two
// test processes (the ctest adapter's and the runner's) from building it
// at once.
func CMakeTree(src string) (string, error) {
	h := sha256.New()
	files, _ := filepath.Glob(filepath.Join(src, "*"))
	h.Write([]byte(src))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		h.Write([]byte(filepath.Base(f)))
		h.Write(b)
	}
	dir := filepath.Join(os.TempDir(), "strobe-ctest-fixture-"+hex.EncodeToString(h.Sum(nil))[:12])
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(filepath.Join(dir, ".built")); err == nil {
		return dir, nil
	}
	os.RemoveAll(dir) // a build cut short
	for _, argv := range [][]string{{"cmake", "-S", src, "-B", dir, "-DCMAKE_BUILD_TYPE=Debug"}, {"cmake", "--build", dir, "-j2"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("%s%w", out, err)
		}
	}
	return dir, os.WriteFile(filepath.Join(dir, ".built"), nil, 0o644)
}
