package generic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/format"
	"strobe/adapters/kit/node"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// generic runs any command. It answers confidence 1 for a command, so it
// runs only what nothing else claims. Without a command it falls back on
// the project's own test command, for a project no framework adapter
// recognises: package.json's test script (10; npm's placeholder that only
// fails does not count), run by the package manager its lockfile names
// (`npm test`, `pnpm test`, `yarn test`, `bun run test`), else a Makefile's
// test or check target (5: `make test`, `make check`). It understands TAP,
// automake's PASS:/FAIL: lines, a plain "N passed, N failed" summary and
// Surefire's totals, and otherwise falls back to the exit status.
type generic struct{}

// New returns the generic adapter.
func New() adapters.Adapter { return generic{} }

func (generic) Name() string { return "generic" }

// Confidences of the fallback: above generic's 1 for a command, below
// any framework's own evidence.
const (
	scriptConfidence = 10
	makeConfidence   = 5
)

func (generic) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		return adapters.Detection{Confidence: 1}
	}
	if fb, ok := findFallback(req.ProjectRoot); ok {
		return adapters.Detection{Confidence: fb.confidence, Hint: fb.hint()}
	}
	return adapters.Detection{Confidence: 1}
}

// fallback is a project's own test command.
type fallback struct {
	argv       []string
	source     string // where it comes from, for the hint
	confidence int
}

// hint says what runs and how to pick a framework instead.
func (f fallback) hint() string {
	return fmt.Sprintf("no test framework recognised: ran `%s` (%s) through the generic adapter (TAP and PASS:/FAIL: lines are read, otherwise the exit status decides); "+
		`pass framework: "NAME" to run the tests through a framework's own adapter instead`, shell.Join(f.argv), f.source)
}

// findFallback finds the project's test command: package.json's test
// script, else a Makefile's test or check target.
func findFallback(root string) (fallback, bool) {
	if pkg, ok := node.Read(root); ok && pkg.TestScript() != "" {
		pm := pkg.Manager
		argv := []string{pm, "test"}
		if pm == "bun" {
			argv = []string{"bun", "run", "test"} // `bun test` is bun's own runner, not the script
		}
		return fallback{argv: argv, source: "package.json's test script", confidence: scriptConfidence}, true
	}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		for _, target := range []string{"test", "check"} {
			if makeTarget(b, target) {
				return fallback{argv: []string{"make", target}, source: "the " + name + "'s " + target + " target", confidence: makeConfidence}, true
			}
		}
		break // make reads only the first of them
	}
	return fallback{}, false
}

// makeTarget says whether a makefile defines target as a rule ("test:",
// "check test: all"), not a variable ("test := …").
func makeTarget(makefile []byte, target string) bool {
	for _, line := range strings.Split(string(makefile), "\n") {
		if line == "" || line[0] == '\t' || line[0] == '#' {
			continue
		}
		names, rest, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(rest, "=") || strings.ContainsAny(names, "=$") {
			continue
		}
		for _, n := range strings.Fields(names) {
			if n == target {
				return true
			}
		}
	}
	return false
}

func (generic) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if len(req.Command) == 0 && req.Level == adapters.LevelAll {
		if fb, ok := findFallback(req.ProjectRoot); ok {
			req.Command = fb.argv
		}
	}
	if len(req.Command) == 0 {
		if req.Level != adapters.LevelAll {
			return nil, adapters.Usagef("level %q needs a command for the generic framework: pass --command with the command that runs that level", req.Level)
		}
		return nil, adapters.Usagef("the generic framework needs a command: pass --command with the command that runs the tests")
	}
	// The command cannot be told which level or test to run, but a script
	// can read them.
	env := []string{"STROBE_LEVEL=" + string(req.Level), "STROBE_TEST=" + req.Test}
	rec.BeginTesting() // nothing to build that strobe can see
	return &adapters.Plan{Argv: req.Command, Dir: req.ProjectRoot, Env: env, Parser: &genericParser{rec: rec}}, nil
}

var (
	automakeLine = lazyre.New(`^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (.+)$`)
	summaryLine  = lazyre.New(`^(?:\w+:\s*)?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$`)
	// Maven Surefire's totals (a class's own line goes on with "Time
	// elapsed"), when a shell runs mvn: errors are failures.
	surefireTotal = lazyre.New(`^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$`)
)

type genericParser struct {
	rec     *adapters.Recorder
	n       int    // tests seen, to name unnamed TAP tests
	last    string // last failed test, for TAP diagnostics that follow it
	summary *report.Summary
}

func (p *genericParser) Line(_ adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(string(b), "\r")
	if r, ok := format.TAPLine(line); ok {
		p.n++
		name := r.Name
		if name == "" {
			name = "test "
			if r.Number > 0 {
				name += strconv.Itoa(r.Number)
			}
		}
		status := r.Status()
		var f *report.Failure
		if status == report.TestFailed {
			f = &report.Failure{Message: line}
		}
		p.rec.End("", name, status, 0, f)
		p.last = ""
		if status == report.TestFailed {
			p.last = name
		}
		return
	}
	if p.last != "" {
		if file, n, ok := format.TAPLocation(line); ok {
			p.rec.UpdateFailure("", p.last, func(f *report.Failure) {
				if f.File == "" {
					f.File, f.Line = file, n
				}
			})
			return
		}
	}
	if m := automake(line); m != nil {
		status := report.TestPassed
		var f *report.Failure
		switch m[1] {
		case "SKIP", "XFAIL":
			status = report.TestSkipped
		case "FAIL", "XPASS", "ERROR":
			status = report.TestFailed
			f = &report.Failure{Message: line}
		}
		p.rec.End("", m[2], status, 0, f)
		return
	}
	if m := summary(line); m != nil {
		s := &report.Summary{}
		s.Passed, _ = strconv.Atoi(m[1])
		s.Failed, _ = strconv.Atoi(m[2])
		if m[3] != "" {
			s.Skipped, _ = strconv.Atoi(m[3])
		}
		p.summary = s
		return
	}
	if strings.Contains(line, "Tests run: ") {
		if m := surefireTotal.FindStringSubmatch(line); m != nil {
			var n [4]int
			for i := range n {
				n[i], _ = strconv.Atoi(m[i+1])
			}
			p.summary = &report.Summary{Passed: max(n[0]-n[1]-n[2]-n[3], 0), Failed: n[1] + n[2], Skipped: n[3]}
		}
	}
}

// automake reads automake's "PASS: name" line, nil for any other; summary
// a "3 passed, 1 failed" line. Every line of the run comes to both, and
// few are either: a cheap test goes before each regexp.
func automake(line string) []string {
	if i := strings.IndexByte(line, ':'); i != 4 && i != 5 {
		return nil
	}
	return automakeLine.FindStringSubmatch(line)
}

func summary(line string) []string {
	if !strings.Contains(line, " passed, ") {
		return nil
	}
	return summaryLine.FindStringSubmatch(line)
}

func (p *genericParser) Finish(report.Exit) adapters.Outcome {
	if len(p.rec.Tests()) > 0 {
		return adapters.Outcome{}
	}
	return adapters.Outcome{Summary: p.summary}
}
