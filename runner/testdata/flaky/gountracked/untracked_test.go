// Package untracked is a fixture for strobe's retries and repeats of Go
// tests: its test passes on its first run only, and counts its runs in a
// file it reads and writes through syscall, which go test's result cache
// does not see (it sees what os opens and os.Getenv reads). So go test
// answers a command that passed before with that pass, from its cache,
// without running the test: as it does for a test that depends on time,
// the network or a server's state.
package untracked

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

func TestUntracked(t *testing.T) {
	path := filepath.Join(os.Getenv("FLAKY_DIR"), "untracked")
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT, 0o644)
	if err != nil {
		t.Fatalf("counting runs: %v", err)
	}
	defer syscall.Close(fd)
	buf := make([]byte, 16)
	n, _ := syscall.Read(fd, buf)
	runs, _ := strconv.Atoi(string(buf[:n]))
	runs++
	if _, err := syscall.Pwrite(fd, []byte(strconv.Itoa(runs)), 0); err != nil {
		t.Fatalf("counting runs: %v", err)
	}
	if runs > 1 {
		t.Fatalf("run %d fails: only the first passes", runs)
	}
}
