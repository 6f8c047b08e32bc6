package kit

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

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
func LooksLikeTestBinary(path string, markers ...[]byte) bool {
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
	buf := make([]byte, 1<<20)
	var carry []byte
	r := io.LimitReader(f, 1<<30)
	for {
		n, err := r.Read(buf)
		chunk := append(carry, buf[:n]...)
		all := true
		for i, m := range markers {
			if !found[i] && bytes.Contains(chunk, m) {
				found[i] = true
			}
			all = all && found[i]
		}
		if all {
			return true
		}
		if err != nil {
			return false
		}
		// Keep the chunk's end: a marker may straddle two reads.
		carry = append(carry[:0], chunk[max(0, len(chunk)-64):]...)
	}
}
