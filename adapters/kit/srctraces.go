package kit

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"strobe/internal/lazyre"
)

// Sources reads a project's Rust, C and C++ sources for suggested traces,
// each language's once.
type Sources struct {
	root string
	idx  map[string]*srcIndex
}

// NewSources reads the sources under root when they are asked for.
func NewSources(root string) *Sources { return &Sources{root: root, idx: map[string]*srcIndex{}} }

func (s *Sources) index(lang string) *srcIndex {
	if s.idx[lang] == nil {
		s.idx[lang] = indexSources(s.root, lang)
	}
	return s.idx[lang]
}

// Traces suggests trace patterns for a failure at file:line of a
// Rust, C or C++ project whose stack names no function of the project (an
// assert_eq! or EXPECT_EQ in the test's own body): the project functions
// that line calls, then those they call, breadth first, at most
// sourceTraces, as the tracer's patterns write them (parser::sum,
// calc::sum). The sources are read as text, not compiled: a function is a
// definition with a body (fn NAME … { in Rust; NAME(…) { in C and C++),
// qualified by the mod, namespace, impl, class and struct blocks around
// it (and a Rust file's module path), and a call is a name before "(";
// macros, methods called on a value and names the project does not define
// are left out.
func (s *Sources) Traces(file string, line int) []string {
	if file == "" || line <= 0 {
		return nil
	}
	lang := sourceLang(file)
	if lang == "" {
		return nil
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.root, file)
	}
	if !Within(s.root, abs) {
		return nil
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	if line > len(lines) {
		return nil
	}
	idx := s.index(lang)
	seen := map[*srcFunc]bool{}
	level := idx.resolve(calledNames(lines[line-1]), &srcFunc{file: filepath.Clean(abs)})
	if lang == "rust" && rustFnRe.Re().MatchString(lines[line-1]) {
		// The failure is at a test's declaration (a #[should_panic] test
		// that did not panic, libtest says where the fn is): what its
		// body calls, one of which was to panic; never the test itself,
		// which the line names.
		own := idx.defined(filepath.Clean(abs), line)
		if own == nil {
			return nil
		}
		seen[own] = true
		level = idx.resolve(calledNames(own.body), own)
	}
	var out []string
	for depth := 0; depth <= 2 && len(level) > 0; depth++ {
		var next []*srcFunc
		for _, f := range level {
			if seen[f] {
				continue
			}
			seen[f] = true
			// Two functions of one name (a helper fn f in several Rust
			// test crates) are one pattern: the tracer matches both.
			if !slices.Contains(out, f.name) {
				out = append(out, f.name)
			}
			if len(out) == sourceTraces {
				return out
			}
			next = append(next, idx.resolve(calledNames(f.body), f)...)
		}
		level = next
	}
	return out
}

// sourceTraces bounds the suggestions of one failure.
const sourceTraces = 8

// maxSourceFiles bounds the files read for one project.
const maxSourceFiles = 2000

func sourceLang(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".rs":
		return "rust"
	case ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx":
		return "c"
	}
	return ""
}

// srcFunc is a function defined in the project's sources.
type srcFunc struct {
	name  string // qualified: parser::sum
	scope string // the blocks around it: parser
	file  string // where it is defined
	line  int    // and the line of its name
	body  string
}

type srcIndex struct{ funcs []*srcFunc }

var (
	callRe = lazyre.New(`((?:\w+::)*\w+)\s*(?:::<[^>]*>)?\(`)
	// A Rust definition; a C/C++ one: a name (maybe qualified) and its
	// parameters, then the body's brace (a const, noexcept or override
	// between), not a ; of a declaration nor a call in an expression.
	rustFnRe = lazyre.New(`\bfn\s+(\w+)\s*(?:<[^{;]*?>)?\s*\(`)
	cFnRe    = lazyre.New(`(?m)^[ \t]*(?:[\w:<>,*&]+[ \t*&]+)+((?:\w+::)*~?\w+)\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{`)
	blockRe  = lazyre.New(`\b(?:mod|namespace|impl(?:<[^>]*>)?(?:\s+\w+\s+for)?|class|struct)\s+(\w+)[^;{}()]*\{`)
)

var notCalls = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "match": true,
	"catch": true, "sizeof": true, "fn": true, "Some": true, "Ok": true, "Err": true, "Box": true, "Vec": true, "String": true}

// calledNames are the names s calls: not macros (name!), not methods
// called on a value (.name( or ->name().
func calledNames(s string) []string {
	var out []string
	for _, m := range callRe.FindAllStringSubmatchIndex(s, -1) {
		if m[2] > 0 && strings.ContainsRune(".>:", rune(s[m[2]-1])) {
			continue // a method called on a value
		}
		n := s[m[2]:m[3]]
		last := n[strings.LastIndex(n, ":")+1:]
		if notCalls[last] || last == strings.ToUpper(last) || slices.Contains(out, n) {
			continue // keywords, and MACROS (EXPECT_EQ, TEST)
		}
		out = append(out, n)
	}
	return out
}

