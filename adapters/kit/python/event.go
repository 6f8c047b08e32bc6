package python

import (
	"encoding/json"
	"fmt"
	"strconv"

	"strobe/adapters/kit/format"
)

// Event is one line of the channel strobe's Python code writes (see
// strobe_events.py and the plugin and runner that use it).
//
//	hello          the channel works (pid, the framework's version)
//	collected      n tests collected
//	collect_error  a module that could not be collected: file, line, msg
//	start          a test began: id, file, line (its definition)
//	end            a test is over: id, status (passed, failed, error,
//	               skipped, xfailed, xpassed, crashed: the pytest-xdist
//	               worker running it died), when (setup, call,
//	               teardown) for failures and errors, type, msg, file,
//	               line (the failing frame in the project), out (its
//	               captured output), reason (skips, xfail), also (a later
//	               error of the same test), dur (seconds), sel (what
//	               selects it for a rerun when its id cannot: the module
//	               whose load_tests added a doctest), traces (a
//	               failure's suggested trace patterns), call (the
//	               test's own line that led to a failure raised deeper:
//	               "test_x.py:12 (test_y)"), attempts (how many times
//	               pytest-rerunfailures ran it, when more than once),
//	               first (its first failed attempt: status, when, type,
//	               msg, file, line), timeout (the seconds of
//	               pytest-timeout's timeout when it stopped the test),
//	               stack (where the test was then, innermost first),
//	               args (what the rerun adds after the id: hypothesis'
//	               --hypothesis-seed=N), later (its later failures,
//	               each with a failure's fields and sub: the subtest's
//	               parameters; a subTest failing after the first, a
//	               teardown error after the test failed), later_omitted
//	               (how many more there were)
//	not_run        tests a failed set-up kept from running: id (their
//	               class or module), reason (the set-up: setUpClass,
//	               setUpModule), n (how many)
//	shuffled       the tests run in a random order and randomness is
//	               reseeded: args (what every rerun adds to keep the
//	               seed: pytest-randomly's -p randomly --randomly-seed=N)
//	done           the session is over: exit (the framework's exit code),
//	               reason (why it stopped early: pytest -x, --maxfail)
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
	Sel     string  `json:"sel"`
	// Traces are a failure's suggested trace patterns (an array: read
	// by encoding/json, off the hot path).
	Traces []string `json:"traces"`
	Call   string   `json:"call"`
	// Attempts counts the runs of a test pytest-rerunfailures reran, and
	// First is its first failed one (an object: read by encoding/json).
	Attempts int    `json:"attempts"`
	First    *Event `json:"first"`
	// Timeout is pytest-timeout's timeout, in seconds, when it stopped
	// the test, and Stack the test's frames then (arrays: encoding/json).
	Timeout float64  `json:"timeout"`
	Stack   []string `json:"stack"`
	Args    []string `json:"args"`
	// Later are a failed test's later failures, the first
	// strobe_events.MAX_LATER of them, and LaterOmitted counts the rest
	// (an array and its count: encoding/json). Sub is a later failure's
	// subtest, as unittest says it: "(n=3) ", "[odd] ".
	Later        []Event `json:"later"`
	LaterOmitted int     `json:"later_omitted"`
	Sub          string  `json:"sub"`
}

// Decode reads one event line into e, which it clears first. The events
// are flat objects of strings and numbers, read by hand on the hot path
// (a start and an end per test); anything else (a null, a nested value,
// an escape the hand reader declines) goes to encoding/json.
func Decode(line []byte, e *Event) error {
	*e = Event{}
	if decodeFlat(line, e) {
		return nil
	}
	*e = Event{}
	if err := json.Unmarshal(line, e); err != nil {
		return fmt.Errorf("reading a strobe python event: %w", err)
	}
	return nil
}

