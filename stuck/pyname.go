package stuck

import (
	"os"
	"path/filepath"
	"strings"

	"strobe/internal/lazyre"
)

// pyNames gives the Python frames of a capture the names a trace pattern
// takes (strobe's Python tracer matches a function by its module's
// __name__ and its qualified name): the stack dumps name a function
// alone (faulthandler's "parse_date") or by its class (py-spy's
// "Account.withdraw"), and a bare name suggested matched that function in
// every module. Files are read once.
type pyNames struct {
	root  string
	files map[string][]string
}

func newPyNames(root string) *pyNames {
	return &pyNames{root: root, files: map[string][]string{}}
}

// name is f's module and qualified name (iso8601.iso8601.parse_date,
// calc.tokens.Stack.push), or "" where it cannot be told for sure: the
// file is not found, its def is not above the frame's line, or the def is
// nested in another function (its qualified name has "<locals>", which no
// pattern names).
func (p *pyNames) name(f Frame) string {
	file := f.File
	if !filepath.IsAbs(file) {
		file = filepath.Join(p.root, file)
	}
	mod := pyModule(file)
	if mod == "" {
		return ""
	}
	lines, ok := p.files[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		p.files[file] = lines
	}
	qual := pyQualName(lines, f.Line, f.Func[strings.LastIndexByte(f.Func, '.')+1:])
	if qual == "" {
		return ""
	}
	return mod + "." + qual
}

// pyModule is the dotted name a Python file is imported under: its stem
// after the packages it is in, the directories above it that hold an
// __init__.py (a package's __init__.py is the package). A directory
// without one is where the import path starts (pytest puts it on
// sys.path; a src layout's src/). "" for what is no module's file.
func pyModule(file string) string {
	if !strings.HasSuffix(file, ".py") {
		return ""
	}
	var parts []string
	if stem := strings.TrimSuffix(filepath.Base(file), ".py"); stem != "__init__" {
		parts = append(parts, stem)
	}
	dir := filepath.Dir(file)
	for range 32 {
		if _, err := os.Stat(filepath.Join(dir, "__init__.py")); err != nil {
			break
		}
		parts = append([]string{filepath.Base(dir)}, parts...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if len(parts) == 0 || parts[len(parts)-1] == "__main__" {
		return ""
	}
	for _, p := range parts {
		if !pyIdent.MatchString(p) {
			return "" // no import reaches it (a test-data.py, a 2to3 dir)
		}
	}
	return strings.Join(parts, ".")
}

var (
	pyIdent = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// pyDef is a def or class statement: its kind and its name.
	pyDef = lazyre.New(`^[ \t]*(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)\b`)
)

// pyQualName is the qualified name of the function called name whose body
// holds line (1-based) of a file's lines: the def the line is in (the
// nearest def or class above it indented less, or on the line), after the
// classes it is in. "" when there is none, or when the def is nested in a function, or
// when a line between it and the module's top cannot be read as the
// statement that opens a block (a string's line at the margin): the
// bare name then stays.
func pyQualName(lines []string, line int, name string) string {
	if line < 1 || line > len(lines) || name == "" {
		return ""
	}
	at := line - 1
	limit := indentOf(lines[at])
	def := -1
	for i := at; i >= 0 && at-i < 5000; i-- {
		m := pyDef.FindStringSubmatch(lines[i])
		if m == nil || i != at && indentOf(lines[i]) >= limit {
			continue
		}
		// The innermost def or class the line is in: the function's def,
		// or the frame is not where this file says (it changed since).
		if m[1] == "def" && m[2] == name {
			def = i
		}
		break
	}
	if def < 0 {
		return ""
	}
	qual := []string{name}
	indent := indentOf(lines[def])
	for i := def - 1; i >= 0 && indent > 0; i-- {
		text := strings.TrimSpace(lines[i])
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "@") {
			continue
		}
		in := indentOf(lines[i])
		if in >= indent {
			continue
		}
		if m := pyDef.FindStringSubmatch(lines[i]); m != nil {
			if m[1] == "def" {
				return "" // name.<locals>.…: no pattern names it
			}
			qual = append([]string{m[2]}, qual...)
		} else if !strings.HasSuffix(codeOf(text), ":") {
			return "" // not a block's opening: a string's line, perhaps
		}
		indent = in
	}
	return strings.Join(qual, ".")
}

// indentOf is a line's indentation in columns (a tab to the next 8, as
// Python reads it).
func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n = n/8*8 + 8
		default:
			return n
		}
	}
	return n
}

// codeOf is a stripped line without a trailing comment (a '#' outside
// quotes, roughly: a '#' in a string on a block's opening line is rare).
func codeOf(text string) string {
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSpace(text)
}
