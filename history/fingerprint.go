package history

import (
	"encoding/hex"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"strobe/report"
)

// tempRoots start the temporary paths that differ from one run to the next:
// go's t.TempDir, mktemp, pytest's tmp_path, macOS's per-user /var/folders.
var tempRoots = []string{"/private/var/folders/", "/private/tmp/", "/var/folders/", "/var/tmp/", "/dev/shm/", "/tmp/"}

// Normalise is msg without what changes from one run of the same failure to
// the next: a temporary path becomes <tmp>, and every token holding a
// digit (a number, a hex address, a duration such as 1.5s, a UUID, a
// timestamp; a token runs through . : + - between word characters) becomes
// #; whitespace is folded. It is one pass over
// the message, no regular expressions: a run fingerprints every failure.
func Normalise(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	space := false
	for i := 0; i < len(msg); {
		if root := tempRoot(msg, i); root != "" {
			j := i + len(root)
			for j < len(msg) && !strings.ContainsRune(" \t\r\n\"'`,;:)]}", rune(msg[j])) {
				j++
			}
			space = writeSep(&b, space)
			b.WriteString("<tmp>")
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(msg[i:])
		switch {
		case unicode.IsSpace(r):
			space = true
			i += n
		case isWord(r):
			// A token runs on through . : + - between word characters,
			// so 1.5s, 0xc000, 13:31:39.5+01:00 and a UUID are one each.
			j, digit := i, false
			for j < len(msg) {
				r, n := utf8.DecodeRuneInString(msg[j:])
				if strings.ContainsRune(".:+-", r) && j+1 < len(msg) {
					if next, _ := utf8.DecodeRuneInString(msg[j+1:]); isWord(next) {
						j++
						continue
					}
				}
				if !isWord(r) {
					break
				}
				digit = digit || ('0' <= r && r <= '9')
				j += n
			}
			space = writeSep(&b, space)
			if digit {
				b.WriteByte('#')
			} else {
				b.WriteString(msg[i:j])
			}
			i = j
		default:
			space = writeSep(&b, space)
			b.WriteString(msg[i : i+n])
			i += n
		}
	}
	return b.String()
}

// writeSep writes the one space that stands for a run of whitespace, except
// at the start.
func writeSep(b *strings.Builder, space bool) bool {
	if space && b.Len() > 0 {
		b.WriteByte(' ')
	}
	return false
}

func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// tempRoot is the temporary directory prefix at msg[i:], if a path starts
// there: not after a word, nor after the # that replaced one, so that a
// normalised message normalises to itself.
func tempRoot(msg string, i int) string {
	if msg[i] != '/' || i > 0 && (isWord(rune(msg[i-1])) || strings.IndexByte("/.#", msg[i-1]) >= 0) {
		return ""
	}
	for _, p := range tempRoots {
		if strings.HasPrefix(msg[i:], p) {
			return p
		}
	}
	return ""
}

// Fingerprint identifies one failure of one test: its suite and name, its
// normalised message and where it failed. Two runs that fail the same way
// have the same fingerprint; a different message or line does not.
func Fingerprint(suite string, f *report.Failure) string {
	h := fnv.New64a()
	for _, s := range []string{suite, f.Name, Normalise(f.Message), f.File, strconv.Itoa(f.Line)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
