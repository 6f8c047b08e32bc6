package kit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"strobe/report"
)

// AppendMessage adds text to a failure's message after sep, keeping the
// message within MaxMessage (a multi-line assertion's continuation). When
// the test has later failures (AddFailure), the text continues the last
// of them.
func AppendMessage(f *report.Failure, sep, text string) {
	if n := len(f.Later); n > 0 && f.LaterOmitted == 0 {
		head := laterHead(f)
		f.Later[n-1].Message = Clip(f.Later[n-1].Message + sep + text)
		f.Message = Clip(head) + laterBlock(f)
		return
	}
	if f.LaterOmitted > 0 {
		return // the continuation of a failure not kept
	}
	f.Message = Clip(f.Message + sep + text)
}

// DidNotFinish is the message of a test that was running when its process
// ended before the test could report (a signal, exit() in the test): what
// ended it; with others running beside it, that any of them may have.
// Every adapter words it alike, so an agent reads one kind of answer,
// and the history tells the tests a crash cut off (report.DidNotFinish).
func DidNotFinish(what string, others int) string {
	msg := report.DidNotFinish + what + " while it ran"
	switch {
	case others == 1:
		msg += " with 1 other test (one of them, or their running together, did it: rerun each alone)"
	case others > 1:
		msg += fmt.Sprintf(" with %d other tests (one of them, or their running together, did it: rerun each alone)", others)
	}
	return msg
}

// The later failures of a test: the message names the first laterShown
// of them, one line each, its text folded to at most laterWidth bytes
// after its file:line, and counts the rest;
// the failure keeps the first laterKept (the details file's
// later_failures). A CHECK that fails in a loop a thousand times keeps the
// answer short.
const (
	laterShown = 5
	laterWidth = 100
	laterKept  = 100
)

// AddFailure adds a later failure of the same test (a second failed
// assertion that did not stop it) to f. The first failure located the
// test and keeps f's file:line and message; this one joins f.Later, and
// the message ends with a block naming the first few later failures, one
// line each ("file:line: text" with its whitespace folded, the line left
// out when 0, the location when there is none), and counting the rest:
//
//	first: got 1 want 2
//	and 2 more failures in this test:
//	m_test.go:7: second: got "x"
//	m_test.go:8: third
func AddFailure(f *report.Failure, file string, line int, text string) {
	head := laterHead(f)
	if len(f.Later) < laterKept {
		f.Later = append(f.Later, report.LaterFailure{File: file, Line: line, Message: Clip(text)})
	} else {
		f.LaterOmitted++
	}
	f.Message = Clip(head) + laterBlock(f)
}

// OmitFailures counts n later failures of f that were not kept (a parser
// or a plugin that keeps the first laterKept of a test's failures, as f
// does, and counts the rest): they are in the count the message says and
// in f.LaterOmitted.
func OmitFailures(f *report.Failure, n int) {
	if n <= 0 {
		return
	}
	head := laterHead(f)
	f.LaterOmitted += n
	f.Message = Clip(head) + laterBlock(f)
}

// LaterKept is how many later failures of a test a failure keeps
// (AddFailure): a parser that collects them need keep no more, and
// counts the rest with OmitFailures.
const LaterKept = laterKept

// laterHead is f's message without its later failures' block.
func laterHead(f *report.Failure) string {
	if block := laterBlock(f); block != "" {
		if i := strings.LastIndex(f.Message, block); i >= 0 {
			return f.Message[:i] + f.Message[i+len(block):]
		}
	}
	return f.Message
}

// laterBlock is what f's message says of its later failures, "" when it
// has none.
func laterBlock(f *report.Failure) string {
	n := len(f.Later) + f.LaterOmitted
	if n == 0 {
		return ""
	}
	var b strings.Builder
	if n == 1 {
		b.WriteString("\nand 1 more failure in this test:")
	} else {
		fmt.Fprintf(&b, "\nand %d more failures in this test:", n)
	}
	for i, l := range f.Later {
		if i == laterShown {
			fmt.Fprintf(&b, "\n(%d more: the details file's later_failures)", n-laterShown)
			break
		}
		where := l.File
		if l.Line > 0 {
			where += ":" + strconv.Itoa(l.Line)
		}
		if where != "" {
			where += ": "
		}
		b.WriteString("\n" + where + ClipTo(strings.Join(strings.Fields(l.Message), " "), laterWidth, "…"))
	}
	return b.String()
}

// ClipFailure is a failure's message clipped to n bytes with mark, for an
// answer: the block naming its later failures is kept whole, and the
// first failure's text gives way to it (down to an eighth of n).
func ClipFailure(f report.Failure, n int, mark string) string {
	block := laterBlock(&f)
	if block == "" || len(f.Message) <= n || !strings.HasSuffix(f.Message, block) {
		return ClipTo(f.Message, n, mark)
	}
	return ClipTo(strings.TrimSuffix(f.Message, block), max(n-len(block), n/8), mark) + block
}

// Plural is n and its noun: "1 snapshot", "2 snapshots"; a second form
// is the plural's where an s will not do (Plural(2, "snapshot was",
// "snapshots were")).
func Plural(n int, forms ...string) string {
	if n == 1 {
		return "1 " + forms[0]
	}
	if len(forms) > 1 {
		return fmt.Sprintf("%d %s", n, forms[1])
	}
	return fmt.Sprintf("%d %ss", n, forms[0])
}

// StoppedAt is what a run strobe stopped (report.Exit's StoppedBy) was
// stopped at, for the hint that says what did not run: "what hung" only
// when the detector found a test stuck.
func StoppedAt(by string) string {
	switch by {
	case report.StoppedTimeout:
		return "its timeout"
	case report.StoppedCancelled:
		return "the cancel"
	}
	return "what hung"
}

// StoppedWhat names, for the command that runs the rest, what a stopped
// run's rest leaves out: what hung, or what was running when it stopped.
func StoppedWhat(by string) string {
	if by == report.StoppedStuck || by == "" {
		return "what hung"
	}
	return "what was running"
}

// WithRest adds to said, what a stopped run's hint says, the command that
// runs the rest of the run's selection without what it was stopped at
// ("…; to run the rest without what hung: CMD"), which the runner finds
// by those words to put the run's --env in front. With nothing said it
// follows "FRAMEWORK was stopped at what hung": a hint that began with
// it would be capitalized after another, and the words missed. said
// alone when cmd is "".
func WithRest(said, framework, by, cmd string) string {
	if cmd == "" {
		return said
	}
	if said == "" {
		said = framework + " was stopped at " + StoppedAt(by)
	}
	return said + "; to run the rest without " + StoppedWhat(by) + ": " + cmd
}

// ExactAny is the regexp that matches each of names whole and nothing
// else: `^name$` for one, `^(a|b)$` for several, each quoted.
func ExactAny(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	if len(quoted) == 1 {
		return "^" + quoted[0] + "$"
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}
