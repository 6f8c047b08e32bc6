package generic

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit/format"
	"strobe/report"
)

// generic runs any command. It always answers confidence 1, so it runs only
// what nothing else claims, and only with a command. It understands TAP,
// automake's PASS:/FAIL: lines and a plain "N passed, N failed" summary, and
// otherwise falls back to the exit status.
type generic struct{}

// New returns the generic adapter.
func New() adapters.Adapter { return generic{} }

func (generic) Name() string { return "generic" }

func (generic) Detect(req adapters.Request) adapters.Detection {
	return adapters.Detection{Confidence: 1}
}

func (generic) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
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
	automakeLine = regexp.MustCompile(`^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (.+)$`)
	summaryLine  = regexp.MustCompile(`^(?:\w+:\s*)?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$`)
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
	if m := automakeLine.FindStringSubmatch(line); m != nil {
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
	if m := summaryLine.FindStringSubmatch(line); m != nil {
		s := &report.Summary{}
		s.Passed, _ = strconv.Atoi(m[1])
		s.Failed, _ = strconv.Atoi(m[2])
		if m[3] != "" {
			s.Skipped, _ = strconv.Atoi(m[3])
		}
		p.summary = s
	}
}

func (p *genericParser) Finish(report.Exit) adapters.Outcome {
	if len(p.rec.Tests()) > 0 {
		return adapters.Outcome{}
	}
	return adapters.Outcome{Summary: p.summary}
}
