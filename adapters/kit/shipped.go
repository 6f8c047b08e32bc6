package kit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// SharedDir returns the directory that holds files (name → content) for
// every run that ships the same ones: the user's cache directory's
// strobe/<kind>/<digest of the files>, made the first time, "" when there
// is none to use. A framework keeps what it derives from a file by the
// file's path (Python's bytecode, pytest's rewritten asserts, jest's
// transform cache, whose key holds every setup file's path): written to a
// new directory for each run, the files were compiled again for each run.
// What the directory holds decides what a run loads, so it is checked
// before each use: the user's own directory, writable by no one else, not
// a symlink, with the files as strobe ships them. It is written to a
// temporary directory renamed into place, so that no run sees it half
// written, and no run changes it after; one found spoilt (a file changed
// or gone, other permissions) is renamed aside and replaced.
func SharedDir(kind string, files map[string][]byte) string {
	cache, err := os.UserCacheDir()
	if err != nil || !filepath.IsAbs(cache) {
		return ""
	}
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%s %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	base := filepath.Join(cache, "strobe", kind)
	dir := filepath.Join(base, hex.EncodeToString(h.Sum(nil))[:16])
	if ownDir(base) && SharedIntact(dir, files) {
		return dir
	}
	if os.MkdirAll(base, 0o700) != nil || !ownDir(base) {
		return ""
	}
	tmp, err := os.MkdirTemp(base, ".tmp-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	if WriteShipped(tmp, files) != nil {
		return ""
	}
	if os.Rename(tmp, dir) != nil && !SharedIntact(dir, files) {
		// There and spoilt (not another run's, made meanwhile).
		aside := tmp + ".old"
		if os.Rename(dir, aside) == nil {
			os.Rename(tmp, dir)
			os.RemoveAll(aside) // a symlink's target stays
		}
	}
	if SharedIntact(dir, files) {
		return dir
	}
	return ""
}

// WriteShipped writes files (name → content) into dir, readable by the
// user alone.
func WriteShipped(dir string, files map[string][]byte) error {
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// SharedIntact says whether dir is the user's own directory, writable by
// no one else, and holds files as they are.
func SharedIntact(dir string, files map[string][]byte) bool {
	if !ownDir(dir) {
		return false
	}
	for name, src := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(b, src) {
			return false
		}
	}
	return true
}

// ownDir says whether dir is a directory of the user's (not a symlink)
// that no one else can write into.
func ownDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}
