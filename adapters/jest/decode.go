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
	b = bytes.TrimRight(b, " \r\n")
	i := format.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = format.SkipSpace(b, i+1)
	for {
		key, n, ok := format.JSONString(b, i, buf)
		if !ok {
			return false
		}
		k := string(key) // no allocation: the compiler reads the switch on the bytes
		i = format.SkipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = format.SkipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		switch k {
		case "ev", "file", "name", "title", "status", "msg", "version":
			v, n, ok := format.JSONString(b, i, buf)
			if !ok {
				return false
			}
			setString(ev, k, v)
			i = n
		case "ms":
			f, n, ok := number(b, i)
			if !ok {
				return false
			}
			ev.MS, i = f, n
		case "total", "passed", "failed", "skipped", "todo", "suitesFailed":
			f, n, ok := number(b, i)
			if !ok || bytes.ContainsAny(b[i:n], ".eE") { // encoding/json refuses those for an int
				return false
			}
			setInt(ev, k, int(f))
			i = n
		case "interrupted":
			switch {
			case bytes.HasPrefix(b[i:], []byte("true")):
				ev.Interrupted, i = true, i+4
			case bytes.HasPrefix(b[i:], []byte("false")):
				i += 5
			default:
				return false
			}
		case "at":
			if bytes.HasPrefix(b[i:], []byte("null")) {
				i += 4
				break
			}
			at := &location{}
			if i, ok = decodeLocation(b, i, at, buf); !ok {
				return false
			}
			ev.At = at
		default:
			return false
		}
		i = format.SkipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = format.SkipSpace(b, i+1)
		case '}':
			return format.SkipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// decodeLocation reads {"file":…,"line":…,"col":…} at b[i].
func decodeLocation(b []byte, i int, at *location, buf *[]byte) (int, bool) {
	if b[i] != '{' {
		return 0, false
	}
	i = format.SkipSpace(b, i+1)
	for {
		key, n, ok := format.JSONString(b, i, buf)
		if !ok {
			return 0, false
		}
		k := string(key)
		i = format.SkipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		i = format.SkipSpace(b, i+1)
		switch k {
		case "file":
			v, n, ok := format.JSONString(b, i, buf)
			if !ok {
				return 0, false
			}
			at.File, i = string(v), n
		case "line", "col":
			f, n, ok := number(b, i)
			if !ok || bytes.ContainsAny(b[i:n], ".eE") {
				return 0, false
			}
			if k == "line" {
				at.Line = int(f)
			} else {
				at.Col = int(f)
			}
			i = n
		default:
			return 0, false
		}
		i = format.SkipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = format.SkipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
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
	}
}

// eventName returns the constant for the few values "ev" and "status"
// take, so that they cost no allocation.
func eventName(v []byte) string {
	for _, s := range [...]string{"start", "end", "passed", "failed", "skipped", "todo", "file", "suite", "run", "done"} {
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
	}
}
