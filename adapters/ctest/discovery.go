package ctest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// catch2List is the file of tests catch_discover_tests writes after a
// target's build, from the binary's --list-test-names-only: v2's
// Catch.cmake names it TARGET_tests-HASH.cmake, v3's TARGET-HASH_tests.cmake.
var catch2List = lazyre.New(`^(.+?)(?:_tests-[0-9a-f]{7}|-[0-9a-f]{7}_tests)\.cmake$`)

// emptyDiscovery is a catch_discover_tests target whose list of tests is
// empty, and what its binary says when asked for them.
type emptyDiscovery struct {
	target string
	bin    string // "" when not found in the tree
	// listing is the binary's --list-test-names-only, run again: its
	// command, exit code and stderr (-1 when it did not end: failed, the
	// error that stopped it).
	listing string
	code    int
	stderr  string
	failed  error
}

// emptyDiscoveries finds the catch_discover_tests lists of the tree that
// declare no test. Catch2 2.13's CatchAddTests writes an empty list, and
// the build goes on, when the binary fails to list its tests (it exits
// 255 when a test case is defined twice): CTest then knows none of that
// binary's tests, and says nothing. Each such binary (TARGET beside its
// list, else the one executable of that name in the tree) is asked again,
// bounded by locateTimeout, as the discovery asked it.
func (p *parser) emptyDiscoveries() []emptyDiscovery {
	if p.tree == "" {
		return nil
	}
	var found []emptyDiscovery
	kit.WalkLimited(p.tree, 4, func(path string, d fs.DirEntry) {
		m := catch2List.FindStringSubmatch(d.Name())
		if m == nil || d.IsDir() || len(found) >= 5 {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil || strings.Contains(string(b), "add_test(") {
			return
		}
		e := emptyDiscovery{target: m[1], code: -1}
		e.bin = p.targetBinary(filepath.Dir(path), m[1])
		if e.bin != "" {
			argv := []string{e.bin, "--list-test-names-only"}
			e.listing = shell.Join(argv)
			_, errOut, err := kit.RunTool(context.Background(), kit.Tool{Dir: filepath.Dir(path), Env: p.env, Timeout: locateTimeout}, argv...)
			var ee *exec.ExitError
			switch {
			case err == nil:
				e.code = 0
			case errors.As(err, &ee) && ee.Exited():
				e.code = ee.ExitCode()
			default:
				e.failed = err
			}
			e.stderr = strings.TrimSpace(string(errOut))
		}
		found = append(found, e)
	}, func(name string) bool { return name == "CMakeFiles" || name == "_deps" || name == "Testing" })
	return found
}

// targetBinary is the executable a target builds: beside its list (the
// same CMAKE_CURRENT_BINARY_DIR), else the one of that name in the tree.
func (p *parser) targetBinary(dir, target string) string {
	if isExecutable(filepath.Join(dir, target)) {
		return filepath.Join(dir, target)
	}
	var bins []string
	kit.WalkLimited(p.tree, 5, func(path string, d fs.DirEntry) {
		if d.Name() == target && !d.IsDir() && isExecutable(path) {
			bins = append(bins, path)
		}
	}, func(name string) bool { return name == "CMakeFiles" || name == "_deps" || name == "Testing" })
	if len(bins) == 1 {
		return bins[0]
	}
	return ""
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// discoveryFailures says why the tree's catch_discover_tests lists are
// empty: a test case defined twice is the build's error, at its
// redefinition (out.BuildErrors); a binary that failed to list its tests
// otherwise is named with its exit code and stderr. A binary that lists
// nothing and exits 0 has no test cases, which the hint says when the
// run found no test (quiet: it did find some). It returns the hints, none
// when no list is empty.
func (p *parser) discoveryFailures(out *adapters.Outcome, quiet bool) []string {
	var hints []string
	for _, e := range p.emptyDiscoveries() {
		bin := e.target
		if e.bin != "" {
			bin = kit.ProjectPath(p.root, e.bin)
		}
		if d := format.FindCatch2Duplicate(strings.Split(e.stderr, "\n")); d != nil {
			first, file := kit.ProjectPath(p.root, d.First), kit.ProjectPath(p.root, d.File)
			out.BuildFailed = true
			out.BuildErrors = append(out.BuildErrors, report.BuildError{File: file, Line: d.Line,
				Message: fmt.Sprintf("test case %q is defined again here, first at %s:%d: Catch2 refuses to run %s, so catch_discover_tests found none of its tests", d.Name, first, d.FirstLine, bin)})
			hints = append(hints, fmt.Sprintf("catch_discover_tests found no tests in %s: Catch2 refuses to run it, test case %q being defined twice, at %s:%d and at %s:%d (\"already defined\"): rename one of them (or drop the file that repeats it from the target), rebuild, and rerun",
				bin, d.Name, first, d.FirstLine, file, d.Line))
			continue
		}
		switch {
		case e.bin == "":
			hints = append(hints, fmt.Sprintf("catch_discover_tests found no tests in %s (its list of tests is empty, and strobe did not find its binary to ask why): run it with --list-test-names-only to see why", e.target))
		case e.code != 0 || e.stderr != "":
			why := fmt.Sprintf("%s exits %d", e.listing, e.code)
			if e.failed != nil {
				why = e.failed.Error()
			}
			if e.stderr != "" {
				why += ", printing: " + kit.ClipTo(strings.Join(strings.Fields(e.stderr), " "), 300, "…")
			}
			hints = append(hints, fmt.Sprintf("catch_discover_tests found no tests in %s: %s (Catch2's discovery takes a binary that fails to list its tests for one without tests, and the build goes on)", bin, why))
		case !quiet:
			hints = append(hints, fmt.Sprintf("catch_discover_tests found no tests in %s: it has no test case to run (hidden ones, tagged [.], are not listed)", bin))
		}
	}
	return hints
}
