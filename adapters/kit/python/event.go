package python

import (
	"encoding/json"
	"fmt"
)

// Event is one line of the channel strobe's Python code writes (see
// strobe_events.py and the plugin and runner that use it).
//
//	hello          the channel works (pid, the framework's version)
//	collected      n tests collected
//	collect_error  a module that could not be collected: file, line, msg
//	start          a test began: id, file, line (its definition)
//	end            a test is over: id, status (passed, failed, error,
//	               skipped, xfailed, xpassed), when (setup, call,
//	               teardown) for failures and errors, type, msg, file,
//	               line (the failing frame in the project), out (its
//	               captured output), reason (skips, xfail), also (a later
//	               error of the same test), dur (seconds)
//	done           the session is over: exit (the framework's exit code)
type Event struct {
	Ev      string  `json:"ev"`
	ID      string  `json:"id"`
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Status  string  `json:"status"`
	When    string  `json:"when"`
	Type    string  `json:"type"`
	Msg     string  `json:"msg"`
	Out     string  `json:"out"`
	Reason  string  `json:"reason"`
	Also    string  `json:"also"`
	Dur     float64 `json:"dur"`
	N       int     `json:"n"`
	Exit    int     `json:"exit"`
	PID     int     `json:"pid"`
	Version string  `json:"version"`
}

// Decode reads one event line into e, which it clears first.
func Decode(line []byte, e *Event) error {
	*e = Event{}
	if err := json.Unmarshal(line, e); err != nil {
		return fmt.Errorf("reading a strobe python event: %w", err)
	}
	return nil
}
