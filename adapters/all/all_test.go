package all

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
)

func TestNames(t *testing.T) {
	want := []string{"bun", "cargo", "catch2", "ctest", "deno", "generic", "go", "gradle", "gtest", "jest", "maven", "mocha", "nextest", "node", "pytest", "swift", "unittest", "vitest", "xcodebuild"}
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
	if _, err := Lookup("pytests"); !adapters.IsUsage(err) {
		t.Errorf("Lookup(pytests) = %v, want a usage error", err)
	}
}

// TestHooks: the stuck detector's hooks are found on the adapters by type
// assertion, so a package move that drops a method goes unnoticed by the
// compiler.
func TestHooks(t *testing.T) {
	hooks := map[string][2]bool{ // TestProcesser, Harnesser
		"cargo":   {true, true},
		"ctest":   {true, false},
		"go":      {true, false},
		"gradle":  {true, true},
		"jest":    {true, false},
		"maven":   {true, true},
		"mocha":   {true, false},
		"nextest": {true, true},
		"node":    {true, false},
		"pytest":  {true, true},
		"vitest":  {true, true},
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
		// The frameworks whose process waits, after its tests, for what
		// they left open (docs/stuck.md).
		if _, ok := a.(adapters.ExitAdvisor); ok != slices.Contains([]string{"jest", "mocha", "node", "pytest", "unittest"}, a.Name()) {
			t.Errorf("%s: ExitAdvisor %v", a.Name(), ok)
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

// TestDetectInsideAProject: strobe given a directory inside a project (a
// crate's src/) names the project above it; the walk up stops at the
// repository's top.
func TestDetectInsideAProject(t *testing.T) {
	top := t.TempDir()
	crate := filepath.Join(top, "repo", "crate")
	src := filepath.Join(crate, "src", "bin")
	for _, d := range []string{src, filepath.Join(top, "repo", ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(crate, "Cargo.toml"), filepath.Join(top, "go.mod")} {
		if err := os.WriteFile(f, []byte("\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := Detect(adapters.Request{ProjectRoot: src})
	if want := "which lies inside the project at " + crate + " (Cargo.toml there): give " + crate + " as the project root"; !adapters.IsUsage(err) || !strings.Contains(err.Error(), want) {
		t.Errorf("src/bin of a crate: %v, want a usage error saying %q", err, want)
	}
	// Above the repository's top (.git), go.mod is another project's.
	if _, _, err := Detect(adapters.Request{ProjectRoot: filepath.Join(top, "repo")}); err == nil || strings.Contains(err.Error(), "inside the project") {
		t.Errorf("the repository's top: %v, want no project named above it", err)
	}
}

// TestDetectFallbackAndRivals: a project no framework claims runs its own
// test command through generic; a project two adapters recognise goes to
// the surer one, and the hint names the other and how to pick it.
func TestDetectFallbackAndRivals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		want    string
		hint    []string // substrings of the hint; nil for none
		noHint  bool
		command []string
	}{
		{name: "Makefile alone", files: map[string]string{"Makefile": "test:\n\t./t\n"}, want: "generic",
			hint: []string{"ran `make test` (the Makefile's test target)", `pass framework: "NAME"`}},
		{name: "package.json alone", files: map[string]string{"package.json": `{"scripts":{"test":"node t.js"}}`, "yarn.lock": ""}, want: "generic",
			hint: []string{"ran `yarn test` (package.json's test script)"}},
		{name: "Makefile beside Cargo.toml", files: map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n", "Makefile": "check:\n\tcargo test\n"}, want: "cargo",
			hint: []string{"picked cargo (Cargo.toml found)", "a test command of its own, `make check` (confidence 5)", `pass framework: "generic"`}},
		{name: "package.json beside go.mod", files: map[string]string{"go.mod": "module x\n", "package.json": `{"scripts":{"test":"node t.js"}}`}, want: "go", noHint: true},
		{name: "Cargo.toml beside go.work", files: map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n", "go.work": "go 1.22\n"}, want: "cargo",
			hint: []string{"picked cargo (Cargo.toml found)", `go tests (confidence 85): pass framework: "go" (--framework go) to run that instead`}},
		{name: "go.mod alone", files: map[string]string{"go.mod": "module x\n"}, want: "go", noHint: true},
		// jshttp/negotiator: mocha's tests, vitest's benchmarks; no
		// "also has vitest tests".
		{name: "vitest for benchmarks", files: map[string]string{"package.json": `{"scripts":{"bench":"vitest bench","test":"mocha --reporter spec --check-leaks test/"},"devDependencies":{"mocha":"^11.7.0","vitest":"3.2.4"}}`},
			want: "mocha", noHint: true},
		{name: "a command", command: []string{"make", "check"}, files: map[string]string{"Makefile": "check:\n\ttrue\n"}, want: "generic", noHint: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
			}
			a, d, err := Detect(adapters.Request{ProjectRoot: root, Command: tc.command})
			if err != nil || a.Name() != tc.want {
				t.Fatalf("Detect = %v, %v; want %s", a, err, tc.want)
			}
			if tc.noHint && d.Hint != "" {
				t.Errorf("hint %q, want none", d.Hint)
			}
			for _, s := range tc.hint {
				if !strings.Contains(d.Hint, s) {
					t.Errorf("hint %q lacks %q", d.Hint, s)
				}
			}
		})
	}
}

// fake answers Detect with a fixed detection and counts the calls.
type fake struct {
	name  string
	d     adapters.Detection
	calls *int
}

func (f fake) Name() string { return f.name }
func (f fake) Detect(adapters.Request) adapters.Detection {
	*f.calls++
	return f.d
}
func (fake) Plan(context.Context, adapters.Request, *adapters.Recorder) (*adapters.Plan, error) {
	return nil, nil
}

// prober is a fake that reads the command's program.
type prober struct{ fake }

func (prober) ProbesCommand() {}

// TestDetectProbesLast: an adapter that reads the command's program to
// know it is asked only when no other claims the command by name, and
// still picked when it alone knows the program.
func TestDetectProbesLast(t *testing.T) {
	for _, tc := range []struct {
		name       string
		byName     int // the confidence of the adapter that knows commands by name
		probed     int // the prober's
		wantProbes int
		want       string
	}{
		{"claimed by name", adapters.CommandClaimed, adapters.CommandClaimed, 0, "byname"},
		{"not claimed", 0, adapters.CommandClaimed, 1, "prober"},
		{"project only", 90, 0, 1, "byname"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var byNameCalls, probes int
			as := []adapters.Adapter{
				fake{"byname", adapters.Detection{Confidence: tc.byName}, &byNameCalls},
				prober{fake{"prober", adapters.Detection{Confidence: tc.probed}, &probes}},
			}
			a, _, err := detect(adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"tool", "test"}}, as)
			if err != nil {
				t.Fatal(err)
			}
			if a.Name() != tc.want {
				t.Errorf("picked %s, want %s", a.Name(), tc.want)
			}
			if probes != tc.wantProbes || byNameCalls != 1 {
				t.Errorf("the prober was asked %d times, want %d (the other %d, want 1)", probes, tc.wantProbes, byNameCalls)
			}
		})
	}
	for _, a := range Adapters() {
		if _, ok := a.(adapters.CommandProber); ok != (a.Name() == "catch2" || a.Name() == "gtest") {
			t.Errorf("%s: CommandProber %v: only catch2 and gtest read the command's program", a.Name(), ok)
		}
	}
}

