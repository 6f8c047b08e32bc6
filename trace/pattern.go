package trace

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Pattern kinds.
const (
	// KindName matches functions by qualified name (Pattern.Regex).
	KindName = "name"
	// KindFile matches every function defined in a file (Pattern.File).
	KindFile = "file"
	// KindProject matches every function defined in the project's own
	// files (see Spec.ProjectRoot and Spec.Exclude).
	KindProject = "project"
)

// Pattern is one compiled function pattern.
type Pattern struct {
	// Raw is the pattern as the request wrote it.
	Raw  string `json:"raw"`
	Kind string `json:"kind"`
	// Regex is searched in a function's qualified name, without its
	// parameter list (calc::parse, not calc::parse(&str)). It carries its
	// own anchors and reads the same in Go's regexp and Python's re.
	Regex string `json:"regex,omitempty"`
	// File is @file's name: a function matches when the path of the file
	// that defines it is File or ends with "/" + File.
	File string `json:"file,omitempty"`
}

// Exclude are the path segments that make a file under the project root
// someone else's code for @project: vendored, installed or built code.
var Exclude = []string{"vendor", "node_modules", "site-packages", "dist-packages", ".venv", "venv", "target", "_deps", ".cargo", ".git"}

// Compile reads one pattern of the grammar docs/trace.md describes:
//
//	a::b        exact: a::b, or crate::a::b, never a::bc or a::b::c;
//	            a<int>::b too (a class template's method)
//	a::*        one segment below a
//	a::**       any depth below a
//	*::name     name one segment below anything
//	pkg.Func    Go and Python: the same with "." (pkg.(*T).Method, module.Class.method, pkg.*);
//	            pkg.T.Method also matches the pointer receiver's pkg.(*T).Method
//	name        a function called name anywhere
//	@file:x.rs  every function defined in x.rs
//	@project    every function of the project's own code
//
// A * inside a segment matches any run of characters within it (parse_*),
// except in a Go receiver, where (*T) is literal.
func Compile(raw string) (Pattern, error) {
	p := strings.TrimSpace(raw)
	switch {
	case p == "":
		return Pattern{}, fmt.Errorf("empty trace pattern: give a function such as parser::parse, calc.Add or module.func")
	case strings.ContainsAny(p, " \t\n"):
		return Pattern{}, fmt.Errorf("trace pattern %q has a space: give one function pattern per entry, such as parser::parse", raw)
	case p == "@project":
		return Pattern{Raw: raw, Kind: KindProject}, nil
	case strings.HasPrefix(p, "@file:"):
		f := filepath.ToSlash(strings.TrimPrefix(p, "@file:"))
		if f == "" || strings.HasSuffix(f, "/") {
			return Pattern{}, fmt.Errorf("trace pattern %q names no file: write @file:parser.rs", raw)
		}
		return Pattern{Raw: raw, Kind: KindFile, File: strings.TrimPrefix(f, "./")}, nil
	case strings.HasPrefix(p, "@"):
		return Pattern{}, fmt.Errorf("unknown trace pattern %q: the @ forms are @file:NAME and @project", raw)
	}
	sep := "."
	if strings.Contains(p, "::") {
		sep = "::"
	}
	segs := strings.Split(p, sep)
	for _, s := range segs {
		if s == "" {
			return Pattern{}, fmt.Errorf("trace pattern %q has an empty segment: write a%sb, not a%s%sb", raw, sep, sep, sep)
		}
		if strings.Contains(s, "***") {
			return Pattern{}, fmt.Errorf("trace pattern %q: use * for one segment and ** for any depth", raw)
		}
	}
	re := compileName(segs, sep)
	if _, err := regexp.Compile(re); err != nil {
		return Pattern{}, fmt.Errorf("trace pattern %q cannot be read: %v", raw, err)
	}
	return Pattern{Raw: raw, Kind: KindName, Regex: re}, nil
}

