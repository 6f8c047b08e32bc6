package all

import (
	"slices"
	"testing"

	"strobe/adapters"
)

func TestNames(t *testing.T) {
	want := []string{"cargo", "catch2", "generic", "go", "jest", "xcodebuild"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	for _, name := range want {
		if a, err := Lookup(name); err != nil || a.Name() != name {
			t.Errorf("Lookup(%s) = %v, %v", name, a, err)
		}
	}
	if a, err := Lookup("CARGO"); err != nil || a.Name() != "cargo" {
		t.Errorf("Lookup is not case-blind: %v, %v", a, err)
	}
	if _, err := Lookup("pytest"); !adapters.IsUsage(err) {
		t.Errorf("Lookup(pytest) = %v, want a usage error", err)
	}
}

// TestHooks: the stuck detector's hooks are found on the adapters by type
// assertion, so a package move that drops a method goes unnoticed by the
// compiler.
func TestHooks(t *testing.T) {
	hooks := map[string][2]bool{ // TestProcesser, Harnesser
		"cargo": {true, true},
		"go":    {true, false},
		"jest":  {true, false},
	}
	for _, a := range Adapters() {
		_, tp := a.(adapters.TestProcesser)
		_, h := a.(adapters.Harnesser)
		if want := hooks[a.Name()]; tp != want[0] || h != want[1] {
			t.Errorf("%s: TestProcesser %v, Harnesser %v; want %v", a.Name(), tp, h, want)
		}
		if _, ok := a.(adapters.DocTester); ok != (a.Name() == "cargo") {
			t.Errorf("%s: DocTester %v", a.Name(), ok)
		}
	}
}

func TestDetect(t *testing.T) {
	root := t.TempDir()
	if _, _, err := Detect(adapters.Request{ProjectRoot: root}); !adapters.IsUsage(err) {
		t.Errorf("an empty project: %v, want a usage error", err)
	}
	a, d, err := Detect(adapters.Request{ProjectRoot: root, Command: []string{"make", "check"}})
	if err != nil || a.Name() != "generic" || d.Confidence != 1 {
		t.Errorf("a command nothing claims: %v %+v %v, want generic at 1", a, d, err)
	}
	a, _, err = Detect(adapters.Request{ProjectRoot: root, Command: []string{"cargo", "test"}})
	if err != nil || a.Name() != "cargo" {
		t.Errorf("cargo test: %v %v", a, err)
	}
}