// TestDetectConfirmsTheBestOnly: a detection's costly confirmation runs
// only for the adapter about to be picked, and its answer stands: a
// refusal lets the next one win, with the refusal's hint kept for the
// error when none is left.
func TestDetectConfirmsTheBestOnly(t *testing.T) {
	for _, tc := range []struct {
		name          string
		sure, unsure  int // the confidences of an adapter that needs no confirmation and one that does
		confirmed     int // what the confirmation says
		wantConfirms  int
		want, wantErr string
	}{
		{"beaten before confirming", 90, 60, 60, 0, "sure", ""},
		{"best, and confirmed", 50, 60, 60, 1, "unsure", ""},
		{"best, then refused", 50, 60, 0, 1, "sure", ""},
		{"refused, nothing else", 0, 60, 0, 1, "", "not installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls, confirms int
			unsure := adapters.Detection{Confidence: tc.unsure, Hint: "files found"}
			unsure.Confirm = func() adapters.Detection {
				confirms++
				if tc.confirmed == 0 {
					return adapters.Detection{Hint: "unsure: files found but the tool is not installed"}
				}
				return adapters.Detection{Confidence: tc.confirmed, Hint: "files found"}
			}
			as := []adapters.Adapter{
				fake{"sure", adapters.Detection{Confidence: tc.sure, Hint: "marker found"}, &calls},
				fake{"unsure", unsure, &calls},
			}
			a, d, err := detect(adapters.Request{ProjectRoot: t.TempDir()}, as)
			if confirms != tc.wantConfirms {
				t.Errorf("confirmed %d times, want %d", confirms, tc.wantConfirms)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one that says %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Name() != tc.want {
				t.Errorf("picked %s, want %s", a.Name(), tc.want)
			}
			// The refusal is news: what was picked in its place may fail
			// for its reason alone.
			if refused := tc.wantConfirms == 1 && tc.confirmed == 0; refused != strings.Contains(d.Hint, "not picked: unsure: files found but the tool is not installed") {
				t.Errorf("hint %q: want the refusal named only when there was one", d.Hint)
			}
		})
	}
}
