package kit

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"strobe/internal/shell"
)

// ResolveProgram finds the program of a command: a path, relative to the
// project, or a name on env's PATH.
func ResolveProgram(root, prog string, env []string) (string, error) {
	if strings.ContainsRune(prog, '/') {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(root, prog)
		}
		return prog, nil
	}
	return shell.LookPath(prog, env)
}

// LooksLikeTestBinary says whether path is an executable ELF or Mach-O
// file holding every one of markers (read up to 1 GiB). Test frameworks
// linked into a binary leave their option names and messages in it;
// checking them first keeps a probe from running programs that belong
// to another framework or none (a GoogleTest binary ignores Catch2's
// --list-tests and runs its whole suite, and the reverse).
//
// A file that is not the framework's is read to its end, which is what
// detection pays for a command such as `go test` (a 15 MB program, read
// once by each adapter that knows test binaries): the file is mapped and
// searched in place, or read into one buffer where it cannot be mapped.
func LooksLikeTestBinary(path string, markers ...[]byte) bool {
	return scanBinary(path, markers, true)
}

// LooksLikeTestBinaryAny is LooksLikeTestBinary for a file holding at
// least one of markers (a static library's help text, or a shared one's
// name), in one read of the file.
func LooksLikeTestBinaryAny(path string, markers ...[]byte) bool {
	return scanBinary(path, markers, false)
}

// mapBinaries is false in the tests of the reading that is the fallback.
var mapBinaries = true

// markerMax bounds the length of a marker: a chunk's last markerMax bytes
// are searched again with the next, as a marker may straddle two reads.
const markerMax = 64

func scanBinary(path string, markers [][]byte, all bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return false
	}
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return false
	}
	switch {
	case string(magic[:]) == "\x7fELF":
	case bytes.Equal(magic[:], []byte{0xcf, 0xfa, 0xed, 0xfe}), bytes.Equal(magic[:], []byte{0xca, 0xfe, 0xba, 0xbe}):
	default:
		return false
	}
	found := make([]bool, len(markers))
	// holds says whether b completes the search: every marker, or one.
	holds := func(b []byte) bool {
		every := true
		for i, m := range markers {
			if !found[i] && bytes.Contains(b, m) {
				found[i] = true
			}
			if found[i] && !all {
				return true
			}
			every = every && found[i]
		}
		return all && every
	}
	size := min(st.Size(), 1<<30)
	if mapBinaries {
		if b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			// Mapped, the file's pages are searched where the page cache
			// holds them: no copy into the process.
			defer syscall.Munmap(b)
			return holds(b)
		}
	}
	buf := make([]byte, markerMax+1<<20)
	carried := 0
	r := io.LimitReader(f, size-int64(len(magic)))
	for {
		n, err := r.Read(buf[carried:])
		chunk := buf[:carried+n]
		if holds(chunk) {
			return true
		}
		if err != nil {
			return false
		}
		carried = copy(buf, chunk[max(0, len(chunk)-markerMax):])
	}
}
