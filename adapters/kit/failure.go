package kit

import (
	"strconv"

	"strobe/report"
)

// AppendMessage adds text to a failure's message after sep, keeping the
// message within MaxMessage (a multi-line assertion's continuation).
func AppendMessage(f *report.Failure, sep, text string) {
	f.Message = Clip(f.Message + sep + text)
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
