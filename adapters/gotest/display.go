package gotest

import (
	"bytes"
	"encoding/json"

	"strobe/adapters"
)

// Display shows a test2json line as its Output, so that a traced run's
// session reads "=== RUN   TestTotal" rather than the JSON around it;
// the events that print nothing are dropped, and text that is not an
// event (the go command's own stderr) shows as it is.
func (p *goParser) Display(_ adapters.Stream, line []byte) ([]byte, bool) {
	if len(line) == 0 || line[0] != '{' {
		return line, true
	}
	var e struct{ Action, Output string }
	if err := json.Unmarshal(line, &e); err != nil {
		return line, true
	}
	if e.Action != "output" {
		return nil, false
	}
	return bytes.TrimRight([]byte(e.Output), "\r\n"), true
}