// compileName builds a name pattern's regular expression. The start is
// anchored at a segment boundary (a crate, package path or module prefix
// may come before), the end at the name's end, past generic arguments.
func compileName(segs []string, sep string) string {
	qsep, notSep := `::`, `[^:]`
	start := outsideGenerics
	switch {
	case len(segs) == 1 && sep == ".":
		// One segment, no separator: a name in any language.
		notSep, start = `[^:./]`, `(?:^|::|[./<\s&*])`
	case sep == ".":
		qsep, notSep = `\.`, `[^./]`
		start = `(?:^|[./<\s])`
	}
	var b strings.Builder
	b.WriteString(start)
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case "**":
			if last {
				b.WriteString(`.+`)
			} else {
				b.WriteString(`(?:.+` + qsep + `)?`)
			}
			continue
		case "*":
			b.WriteString(notSep + `+`)
		default:
			if sep == "." && !last && goTypeName.MatchString(s) {
				b.WriteString(receiver(s))
			} else {
				b.WriteString(segment(s, notSep))
			}
		}
		if !last {
			if sep == "::" {
				// a class template's (or Rust generic type's) arguments:
				// Box::get is Box<int>::get too
				b.WriteString(`(?:<.*>)?`)
			}
			b.WriteString(qsep)
		}
	}
	b.WriteString(`(?:<.*>)?$`)
	return b.String()
}

// outsideGenerics starts a :: pattern where a path starts outside any
// generic arguments: at the name's start, after a prefix of path segments
// (crate::a::), in the type or the trait of a trait impl's <T as Trait>,
// a reference or pointer type's too (<&mut T as …>). Not inside another
// function's arguments: rustc names std's generic functions with the
// crate's types in them (alloc::vec::Vec<…>::extend_desugared<…,
// shlex::bytes::{impl#2}::join…>), and shlex::bytes::** matched 117
// functions, 82 of them std's (the same with C++ templates).
var outsideGenerics = func() string {
	path := `(?:` + balanced(4) + `*::)?`
	return `^(?:` + path + `|<(?:&(?:mut )?|\*(?:const|mut) )?` + path + `|<` + balanced(4) + `*?\sas\s` + path + `)`
}()

// balanced matches one character outside angle brackets or a whole
// bracketed group, nested up to depth deep: a path's generic arguments,
// Vec<Option<u8>>. Regular expressions cannot count; four levels hold the
// paths seen in rustc's and gdb's names before a crate's function.
func balanced(depth int) string {
	inner := `[^<>]`
	for range depth {
		inner = `(?:[^<>]|<` + inner + `*>)`
	}
	return inner
}

// goTypeName is a segment that may be a Go receiver's type written bare.
var goTypeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// receiver reads a bare type T before a method as Go names the method
// either way: T.M (a value receiver) or (*T).M (a pointer receiver, the
// common case), and with a generic type's arguments, T[int].M or
// (*T[go.shape.int]).M. Agents write pkg.T.M far more often than
// pkg.(*T).M, which alone matched only value receivers before.
func receiver(t string) string {
	q := regexp.QuoteMeta(t)
	return `(?:` + q + `(?:\[.*\])?|\(\*` + q + `(?:\[.*\])?\))`
}

// segment quotes a literal segment, with * as a wildcard within it, but
// not in a Go receiver's "(*".
func segment(s, notSep string) string {
	var b strings.Builder
	for i, r := range s {
		if r == '*' && !(i > 0 && s[i-1] == '(') {
			b.WriteString(notSep + `*`)
			continue
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}

// CompileAll compiles the patterns of one request.
func CompileAll(raw []string) ([]Pattern, error) {
	out := make([]Pattern, 0, len(raw))
	for _, r := range raw {
		p, err := Compile(r)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Matcher matches functions against a pattern in Go (the Delve tracer and
// tests); the other tracers do the same in their own language.
type Matcher struct {
	p       Pattern
	re      *regexp.Regexp
	root    string
	exclude []string
}

// NewMatcher compiles p's regular expression. root is the project root for
// @project.
func NewMatcher(p Pattern, root string) (*Matcher, error) {
	m := &Matcher{p: p, root: filepath.Clean(root)}
	if p.Kind == KindName {
		re, err := regexp.Compile(p.Regex)
		if err != nil {
			return nil, err
		}
		m.re = re
	}
	return m, nil
}

// Match reports whether the function name, defined in file (absolute, or
// empty when unknown), matches.
func (m *Matcher) Match(name, file string) bool {
	switch m.p.Kind {
	case KindName:
		return m.re.MatchString(name)
	case KindFile:
		f := filepath.ToSlash(file)
		return f == m.p.File || strings.HasSuffix(f, "/"+m.p.File)
	case KindProject:
		return ProjectFile(m.root, file)
	}
	return false
}

// ProjectFile reports whether file is the project's own code: under root,
// and under none of the Exclude segments.
func ProjectFile(root, file string) bool {
	if file == "" || !filepath.IsAbs(file) {
		return false
	}
	rel, err := filepath.Rel(root, filepath.Clean(file))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		for _, x := range Exclude {
			if seg == x {
				return false
			}
		}
	}
	return true
}
