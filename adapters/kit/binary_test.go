package kit

import (
	"os"
	"path/filepath"
	"testing"
)

// binary writes an executable of size bytes that starts with ELF's magic
// and holds each of marks at its offset.
func binary(t testing.TB, size int, marks map[int]string) string {
	t.Helper()
	b := make([]byte, size)
	copy(b, "\x7fELF")
	for at, m := range marks {
		copy(b[at:], m)
	}
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLooksLikeTestBinary tests the search in the mapped file and in the
// chunks read where it cannot be mapped.
func TestLooksLikeTestBinary(t *testing.T) {
	for _, mapped := range []bool{true, false} {
		t.Run(map[bool]string{true: "mapped", false: "read"}[mapped], func(t *testing.T) {
			mapBinaries = mapped
			defer func() { mapBinaries = true }()
			testLooksLikeTestBinary(t)
		})
	}
}

func testLooksLikeTestBinary(t *testing.T) {
	const mib = 1 << 20
	a, b := []byte("--list-tests"), []byte("Catch2")
	for _, tc := range []struct {
		name     string
		size     int
		marks    map[int]string
		all, any bool
	}{
		{"both", 3 * mib, map[int]string{100: "--list-tests", 2*mib + 7: "Catch2"}, true, true},
		{"one", 3 * mib, map[int]string{2*mib + 7: "Catch2"}, false, true},
		{"none", 3 * mib, nil, false, false},
		// The first read takes the file from its fifth byte, 1 MiB and
		// markerMax bytes of it; each next 1 MiB.
		{"across the first two reads", 3 * mib, map[int]string{4 + mib + markerMax - 5: "--list-tests", 10: "Catch2"}, true, true},
		{"across a later read", 3 * mib, map[int]string{4 + 2*mib + markerMax - 3: "Catch2", 10: "--list-tests"}, true, true},
		{"at the end", mib + 100, map[int]string{mib + 100 - len("Catch2"): "Catch2", 50: "--list-tests"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := binary(t, tc.size, tc.marks)
			if got := LooksLikeTestBinary(path, a, b); got != tc.all {
				t.Errorf("LooksLikeTestBinary = %v, want %v", got, tc.all)
			}
			if got := LooksLikeTestBinaryAny(path, a, b); got != tc.any {
				t.Errorf("LooksLikeTestBinaryAny = %v, want %v", got, tc.any)
			}
		})
	}
	t.Run("not executable", func(t *testing.T) {
		path := binary(t, 1000, map[int]string{10: "--list-tests", 40: "Catch2"})
		os.Chmod(path, 0o644)
		if LooksLikeTestBinary(path, a, b) || LooksLikeTestBinaryAny(path, a, b) {
			t.Error("a file that cannot run is not a test binary")
		}
	})
	t.Run("not ELF", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "script")
		os.WriteFile(path, []byte("#!/bin/sh\necho --list-tests Catch2\n"), 0o755)
		if LooksLikeTestBinary(path, a, b) || LooksLikeTestBinaryAny(path, a, b) {
			t.Error("a script is not a test binary")
		}
	})
}

// BenchmarkLooksLikeTestBinary reads a program that is no test binary (the
// benchmark's own), as detection does for a command such as `go test`.
func BenchmarkLooksLikeTestBinary(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(exe)
	b.SetBytes(st.Size())
	for range b.N {
		if LooksLikeTestBinary(exe, []byte("--list-tests\x00"), []byte("Catch2\x00")) {
			b.Fatal("the benchmark is no Catch2 binary")
		}
	}
}
