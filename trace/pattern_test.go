package trace

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"strobe/internal/testutil"
)

var nameCases = []struct {
	pattern string
	match   []string
	miss    []string
}{
	{"parser::parse", []string{"parser::parse", "mycrate::parser::parse", "mycrate::parser::parse<i32>", "<mycrate::X as mycrate::parser::parse"},
		[]string{"parser::parse_all", "myparser::parse", "parser::parse::inner"}},
	{"parser::*", []string{"parser::parse", "c::parser::lex"}, []string{"parser::a::b", "parser"}},
	{"parser::**", []string{"parser::parse", "parser::a::b::c"}, []string{"parser", "xparser::a"}},
	{"*::parse", []string{"a::parse", "x::a::parse"}, []string{"parse", "a::parsed"}},
	{"a::**::b", []string{"a::b", "a::x::y::b"}, []string{"a::xb", "a::b::c"}},
	{"parse_*", []string{"parse_all", "m::parse_one"}, []string{"m::xparse_all"}},
	{"calc.Add", []string{"calc.Add", "example.com/m/calc.Add"}, []string{"calc.AddAll", "mycalc.Add", "calc.Add.func1"}},
	{"calc.(*P).Parse", []string{"example.com/m/calc.(*P).Parse"}, []string{"example.com/m/calc.(*Q).Parse", "calc.P.Parse"}},
	{"calc.*", []string{"example.com/m/calc.Add", "calc.Sub"}, []string{"calc.(*P).Parse.func1"}},
	// gofrs/flock's methods have pointer receivers: Delve names them
	// flock.(*Flock).String, and flock.Flock.String matched nothing.
	{"flock.Flock.String", []string{"github.com/gofrs/flock.(*Flock).String", "flock.Flock.String"},
		[]string{"flock.(*Flocks).String", "flock.(*Flock).Strings", "flock.(*MyFlock).String"}},
	{"Flock.Path", []string{"github.com/gofrs/flock.(*Flock).Path"}, []string{"flock.(*Flock).Path.func1"}},
	{"list.List.Push", []string{"example.com/m/list.(*List[go.shape.int]).Push", "list.List[go.shape.string].Push"}, []string{"list.(*List[int]).Pop"}},
	{"pkg.mod.Class.method", []string{"pkg.mod.Class.method", "top.pkg.mod.Class.method"}, []string{"pkg.mod.Class.methods"}},
	{"mod.*", []string{"mod.func", "pkg.mod.run"}, []string{"mod.Class.method"}},
	{"mod.**", []string{"mod.func", "mod.Class.method"}, []string{"module.func"}},
	{"parse", []string{"parse", "a::parse", "calc.parse", "ns::parse<int>"}, []string{"parser", "reparse"}},
	// A class template's method: cxxopts::values::abstract_value::parse
	// matched none of gdb's abstract_value<int>::parse.
	{"values::abstract_value::parse", []string{"cxxopts::values::abstract_value<int>::parse", "values::abstract_value<std::vector<int, std::allocator<int> > >::parse", "values::abstract_value::parse"},
		[]string{"values::abstract_value<int>::parse_all", "values::abstract_values<int>::parse", "values::abstract_value<int>::x::parse"}},
	{"values::*::parse", []string{"values::abstract_value<std::vector<int, std::allocator<int> > >::parse", "values::V::parse"}, []string{"values::a::b::parse"}},
	// shlex::bytes::** matched std's generic functions instantiated with
	// the crate's types (gdb's names of a debug build of shlex 1.3): a
	// pattern starts where a path does, not inside another function's
	// generic arguments.
	{"shlex::bytes::**", []string{"shlex::bytes::join", "shlex::bytes::Shlex::new", "shlex::bytes::{impl#2}::join",
		"shlex::bytes::join::{closure#0}", "shlex::bytes::Quoter::quote<&str>",
		"<shlex::bytes::Shlex as core::iter::traits::iterator::Iterator>::next", "<&mut shlex::bytes::Shlex as core::fmt::Debug>::fmt",
		"<alloc::string::String as shlex::bytes::Quote>::quote", "<alloc::vec::Vec<core::option::Option<u8>> as shlex::bytes::Quote>::quote"},
		[]string{"alloc::vec::Vec<u8, alloc::alloc::Global>::extend_desugared<u8, alloc::alloc::Global, core::iter::adapters::map::Map<core::slice::iter::Iter<&[u8]>, shlex::bytes::{impl#2}::join::{closure#0}>>",
			"core::ptr::drop_in_place<shlex::bytes::Shlex>", "<alloc::vec::Vec<shlex::bytes::Token> as core::ops::drop::Drop>::drop",
			"core::iter::traits::iterator::Iterator::map<shlex::bytes::Shlex, u8>"}},
	{"parser::parse", []string{"std::vector<int>::x<calc::T>::parser::parse", "<calc::Parser<calc::Token<u8>> as core::default::Default>::parser::parse"},
		[]string{"core::ptr::drop_in_place<calc::parser::parse>", "std::function<void (calc::parser::parse)>"}},
}

