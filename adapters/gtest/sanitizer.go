package gtest

import (
	"fmt"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/report"
)

// sanitized is one sanitizer report on the binary's stderr and the test
// running when it began ("" outside any test: LeakSanitizer at exit, or a
// report read before its test's RUN line, the two streams being read apart).
type sanitized struct {
	*format.SanitizerReport
	test string
}

// sanitizerLine reads a stderr line into the sanitizer reports and says
// whether it belonged to one. The line is the running test's output
// either way (Line records it).
func (p *parser) sanitizerLine(s adapters.Stream, line string) bool {
	if s != adapters.Stderr {
		return false
	}
	rep, began := p.sanReader.Line(line)
	if rep == nil {
		return false
	}
	if began {
		test := ""
		if p.cur != nil {
			test = p.cur.name
		}
		p.sans = append(p.sans, &sanitized{SanitizerReport: rep, test: test})
	}
	return true
}

// sanitizerFailure is a test's failure for a report: the sanitizer's
// summary first, then the report's head (the error, the first frames),
// at the report's first frame in the project.
func (p *parser) sanitizerFailure(r *sanitized) *report.Failure {
	file, line := r.Location(p.root, func(f string) bool { return strings.Contains(f, "gtest") || strings.Contains(f, "gmock") })
	msg := []string{r.Summary}
	for _, l := range r.Gist(p.root) {
		if !strings.HasPrefix(l, "SUMMARY: ") {
			msg = append(msg, l)
		}
	}
	return &report.Failure{Name: r.test, File: kit.ProjectPath(p.root, file), Line: line,
		Message: kit.Clip(strings.Join(msg, "\n")), Rerun: p.rerunFor(r.test)}
}

// applySanitizers fails the tests that produced sanitizer reports and
// answers the report that ended the binary in dying (the crash), if any.
// A report that came before its test's RUN line was read belongs to the
// test the binary died in, or else to the last one that started.
// UBSan's recoverable reports and TSan's let the test go on, often to
// pass: it fails all the same, with the report.
func (p *parser) applySanitizers(dying string, hints *[]string) *sanitized {
	var fatal *sanitized
	for _, r := range p.sans {
		if r.Kind == "LeakSanitizer" {
			*hints = append(*hints, fmt.Sprintf("LeakSanitizer found leaks when the binary exited (%s), which fails the run although no test failed: see the details file's stderr for the allocation stacks", r.Summary))
			continue
		}
		if named := p.testOfClass(r.GTestClass()); named != "" && named != r.test {
			// The report began before its test's RUN line was read (outside
			// any test, or while the test before was current): its head is
			// in no output of named's, or in the wrong one.
			if t, _ := p.rec.Lookup("", named); len(r.Lines) > 0 && !strings.Contains(t.Output, r.Lines[0]) {
				p.rec.Output("", named, strings.Join(r.Lines, "\n")+"\n")
			}
			r.test = named
		}
		if r.test == "" {
			r.test = dying
			if r.test == "" {
				r.test = p.last
			}
			if r.test == "" {
				*hints = append(*hints, fmt.Sprintf("%s reported outside any test: %s", r.Kind, r.Summary))
				continue
			}
			p.rec.Output("", r.test, strings.Join(r.Lines, "\n")+"\n")
		}
		if r.test == dying {
			fatal = r // the report that stopped the binary: died fails the test
			continue
		}
		f := p.sanitizerFailure(r)
		prev, _ := p.rec.Lookup("", r.test)
		if prev.Status == report.TestFailed && prev.Failure != nil {
			p.rec.UpdateFailure("", r.test, func(old *report.Failure) { kit.AddFailure(old, f.File, f.Line, f.Message) })
		} else {
			p.rec.End("", r.test, report.TestFailed, time.Duration(prev.DurationMS)*time.Millisecond+time.Microsecond, f)
		}
		*hints = append(*hints, fmt.Sprintf("%s reported in test %q at %s:%d: %s (the test's output has the report); rerun it alone: %s", r.Kind, r.test, f.File, f.Line, r.Summary, f.Rerun))
	}
	return fatal
}

// sanitizerCrash is the crash of a binary a sanitizer stopped inside a
// test, and its hint.
func (p *parser) sanitizerCrash(r *sanitized, f *report.Failure, exit report.Exit) (*report.Crash, string) {
	c := &report.Crash{Type: r.CrashType(), ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
		Indicators: []string{r.Indicator()}, RunningTests: []string{r.test}, Message: r.Summary}
	if sig := kit.ExitSignal(exit); sig != "" && c.Type == report.CrashSanitizer {
		c.Type = kit.CrashType(sig)
	}
	return c, fmt.Sprintf("%s stopped the binary in test %q at %s:%d: fix what it reports (the test's output has the whole report), then rerun it alone: %s",
		r.Kind, r.test, f.File, f.Line, f.Rerun)
}

// testOfClass is the test whose body is class (Suite_Name_Test, from a
// report's stack): the last one started of that class, "" when none.
func (p *parser) testOfClass(class string) string {
	if class == "" {
		return ""
	}
	for i := len(p.order) - 1; i >= 0; i-- {
		if gtestClass(p.order[i]) == class {
			return p.order[i]
		}
	}
	return ""
}

// gtestClass is the class GoogleTest declares for a test by its printed
// name: Suite.Name → Suite_Name_Test, Inst/Suite.Name/3 (TEST_P) and
// Suite/1.Name (TYPED_TEST) alike.
func gtestClass(name string) string {
	suite, test, ok := strings.Cut(name, ".")
	if !ok {
		return ""
	}
	parts := strings.Split(suite, "/")
	suite = parts[len(parts)-1]
	for i := len(parts) - 1; i >= 0; i-- {
		if strings.Trim(parts[i], "0123456789") != "" {
			suite = parts[i]
			break
		}
	}
	test, _, _ = strings.Cut(test, "/")
	return suite + "_" + test + "_Test"
}

// ubsanStacks asks UBSan for the stack of each report
// (print_stacktrace=1): its frames name the test's body, so a report that
// goes on (recoverable) is tied to its test even when stderr is read out
// of step with the console. The user's UBSAN_OPTIONS are kept, and win.
func ubsanStacks(env []string) []string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "UBSAN_OPTIONS="); ok {
			if strings.Contains(v, "print_stacktrace") {
				return nil
			}
			return []string{"UBSAN_OPTIONS=print_stacktrace=1:" + v}
		}
	}
	return []string{"UBSAN_OPTIONS=print_stacktrace=1"}
}