// decodeFlat reads a flat JSON object of string and number values,
// declining anything else.
func decodeFlat(b []byte, e *Event) bool {
	var buf []byte
	return format.JSONWhole(b, &buf, func(key []byte, i int) (int, bool) {
		k := field(key) // before buf is reused
		if k == fUnknown && format.FoldsToKey(key, fieldNames) {
			return 0, false // encoding/json matches keys without case
		}
		if b[i] == '"' {
			v, next, ok := format.JSONString(b, i, &buf)
			return next, ok && setString(e, k, v)
		}
		next := format.JSONNumber(b, i)
		return next, next != i && setNumber(e, k, b[i:next])
	})
}

// fieldKind names an event's fields for the hand decoder.
type fieldKind int

const (
	fUnknown fieldKind = iota
	fEv
	fID
	fFile
	fLine
	fStatus
	fWhen
	fType
	fMsg
	fOut
	fReason
	fAlso
	fDur
	fN
	fExit
	fPID
	fVersion
	fSel
	fCall
	fAttempts
	fTimeout
)

func field(k []byte) fieldKind {
	switch string(k) { // no allocation: the compiler compares in place
	case "ev":
		return fEv
	case "id":
		return fID
	case "file":
		return fFile
	case "line":
		return fLine
	case "status":
		return fStatus
	case "when":
		return fWhen
	case "type":
		return fType
	case "msg":
		return fMsg
	case "out":
		return fOut
	case "reason":
		return fReason
	case "also":
		return fAlso
	case "dur":
		return fDur
	case "n":
		return fN
	case "exit":
		return fExit
	case "pid":
		return fPID
	case "version":
		return fVersion
	case "sel":
		return fSel
	case "call":
		return fCall
	case "attempts":
		return fAttempts
	case "timeout":
		return fTimeout
	}
	return fUnknown
}

var fieldNames = []string{"ev", "id", "file", "line", "status", "when", "type", "msg", "out", "reason", "also", "dur", "n", "exit", "pid", "version", "sel", "traces", "call", "attempts", "first", "timeout", "stack", "args", "later", "later_omitted", "sub"}

// words are the values most events repeat, kept as constants so that
// decoding them allocates nothing.
var words = map[string]string{}

func init() {
	for _, w := range []string{"start", "end", "hello", "collected", "collect_error", "done",
		"passed", "failed", "error", "skipped", "xfailed", "xpassed", "crashed", "setup", "call", "teardown", "AssertionError"} {
		words[w] = w
	}
}

func word(v []byte) string {
	if w, ok := words[string(v)]; ok {
		return w
	}
	return string(v)
}

func setString(e *Event, k fieldKind, v []byte) bool {
	switch k {
	case fEv:
		e.Ev = word(v)
	case fID:
		e.ID = string(v)
	case fFile:
		e.File = string(v)
	case fStatus:
		e.Status = word(v)
	case fWhen:
		e.When = word(v)
	case fType:
		e.Type = word(v)
	case fMsg:
		e.Msg = string(v)
	case fOut:
		e.Out = string(v)
	case fReason:
		e.Reason = string(v)
	case fAlso:
		e.Also = string(v)
	case fVersion:
		e.Version = string(v)
	case fSel:
		e.Sel = string(v)
	case fCall:
		e.Call = string(v)
	case fUnknown:
	default:
		return false // a number field given a string: encoding/json says what it makes of it
	}
	return true
}

func setNumber(e *Event, k fieldKind, v []byte) bool {
	switch k {
	case fDur, fTimeout:
		f, err := strconv.ParseFloat(string(v), 64)
		if k == fDur {
			e.Dur = f
		} else {
			e.Timeout = f
		}
		return err == nil
	case fUnknown:
		return true
	}
	n, err := strconv.Atoi(string(v))
	if err != nil {
		return false
	}
	switch k {
	case fLine:
		e.Line = n
	case fN:
		e.N = n
	case fExit:
		e.Exit = n
	case fPID:
		e.PID = n
	case fAttempts:
		e.Attempts = n
	default:
		return false
	}
	return true
}
