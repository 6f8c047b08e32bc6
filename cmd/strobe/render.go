package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"strobe/report"
)

// palette colours the status word and markers; colour never carries
// meaning alone (the words say it all) and NO_COLOR turns it off.
type palette struct{ red, green, yellow, dim, reset string }

func colorFor(w io.Writer) palette {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || !term.IsTerminal(int(f.Fd())) {
		return palette{}
	}
	return palette{red: "\033[31m", green: "\033[32m", yellow: "\033[33m", dim: "\033[2m", reset: "\033[0m"}
}

// render prints a response for a person: the verdict first, then what to
// look at, each failure with its place, message and rerun command.
func render(w io.Writer, r *report.Response, c palette) {
	if r.Status == report.Error {
		fmt.Fprintf(w, "%sERROR%s  %s\n", c.red, c.reset, r.Error)
		if r.Hint != "" {
			fmt.Fprintf(w, "\n%s\n", r.Hint)
		}
		return
	}
	col := c.red
	switch r.Status {
	case report.Passed:
		col = c.green
	case report.NoTests, report.Cancelled:
		col = c.yellow
	}
	head := []string{r.Framework}
	if s := r.Summary; s != nil {
		counts := fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed)
		if s.Flaky > 0 {
			counts = fmt.Sprintf("%d passed (%d flaky), %d failed", s.Passed, s.Flaky, s.Failed)
		}
		if s.Stuck > 0 {
			counts += fmt.Sprintf(", %d stuck", s.Stuck)
		}
		if s.Skipped > 0 {
			counts += fmt.Sprintf(", %d skipped", s.Skipped)
		}
		head = append(head, counts, (time.Duration(s.DurationMS) * time.Millisecond).String())
	}
	fmt.Fprintf(w, "%s%s%s  %s\n", col, strings.ToUpper(strings.ReplaceAll(string(r.Status), "_", " ")), c.reset, strings.Join(head, " · "))

	for _, b := range r.BuildErrors {
		if b.File == "" {
			// No place: the message's first line heads it (cargo's
			// "no matching package named `x` found").
			head, rest, _ := strings.Cut(b.Message, "\n")
			fmt.Fprintf(w, "\n%s✗%s %s\n", c.red, c.reset, head)
			indent(w, rest, "    ")
			continue
		}
		fmt.Fprintf(w, "\n%s✗%s %s\n", c.red, c.reset, place(b.File, b.Line))
		indent(w, b.Message, "    ")
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "\n%s✗%s %s", c.red, c.reset, f.Name)
		if f.File != "" {
			fmt.Fprintf(w, "  %s", place(f.File, f.Line))
		}
		fmt.Fprintln(w)
		indent(w, f.Message, "    ")
		if f.Attempts > 1 {
			fmt.Fprintf(w, "    %sfailed all %d attempts%s\n", c.dim, f.Attempts, c.reset)
		}
		if f.Repeated >= 2 {
			fmt.Fprintf(w, "    %ssame failure %d runs in a row%s\n", c.yellow, f.Repeated, c.reset)
		}
		if f.Rerun != "" {
			fmt.Fprintf(w, "    %srerun:%s %s\n", c.dim, c.reset, f.Rerun)
		}
	}
	if r.FailuresOmitted > 0 {
		fmt.Fprintf(w, "\n… and %d more failures (see the details file)\n", r.FailuresOmitted)
	}
	renderFlaky(w, r.Flaky, c)
	renderRepeat(w, r.Repeat, c)
	for _, s := range r.Stuck {
		// At a timeout the entries are what was running, with its stacks:
		// not found stuck.
		state := "stuck after"
		if r.Status != report.Stuck {
			state = "still running after"
		}
		fmt.Fprintf(w, "\n%s⧗%s %s %s %s: %s\n", c.red, c.reset, s.Name, state, time.Duration(s.ElapsedMS)*time.Millisecond, s.Diagnosis)
		for _, th := range s.Threads {
			name := th.Name
			if !strings.HasPrefix(name, "goroutine") {
				name = "thread " + name
			}
			fmt.Fprintf(w, "    %s\n", name)
			for _, l := range stackLines(th.Stack, s.Name) {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
		if len(s.SuggestedTraces) > 0 {
			fmt.Fprintf(w, "    %strace:%s %s\n", c.dim, c.reset, strings.Join(s.SuggestedTraces, ", "))
		}
		if s.Rerun != "" {
			fmt.Fprintf(w, "    %srerun:%s %s\n", c.dim, c.reset, s.Rerun)
		}
	}
	if cr := r.Crash; cr != nil && cr.Type == report.CrashStopped {
		// strobe ended the run itself: no crash to report, only why.
		fmt.Fprintf(w, "\n%sstopped by strobe:%s %s", c.red, c.reset, cr.StoppedBy)
		if len(cr.RunningTests) > 0 {
			fmt.Fprintf(w, " while running %s", strings.Join(cr.RunningTests, ", "))
		}
		fmt.Fprintln(w)
	} else if cr != nil && cr.Type != report.CrashTestFailure && cr.Type != report.CrashBuildFailure {
		fmt.Fprintf(w, "\n%scrash:%s %s", c.red, c.reset, cr.Type)
		if cr.SignalName != "" {
			fmt.Fprintf(w, " (%s, exit %d", cr.SignalName, cr.ExitCode)
			if cr.CoreDump {
				fmt.Fprint(w, ", core dumped")
			}
			fmt.Fprint(w, ")")
		} else if cr.ExitCode != 0 {
			fmt.Fprintf(w, " (exit %d)", cr.ExitCode)
		}
		if len(cr.RunningTests) > 0 {
			fmt.Fprintf(w, " while running %s", strings.Join(cr.RunningTests, ", "))
		}
		fmt.Fprintln(w)
		if cr.Message != "" {
			indent(w, cr.Message, "    ")
		}
	}
	renderChanges(w, r.Changes)
	if r.Truncated {
		fmt.Fprintln(w, "\noutput was longer than strobe keeps; the newest part is in the details file")
	}
	if r.Hint != "" {
		fmt.Fprintf(w, "\nhint: %s\n", r.Hint)
	}
	if r.Details != "" {
		fmt.Fprintf(w, "%sdetails: %s%s\n", c.dim, r.Details, c.reset)
	}
}

// renderChanges says what changed since the run compared with, list by
// list, with the names the answer carries.
func renderChanges(w io.Writer, ch *report.Changes) {
	if ch == nil {
		return
	}
	fmt.Fprintf(w, "\nsince run %s: %s\n", shortID(ch.Since), changesColumn(ch))
	for _, l := range changeLists(ch) {
		if len(l.Names.Names) == 0 {
			continue
		}
		more := ""
		if n := l.Count - len(l.Names.Names); n > 0 {
			more = fmt.Sprintf(" … and %d more", n)
		}
		fmt.Fprintf(w, "    %s: %s%s\n", l.label, strings.Join(l.Names.Names, ", "), more)
	}
}

func place(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

func indent(w io.Writer, text, prefix string) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(w, "%s%s\n", prefix, l)
	}
}