// resolve finds the project functions that names call from caller (the
// failing line's file, for the line itself): a name written qualified or
// not matches a function whose qualified name ends with it; those of the
// caller's file first (each Rust file of tests/ is a crate of its own, and
// a C file's static helpers are its own), then those of its scope.
func (x *srcIndex) resolve(names []string, caller *srcFunc) []*srcFunc {
	var out []*srcFunc
	for _, n := range names {
		var found []*srcFunc
		for _, f := range x.funcs {
			if f.name == n || strings.HasSuffix(f.name, "::"+n) {
				found = append(found, f)
			}
		}
		narrow := func(keep func(*srcFunc) bool) {
			var same []*srcFunc
			for _, f := range found {
				if keep(f) {
					same = append(same, f)
				}
			}
			if len(same) > 0 {
				found = same
			}
		}
		if len(found) > 1 {
			narrow(func(f *srcFunc) bool { return f.file == caller.file })
		}
		if len(found) > 1 && caller.name != "" {
			narrow(func(f *srcFunc) bool { return f.scope == caller.scope })
		}
		if len(found) <= 3 { // more is a name too common to guess from
			out = append(out, found...)
		}
	}
	return out
}

// defined is the function defined at file:line, nil when there is none.
func (x *srcIndex) defined(file string, line int) *srcFunc {
	for _, f := range x.funcs {
		if f.file == file && f.line == line {
			return f
		}
	}
	return nil
}

// indexSources reads the project's functions of a language, skipping
// built, vendored and hidden directories.
func indexSources(root, lang string) *srcIndex {
	x := &srcIndex{}
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "build") || strings.HasPrefix(name, "cmake-build") ||
				slices.Contains([]string{"target", "vendor", "node_modules", "_deps", "third_party", "external"}, name)) {
				return filepath.SkipDir
			}
			return nil
		}
		if sourceLang(name) != lang || n >= maxSourceFiles {
			return nil
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil || len(b) > 1<<20 {
			return nil
		}
		prefix := ""
		if lang == "rust" {
			prefix = rustModule(root, path)
		}
		funcs := sourceFuncs(string(b), lang, prefix)
		for _, f := range funcs {
			f.file = filepath.Clean(path)
		}
		x.funcs = append(x.funcs, funcs...)
		return nil
	})
	return x
}

// rustModule is a Rust file's module path below its crate's src:
// src/lib.rs and src/main.rs are the crate, src/a/b.rs and src/a/b/mod.rs
// are a::b.
func rustModule(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if i := slices.Index(parts, "src"); i >= 0 {
		parts = parts[i+1:]
	} else {
		return "" // tests/, benches/: a crate of its own per file
	}
	last := strings.TrimSuffix(parts[len(parts)-1], ".rs")
	parts = parts[:len(parts)-1]
	if last != "mod" && last != "lib" && last != "main" {
		parts = append(parts, last)
	}
	return strings.Join(parts, "::")
}

// sourceFuncs finds the functions of one file with their bodies, named
// within the blocks around them.
func sourceFuncs(src, lang, prefix string) []*srcFunc {
	type block struct {
		name      string
		open, end int
	}
	var blocks []block
	for _, m := range blockRe.FindAllStringSubmatchIndex(src, -1) {
		blocks = append(blocks, block{src[m[2]:m[3]], m[1] - 1, matchBrace(src, m[1]-1)})
	}
	scopeAt := func(pos int) string {
		var names []string
		if prefix != "" {
			names = append(names, prefix)
		}
		for _, b := range blocks {
			if b.open < pos && pos < b.end {
				names = append(names, b.name)
			}
		}
		return strings.Join(names, "::")
	}
	re := cFnRe
	if lang == "rust" {
		re = rustFnRe
	}
	var out []*srcFunc
	line, counted := 1, 0
	for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
		line += strings.Count(src[counted:m[2]], "\n")
		counted = m[2]
		open := strings.IndexByte(src[m[1]-1:], '{')
		if open < 0 {
			continue
		}
		open += m[1] - 1
		if lang == "rust" && strings.ContainsRune(src[m[1]:open], ';') {
			continue // a trait's declaration without a body
		}
		end := matchBrace(src, open)
		name := src[m[2]:m[3]]
		if notCalls[name] || name == strings.ToUpper(name) {
			continue
		}
		scope := scopeAt(m[0])
		full := name
		if scope != "" {
			full = scope + "::" + name
		}
		out = append(out, &srcFunc{name: full, scope: scope, line: line, body: src[open:end]})
	}
	return out
}

// matchBrace is the offset just past the brace that closes the one at
// open (the end of src when it is never closed); braces in strings and
// comments are counted too, which a suggestion can afford.
func matchBrace(src string, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(src)
}
