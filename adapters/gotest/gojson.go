package gotest

import (
	"bytes"
	"encoding/json"
	"strconv"

	"strobe/adapters/kit/format"
)

// goDecoder decodes go test -json events. test2json prints every event in
// one fixed shape, a flat object of strings and one number:
//
//	{"Time":"…","Action":"output","Package":"p","Test":"TestX","Output":"…\n"}
//
// and a test that prints a lot makes millions of them, so the shape is read
// by hand: no reflection, and the strings an event repeats (the action, the
// package, the test) are not allocated again. Anything else (a nested value,
// a literal, a key that differs only in case, a string that is not valid
// UTF-8, bad JSON) goes to encoding/json, so the result is always what
// json.Unmarshal makes of the line.
type goDecoder struct {
	pkg, test string // the last event's, reused when the next repeats them
	key, val  []byte // unescaped keys and values, reused from event to event

	// A test's output lines differ only in their time and their text:
	//
	//	{"Time":"…","Action":"output","Package":"p","Test":"TestX","Output":"…\n"}
	//
	// mid is what lies between the two in the last such event the fast
	// path read (`","Action":…,"Output":`), and midEvent what it read there,
	// so that the next line with the same middle reads only its time and
	// text (again).
	mid      []byte
	midEvent goEvent
}

// timeHead starts every event test2json writes.
const timeHead = `{"Time":`

// decode fills e from the JSON object b and says whether b is one.
func (d *goDecoder) decode(b []byte, e *goEvent) bool {
	if d.again(b, e) { // sets all of e, or none of it
		return true
	}
	*e = goEvent{}
	if d.fast(b, e) {
		return true
	}
	*e = goEvent{}
	return json.Unmarshal(b, e) == nil
}

// again reads an event whose middle is the last one's: its time must be a
// string (the fast path reads nothing else of it), its output a string that
// ends the line with the object. Those bytes parse as they did the last
// time, so the event is the last one's with this output.
func (d *goDecoder) again(b []byte, e *goEvent) bool {
	if len(d.mid) == 0 || !bytes.HasPrefix(b, []byte(timeHead)) {
		return false
	}
	_, i, ok := format.JSONString(b, len(timeHead), &d.val)
	if !ok || !bytes.HasPrefix(b[i:], d.mid) {
		return false
	}
	v, end, ok := format.JSONString(b, i+len(d.mid), &d.val)
	if !ok || end != len(b)-1 || b[end] != '}' {
		return false
	}
	*e = d.midEvent
	e.Output = string(v)
	return true
}

// fast decodes the fixed shape; false means "ask encoding/json", with e
// in any state. An event that starts with its time and ends with its
// output becomes the middle again looks for.
func (d *goDecoder) fast(b []byte, e *goEvent) bool {
	timeEnd, outStart, outEnd := -1, -1, -1
	ok := format.JSONWhole(b, &d.key, func(key []byte, i int) (int, bool) {
		if b[i] == '"' {
			v, n, ok := format.JSONString(b, i, &d.val)
			switch {
			case !ok:
				return 0, false
			case i == len(timeHead) && string(key) == "Time":
				timeEnd = n
			case string(key) == "Output":
				outStart, outEnd = i, n
			}
			return n, d.setString(e, key, v)
		}
		n := format.JSONNumber(b, i)
		if n == i || string(key) != "Elapsed" {
			return 0, false // a literal, an object, an array, or a number elsewhere
		}
		f, err := strconv.ParseFloat(string(b[i:n]), 64)
		e.Elapsed = f
		return n, err == nil
	})
	if ok && timeEnd > 0 && outStart > timeEnd && outEnd == len(b)-1 && b[outEnd] == '}' {
		d.mid = append(d.mid[:0], b[timeEnd:outStart]...)
		d.midEvent = *e
		d.midEvent.Output = ""
	}
	return ok
}

// goEventFields are goEvent's fields: encoding/json matches keys without
// regard to case, so a key equal to one of them but for case is left to it.
var goEventFields = []string{"Action", "Package", "Test", "Elapsed", "Output", "ImportPath", "FailedBuild"}

// setString stores a string value; false when encoding/json must decide.
func (d *goDecoder) setString(e *goEvent, key, v []byte) bool {
	switch string(key) {
	case "Action":
		e.Action = goAction(v)
	case "Package":
		if string(v) != d.pkg {
			d.pkg = string(v)
		}
		e.Package = d.pkg
	case "Test":
		if string(v) != d.test {
			d.test = string(v)
		}
		e.Test = d.test
	case "Output":
		e.Output = string(v)
	case "ImportPath":
		e.ImportPath = string(v)
	case "FailedBuild":
		e.FailedBuild = string(v)
	case "Elapsed":
		return false // a string where a number belongs: an error
	case "Time":
		// Not read: strobe times events as they arrive. (Every line has
		// one; the loop below would compare it with each field.)
	default:
		if format.FoldsToKey(key, goEventFields) {
			return false
		}
	}
	return true
}

// goAction returns test2json's actions without allocating.
func goAction(v []byte) string {
	switch string(v) {
	case "start":
		return "start"
	case "run":
		return "run"
	case "output":
		return "output"
	case "pass":
		return "pass"
	case "fail":
		return "fail"
	case "skip":
		return "skip"
	case "pause":
		return "pause"
	case "cont":
		return "cont"
	case "bench":
		return "bench"
	case "build-output":
		return "build-output"
	case "build-fail":
		return "build-fail"
	}
	return string(v)
}
