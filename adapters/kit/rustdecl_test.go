package kit

import (
	"os"
	"path/filepath"
	"testing"
)

// RustTestDecl follows a test's path through inline modules, module
// files (a.rs, a/mod.rs, a non-mod-rs file's own a/), #[path] and the
// root's directory, and takes no function of the same name in a comment,
// a string, another module or a nested block for the test.
func TestRustTestDecl(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/lib.rs": `//! fn t() in a doc comment
pub mod a;
mod m;
#[cfg(test)]
#[path = "other/p.rs"]
mod p;
pub fn t() {}
const BRACE: char = '{';
/* mod tests { fn t() {} } */
#[cfg(test)]
mod tests {
    fn helper() { let s = "fn t() {"; let r = r#"}"#; }
    mod inner { fn t() {} }
    #[test]
    fn t() {}
}
`,
		"src/a.rs": `pub mod b;
mod c {
    #[cfg(test)]
    mod tests {
        #[test]
        fn deep() -> Result<(), String> { Err("x".into()) }
    }
}
`,
		"src/a/b.rs": `#[test]
fn in_b() {}
`,
		"src/m/mod.rs": `
#[test]
fn in_m() {}
`,
		"src/other/p.rs": `mod q;

#[test] fn in_p() {}
`,
		"src/other/q.rs": "#[test]\nfn in_q() {}\n",
		// once_cell's backends: one module, declared for each under a
		// #[cfg] of its own; the test is in the last.
		"src/cfgd.rs": `#[cfg(feature = "critical-section")]
#[path = "imp_cs.rs"]
mod imp;

#[cfg(all(feature = "std", feature = "parking_lot"))]
#[path = "imp_pl.rs"]
mod imp;

#[cfg(all(feature = "std", not(feature = "parking_lot")))]
#[path = "imp_std.rs"]
mod imp;
`,
		"src/imp_cs.rs":  "pub fn cs() {}\n",
		"src/imp_pl.rs":  "#[cfg(test)]\nmod tests {\n}\n",
		"src/imp_std.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn poison_bad() {}\n}\n",
		"tests/it.rs":    "\n\n#[test]\nfn top() -> Result<(), Box<dyn std::error::Error>> {\n    Ok(())\n}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, it := filepath.Join(dir, "src/lib.rs"), filepath.Join(dir, "tests/it.rs")
	for _, tc := range []struct {
		root, test, file string
		line             int
	}{
		{lib, "tests::t", "src/lib.rs", 15},
		{lib, "tests::inner::t", "src/lib.rs", 13},
		{lib, "t", "src/lib.rs", 7},
		{lib, "a::c::tests::deep", "src/a.rs", 6},
		{lib, "a::b::in_b", "src/a/b.rs", 2},
		{lib, "m::in_m", "src/m/mod.rs", 3},
		{lib, "p::in_p", "src/other/p.rs", 3},
		{lib, "p::q::in_q", "src/other/q.rs", 2},
		{it, "top", "tests/it.rs", 4},
		{filepath.Join(dir, "src/cfgd.rs"), "imp::tests::poison_bad", "src/imp_std.rs", 4},
		{lib, "tests::helper::t", "", 0},
		{lib, "tests::missing", "", 0},
		{lib, "nope::t", "", 0},
		{it, "tests::top", "", 0},
	} {
		file, line := RustTestDecl(tc.root, tc.test)
		if tc.file != "" {
			tc.file = filepath.Join(dir, tc.file)
		}
		if file != tc.file || line != tc.line {
			t.Errorf("%s: %s:%d, want %s:%d", tc.test, file, line, tc.file, tc.line)
		}
	}
}
