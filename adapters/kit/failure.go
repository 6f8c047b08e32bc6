package kit

import (
	"fmt"
	"strconv"

	"strobe/report"
)

// AppendMessage adds text to a failure's message after sep, keeping the
// message within MaxMessage (a multi-line assertion's continuation).
func AppendMessage(f *report.Failure, sep, text string) {
	f.Message = Clip(f.Message + sep + text)
}

// DidNotFinish is the message of a test that was running when its process
// ended before the test could report (a signal, exit() in the test): what
// ended it; with others running beside it, that any of them may have.
// Every adapter words it alike, so an agent reads one kind of answer.
func DidNotFinish(what string, others int) string {
	msg := "did not finish: " + what + " while it ran"
	switch {
	case others == 1:
		msg += " with 1 other test (one of them, or their running together, did it: rerun each alone)"
	case others > 1:
		msg += fmt.Sprintf(" with %d other tests (one of them, or their running together, did it: rerun each alone)", others)
	}
	return msg
}

// AddFailure adds a later failure of the same test (a second failed
// assertion) to f. The first failure located the test and keeps f's
// file:line; this one's location leads its text ("file:line: text", the
// line left out when 0), after sep.
func AddFailure(f *report.Failure, sep, file string, line int, text string) {
	where := file
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	AppendMessage(f, sep, where+": "+text)
}
