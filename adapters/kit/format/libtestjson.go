package format

import (
	"bytes"
	"encoding/json"
)

// libtestStartCompact begins cargo-nextest's libtest-json events, written
// without spaces: {"type":"test","event":"ok",...}.
var libtestStartCompact = []byte(`{"type":"`)

// DecodeLibtestEvent fills e from one of libtest's own events, read by hand:
// cargo test prints one per test start and end, thousands a run, and
// encoding/json's reflection was a third of the cargo adapter's time.
// libtest writes them in one fixed shape, a flat object of strings and
// numbers that begins with LibtestStart (cargo-nextest writes it without
// spaces, libtestStartCompact):
//
//	{ "type": "test", "event": "ok", "name": "tests::adds", "exec_time": 0.001 }
//
// Anything else (a key LibtestEvent does not hold and libtest does not
// write, such as cargo's "reason"; a key in another case; a nested value or
// a literal; a number that is not an integer where one belongs; an escape it
// does not read; invalid UTF-8; bad JSON) makes it return false with e
// zeroed, and the caller asks encoding/json. When it returns true, e is what
// json.Unmarshal makes of the line, and so is a cargoMessage embedding it.
func DecodeLibtestEvent(line []byte, e *LibtestEvent) bool {
	*e = LibtestEvent{}
	if !bytes.HasPrefix(line, LibtestStart) && !bytes.HasPrefix(line, libtestStartCompact) || !decodeLibtest(line, e) {
		*e = LibtestEvent{}
		return false
	}
	return true
}

// decodeLibtest reads the object's members; false leaves e in any state.
func decodeLibtest(b []byte, e *LibtestEvent) bool {
	var buf []byte // unescaped keys and values
	return JSONWhole(b, &buf, func(key []byte, i int) (int, bool) {
		f, known := libtestKeys[string(key)]
		if !known {
			return 0, false
		}
		return setLibtestField(e, f, b, i, &buf)
	})
}

type libtestField int

const (
	fieldType libtestField = iota
	fieldEvent
	fieldName
	fieldTestCount
	fieldPassed
	fieldFailed
	fieldIgnored
	fieldMeasured
	fieldFilteredOut
	fieldExecTime
	fieldStdout
	fieldStderr
	fieldMessage
	// fieldSkip is a number libtest writes that LibtestEvent does not hold,
	// which encoding/json skips too.
	fieldSkip
)

// libtestKeys are the keys libtest writes, as it spells them. measured and
// filtered_out are suite totals LibtestEvent does not hold; allowed_fail
// was one until Rust 1.58; a "report" event has total_time and
// compilation_time. None of them is a cargoMessage field in any case.
var libtestKeys = map[string]libtestField{
	"type":             fieldType,
	"event":            fieldEvent,
	"name":             fieldName,
	"test_count":       fieldTestCount,
	"passed":           fieldPassed,
	"failed":           fieldFailed,
	"ignored":          fieldIgnored,
	"measured":         fieldSkip,
	"filtered_out":     fieldSkip,
	"allowed_fail":     fieldSkip,
	"total_time":       fieldSkip,
	"compilation_time": fieldSkip,
	"exec_time":        fieldExecTime,
	"stdout":           fieldStdout,
	"stderr":           fieldStderr,
	"message":          fieldMessage,
}

// setLibtestField reads the value at b[i] into field f and returns the
// index after it.
func setLibtestField(e *LibtestEvent, f libtestField, b []byte, i int, buf *[]byte) (int, bool) {
	switch f {
	case fieldType, fieldEvent, fieldName, fieldStdout, fieldStderr:
		v, n, ok := JSONString(b, i, buf)
		if !ok {
			return 0, false
		}
		switch f {
		case fieldType:
			e.Type = libtestWord(v)
		case fieldEvent:
			e.Event = libtestWord(v)
		case fieldName:
			e.Name = string(v)
		case fieldStdout:
			e.Stdout = string(v)
		case fieldStderr:
			e.Stderr = string(v)
		}
		return n, true
	case fieldExecTime, fieldMessage:
		// Kept raw, as json.RawMessage keeps it: a number or a string.
		n := JSONNumber(b, i)
		if n == i {
			var ok bool
			if _, n, ok = JSONString(b, i, buf); !ok {
				return 0, false
			}
		}
		raw := json.RawMessage(bytes.Clone(b[i:n]))
		if f == fieldExecTime {
			e.ExecTime = raw
		} else {
			e.Message = raw
		}
		return n, true
	case fieldSkip:
		n := JSONNumber(b, i)
		return n, n > i
	}
	v, n, ok := jsonInt(b, i)
	if !ok {
		return 0, false
	}
	switch f {
	case fieldTestCount:
		e.TestCount = v
	case fieldPassed:
		e.Passed = v
	case fieldFailed:
		e.Failed = v
	case fieldIgnored:
		e.Ignored = v
	}
	return n, true
}

// libtestWord returns libtest's types and events without allocating.
func libtestWord(v []byte) string {
	switch string(v) {
	case "test":
		return "test"
	case "suite":
		return "suite"
	case "started":
		return "started"
	case "ok":
		return "ok"
	case "failed":
		return "failed"
	case "ignored":
		return "ignored"
	case "timeout":
		return "timeout"
	}
	return string(v)
}

// jsonInt reads the integer at b[i], one encoding/json stores in an int:
// no fraction, no exponent, and few enough digits not to overflow.
func jsonInt(b []byte, i int) (int, int, bool) {
	n := JSONNumber(b, i)
	digits := b[i:n]
	neg := len(digits) > 0 && digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, 0, false
	}
	v := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, n, true
}