// shownFrames is how many frames of a stuck thread's stack the terminal
// shows; the details file and the JSON have them all.
const shownFrames = 5

// stackLines is a stuck thread's stack as the terminal shows it: its top
// frames, and the stuck test's own frame where it lies deeper (a JVM test
// waiting on a latch sits under six frames of the JDK's), the frames left
// out counted.
func stackLines(stack []string, test string) []string {
	if len(stack) <= shownFrames {
		return stack
	}
	lines := slices.Clone(stack[:shownFrames])
	own := -1
	if fn := testFunc(test); fn != "" {
		own = slices.IndexFunc(stack[shownFrames:], func(fr string) bool { return namesFunc(fr, fn) })
	}
	if own < 0 {
		return append(lines, elided(len(stack)-shownFrames, "more "))
	}
	own += shownFrames
	if own > shownFrames {
		lines = append(lines, elided(own-shownFrames, ""))
	}
	lines = append(lines, stack[own])
	if rest := len(stack) - own - 1; rest > 0 {
		lines = append(lines, elided(rest, "more "))
	}
	return lines
}

// elided counts n frames left out: "… 3 more frames".
func elided(n int, more string) string {
	if n == 1 {
		return "… 1 " + more + "frame"
	}
	return fmt.Sprintf("… %d %sframes", n, more)
}

// testFunc is the function a test's name ends with: a JUnit method
// (Class#method(args)[row]), a Rust or pytest path's last part (without
// its parameters), a Go test without its subtests. "" for a name that is
// a sentence (Catch2's, JavaScript's) or too short to tell a frame by.
func testFunc(test string) string {
	if i := strings.IndexAny(test, "(["); i > 0 {
		test = test[:i]
	}
	test = strings.TrimSpace(test)
	cut := -1
	if i := strings.LastIndex(test, "::"); i >= 0 {
		cut = i + 2
	}
	if i := strings.LastIndexByte(test, '#'); i+1 > cut {
		cut = i + 1
	}
	if cut > 0 {
		test = test[cut:]
	} else if i := strings.IndexByte(test, '/'); i > 0 {
		test = test[:i] // a Go subtest runs in its parent's function
	}
	if i := strings.LastIndexByte(test, '.'); i >= 0 {
		test = test[i+1:]
	}
	if len(test) < 3 || strings.ContainsRune(test, ' ') {
		return ""
	}
	return test
}

// namesFunc says whether a frame's text names fn as a whole word.
func namesFunc(frame, fn string) bool {
	for i := 0; ; {
		j := strings.Index(frame[i:], fn)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(fn)
		if (start == 0 || !identByte(frame[start-1])) && (end == len(frame) || !identByte(frame[end])) {
			return true
		}
		i = start + 1
	}
}

func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
