// Package all is the one list of the adapters strobe knows, and the lookup
// and detection over it. An adapter is added here, by hand: no init()
// registration, so the list is what the code says.
package all

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"strobe/adapters"
	"strobe/adapters/bun"
	"strobe/adapters/cargo"
	"strobe/adapters/catch2"
	"strobe/adapters/ctest"
	"strobe/adapters/deno"
	"strobe/adapters/generic"
	"strobe/adapters/gotest"
	"strobe/adapters/gradle"
	"strobe/adapters/gtest"
	"strobe/adapters/jest"
	"strobe/adapters/kit"
	"strobe/adapters/maven"
	"strobe/adapters/mocha"
	"strobe/adapters/nextest"
	"strobe/adapters/nodetest"
	"strobe/adapters/pytest"
	"strobe/adapters/swift"
	"strobe/adapters/unittest"
	"strobe/adapters/vitest"
	"strobe/adapters/xcodebuild"
)

// Adapters returns every adapter, sorted by name.
func Adapters() []adapters.Adapter {
	list := []adapters.Adapter{
		bun.New(),
		cargo.New(),
		catch2.New(),
		ctest.New(),
		deno.New(),
		generic.New(),
		gotest.New(),
		gradle.New(),
		gtest.New(),
		jest.New(),
		maven.New(),
		mocha.New(),
		nextest.New(),
		nodetest.New(),
		pytest.New(),
		swift.New(),
		unittest.New(),
		vitest.New(),
		xcodebuild.New(),
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	return list
}

// Names lists the known frameworks, sorted.
func Names() []string {
	var names []string
	for _, a := range Adapters() {
		names = append(names, a.Name())
	}
	return names
}

// Lookup returns the adapter called name, or a usage error listing the known ones.
func Lookup(name string) (adapters.Adapter, error) {
	for _, a := range Adapters() {
		if a.Name() == strings.ToLower(name) {
			return a, nil
		}
	}
	return nil, adapters.Usagef("unknown framework %q: use one of %s", name, strings.Join(Names(), ", "))
}

// Detect picks the adapter for req: the most confident one wins, ties going
// to the name that sorts first so the choice is stable. Generic (confidence
// 1) only wins when a command was given, or when the project has a test
// command of its own (a package.json test script, a Makefile's test
// target: generic answers more then); without either, a project nothing
// recognises is a usage error with the hints the adapters gave. When
// other adapters recognise the project too (package.json beside
// pyproject.toml, a Makefile beside Cargo.toml), the detection's hint says
// what else was found and how to pick it, and the answer carries it.
//
// A command's program is probed (adapters.CommandProber) only when no
// other adapter claims the command by name.
func Detect(req adapters.Request) (adapters.Adapter, adapters.Detection, error) {
	return detect(req, Adapters())
}

func detect(req adapters.Request, as []adapters.Adapter) (adapters.Adapter, adapters.Detection, error) {
	defer kit.ShareWalks(req.ProjectRoot)()
	all := make([]found, len(as))
	command, claimed := len(req.Command) > 0, false
	for i, a := range as {
		if _, ok := a.(adapters.CommandProber); ok && command {
			continue // below, once the others have answered
		}
		all[i] = found{a, a.Detect(req)}
		claimed = claimed || command && all[i].d.Confidence >= adapters.CommandClaimed
	}
	var hints, refused []string
	for i, a := range as {
		if all[i].a == nil {
			all[i].a = a
			if !claimed {
				all[i].d = a.Detect(req)
			}
		}
		if d := all[i].d; d.Hint != "" && d.Confidence == 0 {
			hints = append(hints, d.Hint)
		}
	}
	// Stable: Adapters is sorted by name, so a tie keeps the first name.
	// The best is confirmed when its detection asks for it; another may
	// then be best, and so on (each adapter is confirmed once at most).
	for {
		sort.SliceStable(all, func(i, j int) bool { return all[i].d.Confidence > all[j].d.Confidence })
		if all[0].d.Confirm == nil {
			break
		}
		all[0].d = all[0].d.Confirm()
		all[0].d.Confirm = nil
		if d := all[0].d; d.Hint != "" && d.Confidence == 0 {
			hints = append(hints, d.Hint)
			refused = append(refused, d.Hint)
		}
	}
	best, bestD := all[0].a, all[0].d
	if bestD.Confidence == 0 || (bestD.Confidence <= 1 && len(req.Command) == 0) {
		if dir, marker := enclosingProject(req.ProjectRoot); dir != "" {
			// strobe run in a crate's src/, a Go package's directory:
			// the project is above, and that is what to say.
			return nil, adapters.Detection{}, &adapters.UsageError{Msg: fmt.Sprintf(
				"no test framework found in %s, which lies inside the project at %s (%s there): give %s as the project root", req.ProjectRoot, dir, marker, dir)}
		}
		msg := fmt.Sprintf("no test framework found in %s: pass --framework (one of %s) or --command with the test command", req.ProjectRoot, strings.Join(Names(), ", "))
		if len(hints) > 0 {
			msg += " (" + strings.Join(hints, "; ") + ")"
		}
		return nil, adapters.Detection{}, &adapters.UsageError{Msg: msg}
	}
	d := pickHint(best, bestD, all[1:])
	if len(refused) > 0 {
		// The adapter the project's files named was refused on a closer
		// look (pytest's tests, pytest not installed): what runs in its
		// place may fail for that reason alone, and the answer says so.
		d.Hint = strings.TrimPrefix(d.Hint+"; ", "; ") + "not picked: " + strings.Join(refused, "; ")
	}
	return best, d, nil
}

// pickHint is the hint of the detection picked: what the other adapters
// that recognise the project found, and how to pick one. An adapter's
// own account of a sure pick ("go.mod found") is not news and is left
// out, unless others compete; generic's fallback always says what it runs.
func pickHint(best adapters.Adapter, d adapters.Detection, rest []found) adapters.Detection {
	var others []string
	for _, f := range rest {
		if f.d.Confidence <= 1 {
			break
		}
		// A package.json test script beside a framework's pick is that
		// framework's own command most of the time (jest, bun test):
		// naming it on every answer would be noise. A Makefile's target
		// often does more (a build, services), so it is named.
		if f.a.Name() == "generic" && !strings.Contains(f.d.Hint, "`make ") {
			continue
		}
		others = append(others, alsoFound(f.a, f.d))
	}
	own := d.Hint
	if best.Name() != "generic" {
		d.Hint = ""
	}
	if len(others) == 0 {
		return d
	}
	picked := "picked " + best.Name()
	if own != "" {
		picked += " (" + own + ")"
	}
	d.Hint = picked + "; this project also has " + strings.Join(others, ", and ")
	return d
}

// projectMarkers are the files that make a directory a project's root for
// some adapter, in the order enclosingProject names them.
var projectMarkers = []string{"go.mod", "go.work", "Cargo.toml", "package.json", "pyproject.toml", "setup.py", "setup.cfg",
	"pytest.ini", "tox.ini", "pom.xml", "build.gradle", "build.gradle.kts", "CMakeLists.txt", "Package.swift", "deno.json", "Makefile"}

// enclosingProject is the nearest directory above root that holds a
// project's marker file, and the marker; "" when none does up to the
// repository's top (the directory with .git: root itself, or the last
// looked in) or the filesystem's.
func enclosingProject(root string) (dir, marker string) {
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		return "", ""
	}
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		for _, m := range projectMarkers {
			if kit.FileExists(filepath.Join(d, m)) {
				return d, m
			}
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// found is an adapter's answer to Detect.
type found struct {
	a adapters.Adapter
	d adapters.Detection
}

// alsoFound says what an adapter that lost found, and how to pick it.
func alsoFound(a adapters.Adapter, d adapters.Detection) string {
	what := a.Name() + " tests"
	if a.Name() == "generic" {
		what = "a test command of its own"
		// generic's hint names the command in backquotes.
		if _, rest, ok := strings.Cut(d.Hint, "`"); ok {
			if cmd, _, ok := strings.Cut(rest, "`"); ok {
				what += ", `" + cmd + "`"
			}
		}
	}
	return fmt.Sprintf(`%s (confidence %d): pass framework: %q (--framework %s) to run that instead`, what, d.Confidence, a.Name(), a.Name())
}
