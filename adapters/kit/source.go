package kit

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// maxSourceLine bounds the line SourceLine gives.
const maxSourceLine = 300

// SourceLine is line n of file (relative to root, or absolute), trimmed:
// the statement a failure without a message is at. "" when the file or
// the line cannot be read.
func SourceLine(root, file string, n int) string {
	if !filepath.IsAbs(file) {
		file = filepath.Join(root, file)
	}
	f, err := os.Open(file)
	if err != nil || n < 1 {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			l := strings.TrimSpace(sc.Text())
			if len(l) > maxSourceLine {
				l = strings.ToValidUTF8(l[:maxSourceLine], "") + "…"
			}
			return l
		}
	}
	return ""
}
