package kit

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"strobe/internal/lazyre"
)

// RustTestDecl finds where a libtest test is declared, for a failure whose
// output gives no location (a test that returned Err, one that called
// exit): the line of its `fn NAME`. The test's path as libtest names it
// (a::b::tests::t, without the crate) is read from its target's root file
// (cargo's src_path: src/lib.rs, tests/it.rs, src/main.rs), module by
// module: an inline `mod a {` block, or `mod a;` in a.rs or a/mod.rs
// beside the file (a/ for a.rs's own modules), or in the file a simple
// #[path = "…"] names. The sources are read as text, their comments and
// literals left out, and only at the level of the module the path names,
// so a function of the same name elsewhere is not taken for the test.
// "" when the path does not lead to it (a test a macro wrote).
func RustTestDecl(root, test string) (string, int) {
	if root == "" || test == "" {
		return "", 0
	}
	return rustDecl(root, filepath.Dir(root), strings.Split(test, "::"), 0)
}

// rustModPath reads a #[path = "…"] among the attributes before a `mod
// NAME;`: "#[path = \"t.rs\"]\n#[cfg(test)]\npub ".
var rustModPath = lazyre.New(`#\[\s*path\s*=\s*"([^"]+)"\s*\](?:\s*#\[[^\]]*\])*\s*(?:pub(?:\s*\([^)]*\))?\s+)?$`)

// rustDecl looks for segs in file, whose modules' files are in dir.
func rustDecl(file, dir string, segs []string, hops int) (string, int) {
	b, err := os.ReadFile(file)
	if err != nil || len(b) > 4<<20 || hops > 32 {
		return "", 0
	}
	src := string(b)
	code := rustCode(src)
	return rustDeclIn(file, dir, src, code, 0, len(code), segs, hops)
}

// rustDeclIn looks for segs in code[start:end] of file (src, and code with
// its comments and literals blanked), whose modules' files are in dir.
func rustDeclIn(file, dir, src, code string, start, end int, segs []string, hops int) (string, int) {
	if len(segs) == 1 {
		m := rustTopLevel(code, start, end, `\bfn\s+`+regexp.QuoteMeta(segs[0])+`\b`, 1)
		if m == nil {
			return "", 0
		}
		return file, 1 + strings.Count(src[:m[0][0]], "\n")
	}
	// A module may be declared more than once, each under a #[cfg] of its
	// own and often a #[path] (once_cell's three `mod imp;`, one for each
	// backend): the declaration that holds the rest of the path is the one.
	for _, m := range rustTopLevel(code, start, end, `\bmod\s+`+regexp.QuoteMeta(segs[0])+`\s*([{;])`, -1) {
		var f string
		var line int
		switch p := rustModPath.FindStringSubmatch(src[max(0, m[0]-300):m[0]]); {
		case code[m[2]] == '{': // inline: mod a { … }
			f, line = rustDeclIn(file, filepath.Join(dir, segs[0]), src, code, m[3], matchBrace(code, m[2]), segs[1:], hops)
		case p != nil:
			at := dir
			if start == 0 { // outside inline blocks: beside the file
				at = filepath.Dir(file)
			}
			next := filepath.Join(at, p[1])
			f, line = rustDecl(next, filepath.Dir(next), segs[1:], hops+1)
		default:
			child := filepath.Join(dir, segs[0])
			next := child + ".rs"
			if !isFile(next) {
				next = filepath.Join(child, "mod.rs")
			}
			f, line = rustDecl(next, child, segs[1:], hops+1)
		}
		if f != "" {
			return f, line
		}
	}
	return "", 0
}

// rustTopLevel is the matches of expr in code[start:end] outside the
// braces of any block within it, the first n of them (all when n < 0).
func rustTopLevel(code string, start, end int, expr string, n int) [][]int {
	var out [][]int
	depth, at := 0, start
	for _, m := range regexp.MustCompile(expr).FindAllStringSubmatchIndex(code[start:end], -1) {
		for ; at < start+m[0]; at++ {
			switch code[at] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth == 0 {
			for i := range m {
				if m[i] >= 0 {
					m[i] += start
				}
			}
			if out = append(out, m); len(out) == n {
				break
			}
		}
	}
	return out
}

// rustCode is src with its comments and the insides of its string and
// character literals blanked (newlines kept, offsets unchanged), so that
// braces and words in them are not read as code.
func rustCode(src string) string {
	b := []byte(src)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	ident := func(i int) bool {
		c := src[i]
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			blank(i, i+end)
			i += end
		case strings.HasPrefix(src[i:], "/*"):
			depth, j := 0, i
			for j < len(src) {
				if strings.HasPrefix(src[j:], "/*") {
					depth, j = depth+1, j+2
				} else if strings.HasPrefix(src[j:], "*/") {
					depth, j = depth-1, j+2
					if depth == 0 {
						break
					}
				} else {
					j++
				}
			}
			blank(i, j)
			i = j
		case c == 'r' && (i == 0 || !ident(i-1) || src[i-1] == 'b' && (i == 1 || !ident(i-2))) && rawStringAt(src[i+1:]) >= 0:
			hashes := rawStringAt(src[i+1:])
			open := i + 1 + hashes + 1
			close := strings.Index(src[open:], `"`+strings.Repeat("#", hashes))
			end := len(src)
			if close >= 0 {
				end = open + close
			}
			blank(open, end)
			i = min(len(src), end+1+hashes)
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i+1, j)
			i = j + 1
		case c == '\'':
			// A character literal ('{', '\n', '\u{7b}'), not a lifetime ('a).
			j := i + 1
			if j < len(src) && src[j] == '\\' {
				k := strings.IndexByte(src[j+1:], '\'')
				if k < 0 {
					i++
					continue
				}
				j += 1 + k
			} else {
				_, n := utf8.DecodeRuneInString(src[j:])
				if j+n >= len(src) || src[j+n] != '\'' {
					i++
					continue
				}
				j += n
			}
			blank(i+1, j)
			i = j + 1
		default:
			i++
		}
	}
	return string(b)
}

// rawStringAt is the number of #s of a raw string literal whose r comes
// just before s (r"…", r#"…"#), or -1 when s does not open one.
func rawStringAt(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n < len(s) && s[n] == '"' {
		return n
	}
	return -1
}

// rustErrorLine is libtest's line for a test that returned Err
// (Termination for Result): "Error: " and the error's Debug.
var rustErrorLine = lazyre.New(`(?m)^Error: `)

// RustReturnedErr says whether a failed test's output is that of a test
// that returned Err: libtest's "Error: …" line, and no panic.
func RustReturnedErr(out string) bool {
	return rustErrorLine.MatchString(out) && !rustPanicHead.MatchString(out)
}

// RustErrNote ends the message of a test that returned Err: nothing in
// the output says which ? or Err returned it, so its file:line is the
// test's declaration (RustTestDecl).
const RustErrNote = "(the test returned this Err; the line is the test's declaration: the output does not say which ? or Err returned it)"
