package gotest

import (
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
}

// decode fills e from the JSON object b and says whether b is one.
func (d *goDecoder) decode(b []byte, e *goEvent) bool {
	*e = goEvent{}
	if d.fast(b, e) {
		return true
	}
	*e = goEvent{}
	return json.Unmarshal(b, e) == nil
}

// fast decodes the fixed shape; false means "ask encoding/json", with e
// in any state.
func (d *goDecoder) fast(b []byte, e *goEvent) bool {
	return format.JSONWhole(b, &d.key, func(key []byte, i int) (int, bool) {
		if b[i] == '"' {
			v, n, ok := format.JSONString(b, i, &d.val)
			return n, ok && d.setString(e, key, v)
		}
		n := format.JSONNumber(b, i)
		if n == i || string(key) != "Elapsed" {
			return 0, false // a literal, an object, an array, or a number elsewhere
		}
		f, err := strconv.ParseFloat(string(b[i:n]), 64)
		e.Elapsed = f
		return n, err == nil
	})
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
