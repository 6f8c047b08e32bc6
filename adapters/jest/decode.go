package jest

import (
	"bytes"
	"encoding/json"
	"strconv"

	"strobe/adapters/kit/format"
)

// decodeEvent reads one line of the reporter's. The reporter writes a few
// flat shapes, so a hand decoder reads them (a few times faster than
// encoding/json, which a suite's every test start and end goes through);
// anything it does not expect (a key it does not know, a number it would
// read differently) goes to encoding/json, which has the last word.
func decodeEvent(line []byte, ev *event, buf *[]byte) bool {
	*ev = event{}
	if decodeObject(line, ev, buf) {
		return true
	}
	*ev = event{}
	return json.Unmarshal(line, ev) == nil
}

// decodeObject reads the event's members; false leaves ev in any state.
func decodeObject(b []byte, ev *event, buf *[]byte) bool {
	return format.JSONWhole(b, buf, func(key []byte, i int) (int, bool) {
		k := string(key) // no allocation: the compiler reads the switch on the bytes
		switch k {
		case "ev", "file", "name", "title", "status", "msg", "version", "project", "seed":
			v, n, ok := format.JSONString(b, i, buf)
			if !ok {
				return 0, false
			}
			setString(ev, k, v)
			return n, true
		case "ms":
			f, n, ok := number(b, i)
			ev.MS = f
			return n, ok
		case "total", "passed", "failed", "skipped", "todo", "suitesFailed", "ran", "pid":
			f, n, ok := number(b, i)
			if !ok || bytes.ContainsAny(b[i:n], ".eE") { // encoding/json refuses those for an int
				return 0, false
			}
			setInt(ev, k, int(f))
			return n, true
		case "interrupted":
			switch {
			case bytes.HasPrefix(b[i:], []byte("true")):
				ev.Interrupted = true
				return i + 4, true
			case bytes.HasPrefix(b[i:], []byte("false")):
				return i + 5, true
			}
		case "at":
			if bytes.HasPrefix(b[i:], []byte("null")) {
				return i + 4, true
			}
			at := &location{}
			n, ok := decodeLocation(b, i, at, buf)
			ev.At = at
			return n, ok
		}
		return 0, false
	})
}

// decodeLocation reads {"file":…,"line":…,"col":…} at b[i].
func decodeLocation(b []byte, i int, at *location, buf *[]byte) (int, bool) {
	return format.JSONObject(b, i, buf, func(key []byte, i int) (int, bool) {
		switch string(key) {
		case "file":
			v, n, ok := format.JSONString(b, i, buf)
			at.File = string(v)
			return n, ok
		case "line", "col":
			f, n, ok := number(b, i)
			if !ok || bytes.ContainsAny(b[i:n], ".eE") {
				return 0, false
			}
			if key[0] == 'l' {
				at.Line = int(f)
			} else {
				at.Col = int(f)
			}
			return n, true
		}
		return 0, false
	})
}

func number(b []byte, i int) (float64, int, bool) {
	n := format.JSONNumber(b, i)
	if n == i {
		return 0, 0, false
	}
	f, err := strconv.ParseFloat(string(b[i:n]), 64)
	return f, n, err == nil
}

func setString(ev *event, k string, v []byte) {
	switch k {
	case "ev":
		ev.Ev = eventName(v)
	case "file":
		ev.File = string(v)
	case "name":
		ev.Name = string(v)
	case "title":
		ev.Title = string(v)
	case "status":
		ev.Status = eventName(v)
	case "msg":
		ev.Msg = string(v)
	case "version":
		ev.Version = string(v)
	case "project":
		ev.Project = string(v)
	case "seed":
		ev.Seed = string(v)
	}
}

// eventName returns the constant for the few values "ev" and "status"
// take, so that they cost no allocation.
func eventName(v []byte) string {
	for _, s := range [...]string{"start", "end", "passed", "failed", "skipped", "todo", "file", "fileDone", "worker", "suite", "run", "done"} {
		if string(v) == s {
			return s
		}
	}
	return string(v)
}

func setInt(ev *event, k string, v int) {
	switch k {
	case "total":
		ev.Total = v
	case "passed":
		ev.Passed = v
	case "failed":
		ev.Failed = v
	case "skipped":
		ev.Skipped = v
	case "todo":
		ev.Todo = v
	case "suitesFailed":
		ev.SuitesFailed = v
	case "ran":
		ev.Ran = v
	case "pid":
		ev.PID = v
	}
}
