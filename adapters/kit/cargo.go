package kit

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/pelletier/go-toml/v2"
)

// ManifestDoctests reads whether plain cargo test in root runs doctests
// from root's Cargo.toml alone: a package, not a workspace, whose library
// ([lib], or src/lib.rs unless autolib = false) has doctests (no
// doctest = false). known is false when only cargo metadata can tell: no
// manifest or one that does not parse, a [workspace], a library of unusual
// crate types. cargo runs the doctests after the test binaries; nextest,
// which does not run them, says so.
func ManifestDoctests(root string) (has, known bool) {
	b, err := os.ReadFile(filepath.Join(root, "Cargo.toml"))
	if err != nil {
		return false, false
	}
	var m struct {
		Workspace any `toml:"workspace"`
		Package   *struct {
			Autolib *bool `toml:"autolib"`
		} `toml:"package"`
		Lib *struct {
			Path      string   `toml:"path"`
			Doctest   *bool    `toml:"doctest"`
			CrateType []string `toml:"crate-type"`
		} `toml:"lib"`
	}
	if toml.Unmarshal(b, &m) != nil || m.Workspace != nil || m.Package == nil {
		return false, false
	}
	if m.Lib == nil {
		if m.Package.Autolib != nil && !*m.Package.Autolib {
			return false, true
		}
		_, err := os.Stat(filepath.Join(root, "src", "lib.rs"))
		return err == nil, true
	}
	if len(m.Lib.CrateType) > 0 && !slices.ContainsFunc(m.Lib.CrateType, func(t string) bool { return t == "lib" || t == "rlib" || t == "proc-macro" }) {
		return false, false
	}
	if m.Lib.Doctest != nil && !*m.Lib.Doctest {
		return false, true
	}
	return true, true
}
