package vitest

import (
	"strconv"

	"strobe/adapters/kit/format"
)

// fastEvent decodes the flat events that make most of a run (start, done,
// a passed or skipped end, a log line) by hand: their fields are strings,
// numbers and booleans. It declines anything else (an error object, an
// unknown value), for encoding/json to read. files interns file names,
// which repeat on every event of a file.
func fastEvent(b []byte, e *event, buf *[]byte, files map[string]string) bool {
	return format.JSONWhole(b, buf, func(key []byte, i int) (int, bool) {
		k := string(key) // the compiler does not allocate for the switch
		switch c := b[i]; {
		case c == '"':
			v, next, ok := format.JSONString(b, i, buf)
			if !ok {
				return 0, false
			}
			if k == "file" {
				f, seen := files[string(v)]
				if !seen {
					f = string(v)
					files[f] = f
				}
				e.File = f
			} else if !setString(e, k, string(v)) {
				return 0, false
			}
			return next, true
		case c == '-' || c >= '0' && c <= '9':
			end := format.JSONNumber(b, i)
			if end <= i {
				return 0, false
			}
			if k == "ms" {
				f, err := strconv.ParseFloat(string(b[i:end]), 64)
				if err != nil {
					return 0, false
				}
				e.MS = f
			} else if k == "pid" {
				n, err := strconv.Atoi(string(b[i:end]))
				if err != nil {
					return 0, false
				}
				e.PID = n
			} else {
				return 0, false
			}
			return end, true
		case c == 't' && k == "todo" && len(b) >= i+4 && string(b[i:i+4]) == "true":
			e.Todo = true
			return i + 4, true
		}
		return 0, false
	})
}

// setString sets the string field named key; false for a key the hand
// decoder does not know.
func setString(e *event, key, v string) bool {
	switch key {
	case "ev":
		e.Ev = v
	case "name":
		e.Name = v
	case "status":
		e.Status = v
	case "state":
		e.State = v
	case "stream":
		e.Stream = v
	case "text":
		e.Text = v
	case "note":
		e.Note = v
	case "title":
		e.Title = v
	case "project":
		e.Project = v
	default:
		return false
	}
	return true
}