func TestCompileMatchesInGo(t *testing.T) {
	for _, tc := range nameCases {
		p, err := Compile(tc.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tc.pattern, err)
		}
		m, err := NewMatcher(p, "/")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.match {
			if !m.Match(n, "") {
				t.Errorf("%q (regex %s) does not match %q", tc.pattern, p.Regex, n)
			}
		}
		for _, n := range tc.miss {
			if m.Match(n, "") {
				t.Errorf("%q (regex %s) matches %q", tc.pattern, p.Regex, n)
			}
		}
	}
}

// TestCompileMatchesInPython checks that Python's re reads the compiled
// expressions as Go does: the pytest and gdb tracers match with them.
func TestCompileMatchesInPython(t *testing.T) {
	py := testutil.RequireTool(t, "python3")
	type item struct {
		Regex string `json:"regex"`
		Name  string `json:"name"`
		Want  bool   `json:"want"`
	}
	var items []item
	for _, tc := range nameCases {
		p, err := Compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tc.match {
			items = append(items, item{p.Regex, n, true})
		}
		for _, n := range tc.miss {
			items = append(items, item{p.Regex, n, false})
		}
	}
	in, _ := json.Marshal(items)
	cmd := exec.Command(py, "-c", `import json, re, sys
for it in json.load(sys.stdin):
    if (re.search(it["regex"], it["name"]) is not None) != it["want"]:
        print(it["regex"], it["name"], it["want"])`)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("python's re disagrees with Go's regexp (regex, name, want):\n%s", out)
	}
}

func TestCompileForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind string
		file string
	}{
		{"@project", KindProject, ""},
		{"@file:parser.rs", KindFile, "parser.rs"},
		{"@file:./src/parser.rs", KindFile, "src/parser.rs"},
	} {
		p, err := Compile(tc.in)
		if err != nil || p.Kind != tc.kind || p.File != tc.file {
			t.Errorf("Compile(%q) = %+v, %v; want kind %s file %q", tc.in, p, err, tc.kind, tc.file)
		}
	}
	for _, bad := range []string{"", "  ", "a b", "@files:x", "@file:", "a::::b", "a..b", "a::***"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) = nil error, want one", bad)
		}
	}
}

func TestMatcherFileAndProject(t *testing.T) {
	f, _ := Compile("@file:parser.rs")
	mf, _ := NewMatcher(f, "/p")
	if !mf.Match("x", "/p/src/parser.rs") || mf.Match("x", "/p/src/myparser.rs") {
		t.Error("@file:parser.rs matches by path suffix at a / only")
	}
	pr, _ := Compile("@project")
	mp, _ := NewMatcher(pr, "/p")
	for file, want := range map[string]bool{
		"/p/src/lib.rs": true, "/p/calc/calc.go": true, "/p/vendor/x/y.go": false,
		"/p/.venv/lib/python3.11/site-packages/x.py": false, "/q/lib.rs": false, "": false, "rel.go": false,
	} {
		if got := mp.Match("f", file); got != want {
			t.Errorf("@project on %q = %v, want %v", file, got, want)
		}
	}
}
