package stuck

import (
	"strconv"
	"strings"
)

// demangleRust reads what eu-stack leaves of Rust symbols: the legacy
// scheme's escapes ($LT$, $u7b$, ..) and, in full, v0 symbols (_RNv…),
// which the toolchain's own libraries use and elfutils 0.188 cannot read.
// A symbol it cannot read comes back as it was. A legacy symbol eu-stack
// left whole (a release build's, with an ".llvm.NNN" suffix: tokio's
// park) is read as far as its nested name.
func demangleRust(fn string) string {
	if strings.HasPrefix(fn, "_ZN") {
		fn = demangleNested(fn)
	}
	if strings.HasPrefix(fn, "_R") {
		if s, ok := demangleV0(fn); ok {
			return s
		}
		return fn
	}
	if strings.Contains(fn, "$") {
		return unescapeLegacy(fn)
	}
	return fn
}

var legacyEscapes = strings.NewReplacer("$LT$", "<", "$GT$", ">", "$LP$", "(", "$RP$", ")", "$C$", ",",
	"$SP$", "@", "$BP$", "*", "$RF$", "&", "$u20$", " ", "$u27$", "'", "$u5b$", "[", "$u5d$", "]",
	"$u7b$", "{", "$u7d$", "}", "$u7e$", "~", "$u3b$", ";", "$u2b$", "+", "$u22$", "\"", "..", "::")

func unescapeLegacy(fn string) string {
	parts := strings.Split(fn, "::")
	for i, p := range parts {
		if strings.HasPrefix(p, "_$") {
			p = p[1:]
		}
		parts[i] = legacyEscapes.Replace(p)
	}
	return strings.Join(parts, "::")
}

// v0 is a small reader of Rust's v0 mangling
// (https://doc.rust-lang.org/rustc/symbol-mangling/v0.html): paths,
// generic arguments and the common types; enough for stack frames.
type v0 struct {
	s     string
	i     int
	depth int
	bad   bool
}

func demangleV0(sym string) (string, bool) {
	d := &v0{s: sym[2:]}
	if d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.decimal() // encoding version
	}
	out := d.path()
	if d.bad {
		return "", false
	}
	return out, true
}

func (d *v0) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *v0) next() byte {
	c := d.peek()
	if c == 0 {
		d.bad = true
		return 0
	}
	d.i++
	return c
}

func (d *v0) decimal() int {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	n, err := strconv.Atoi(d.s[start:d.i])
	if err != nil {
		d.bad = true
	}
	return n
}

func (d *v0) base62() int {
	if d.peek() == '_' {
		d.i++
		return 0
	}
	n := 0
	for {
		c := d.next()
		switch {
		case c == '_':
			return n + 1
		case c >= '0' && c <= '9':
			n = n*62 + int(c-'0')
		case c >= 'a' && c <= 'z':
			n = n*62 + int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			n = n*62 + int(c-'A') + 36
		default:
			d.bad = true
			return 0
		}
	}
}

func (d *v0) disambiguator() {
	if d.peek() == 's' {
		d.i++
		d.base62()
	}
}

func (d *v0) ident() string {
	d.disambiguator()
	if d.peek() == 'u' {
		d.i++ // punycode: kept as written
	}
	n := d.decimal()
	if d.peek() == '_' {
		d.i++
	}
	if d.bad || d.i+n > len(d.s) {
		d.bad = true
		return ""
	}
	id := d.s[d.i : d.i+n]
	d.i += n
	return id
}

// backref runs f at an earlier position of the symbol.
func (d *v0) backref(f func() string) string {
	pos := d.base62() // wraps negative past 11 digits, as crate hashes do
	if d.bad || pos < 0 || pos >= d.i || d.depth > 40 {
		d.bad = true
		return ""
	}
	saved := d.i
	d.i = pos
	d.depth++
	out := f()
	d.depth--
	d.i = saved
	return out
}

func (d *v0) path() string {
	if d.bad {
		return ""
	}
	switch d.next() {
	case 'C':
		return d.ident()
	case 'M':
		d.disambiguator()
		d.path() // the impl's own path: not shown
		return "<" + d.typ() + ">"
	case 'X':
		d.disambiguator()
		d.path()
		t := d.typ()
		return "<" + t + " as " + d.path() + ">"
	case 'Y':
		t := d.typ()
		return "<" + t + " as " + d.path() + ">"
	case 'N':
		ns := d.next()
		parent := d.path()
		id := d.ident()
		switch ns {
		case 'C':
			return parent + "::{{closure}}"
		case 'S':
			return parent + "::{{shim}}"
		}
		if id == "" {
			return parent
		}
		return parent + "::" + id
	case 'I':
		p := d.path()
		var args []string
		for d.peek() != 'E' && !d.bad {
			args = append(args, d.genericArg())
		}
		d.next()
		return p + "<" + strings.Join(args, ", ") + ">"
	case 'B':
		return d.backref(d.path)
	}
	d.bad = true
	return ""
}

func (d *v0) genericArg() string {
	switch d.peek() {
	case 'L':
		d.i++
		d.base62()
		return "'_"
	case 'K':
		d.i++
		return d.constant()
	}
	return d.typ()
}

func (d *v0) constant() string {
	if d.peek() == 'B' {
		d.i++
		return d.backref(d.constant)
	}
	if d.peek() == 'p' {
		d.i++
		return "_"
	}
	d.typ()
	if d.peek() == 'n' {
		d.i++
	}
	start := d.i
	for d.peek() != '_' && !d.bad {
		d.next()
	}
	hex := d.s[start:d.i]
	d.next()
	if n, err := strconv.ParseUint(hex, 16, 64); err == nil {
		return strconv.FormatUint(n, 10)
	}
	return hex
}

var basicTypes = map[byte]string{'a': "i8", 'b': "bool", 'c': "char", 'd': "f64", 'e': "str", 'f': "f32",
	'h': "u8", 'i': "isize", 'j': "usize", 'l': "i32", 'm': "u32", 'n': "i128", 'o': "u128", 's': "i16",
	't': "u16", 'u': "()", 'v': "...", 'x': "i64", 'y': "u64", 'z': "!", 'p': "_"}

func (d *v0) typ() string {
	if d.bad {
		return ""
	}
	c := d.peek()
	if t, ok := basicTypes[c]; ok {
		d.i++
		return t
	}
	switch c {
	case 'R', 'Q':
		d.i++
		if d.peek() == 'L' {
			d.i++
			d.base62()
		}
		if c == 'Q' {
			return "&mut " + d.typ()
		}
		return "&" + d.typ()
	case 'P':
		d.i++
		return "*const " + d.typ()
	case 'O':
		d.i++
		return "*mut " + d.typ()
	case 'A':
		d.i++
		t := d.typ()
		return "[" + t + "; " + d.constant() + "]"
	case 'S':
		d.i++
		return "[" + d.typ() + "]"
	case 'T':
		d.i++
		var ts []string
		for d.peek() != 'E' && !d.bad {
			ts = append(ts, d.typ())
		}
		d.next()
		return "(" + strings.Join(ts, ", ") + ")"
	case 'F':
		d.i++
		if d.peek() == 'G' {
			d.i++
			d.base62()
		}
		if d.peek() == 'U' {
			d.i++
		}
		if d.peek() == 'K' {
			d.i++
			if d.peek() == 'C' {
				d.i++
			} else {
				d.ident()
			}
		}
		var ts []string
		for d.peek() != 'E' && !d.bad {
			ts = append(ts, d.typ())
		}
		d.next()
		return "fn(" + strings.Join(ts, ", ") + ") -> " + d.typ()
	case 'D':
		d.i++
		if d.peek() == 'G' {
			d.i++
			d.base62()
		}
		var bounds []string
		for d.peek() != 'E' && !d.bad {
			p := d.path()
			for d.peek() == 'p' {
				d.i++
				d.ident()
				d.typ()
			}
			bounds = append(bounds, p)
		}
		d.next()
		if d.peek() == 'L' {
			d.i++
			d.base62()
		}
		return "dyn " + strings.Join(bounds, " + ")
	case 'B':
		d.i++
		return d.backref(d.typ)
	}
	return d.path()
}
