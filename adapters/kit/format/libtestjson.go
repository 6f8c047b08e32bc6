package format

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeLibtestEvent fills e from one of libtest's own events, read by hand:
// cargo test prints one per test start and end, thousands a run, and
// encoding/json's reflection was a third of the cargo adapter's time.
// libtest writes them in one fixed shape, a flat object of strings and
// numbers that begins with LibtestStart:
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
	if !bytes.HasPrefix(line, LibtestStart) || !decodeLibtest(line, e) {
		*e = LibtestEvent{}
		return false
	}
	return true
}

// decodeLibtest reads the object's members; false leaves e in any state.
func decodeLibtest(b []byte, e *LibtestEvent) bool {
	var buf []byte // unescaped keys and values
	i := skipSpace(b, 1)
	for {
		key, n, ok := jsonString(b, i, &buf)
		if !ok {
			return false
		}
		f, known := libtestKeys[string(key)]
		if !known {
			return false
		}
		i = skipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		if i, ok = setLibtestField(e, f, b, i, &buf); !ok {
			return false
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
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
		v, n, ok := jsonString(b, i, buf)
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
		n := jsonNumber(b, i)
		if n == i {
			var ok bool
			if _, n, ok = jsonString(b, i, buf); !ok {
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
		n := jsonNumber(b, i)
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

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonInt reads the integer at b[i], one encoding/json stores in an int:
// no fraction, no exponent, and few enough digits not to overflow.
func jsonInt(b []byte, i int) (int, int, bool) {
	n := jsonNumber(b, i)
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

// jsonString reads the string starting at b[i] (a quote) and returns its
// value and the index after it. The value aliases b when nothing was
// escaped, and *buf otherwise, which it reuses. ok is false on bad JSON,
// invalid UTF-8 (which encoding/json replaces) and a lone surrogate escape.
func jsonString(b []byte, i int, buf *[]byte) (v []byte, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	ascii := true
	for j := start; j < len(b); j++ {
		for j < len(b) && plainASCII[b[j]] {
			j++
		}
		if j == len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			if !ascii && !utf8.Valid(b[start:j]) {
				return nil, 0, false
			}
			return b[start:j], j + 1, true
		case c == '\\':
			v, next, ok := unescape((*buf)[:0], b, start, j)
			if ok {
				*buf = v
			}
			return v, next, ok
		case c < 0x20:
			return nil, 0, false
		default:
			ascii = false
		}
	}
	return nil, 0, false
}

// plainASCII marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// unescape continues jsonString from the first backslash at b[j], appending
// the value to out.
func unescape(out, b []byte, start, j int) ([]byte, int, bool) {
	out = append(out, b[start:j]...)
	for j < len(b) {
		c := b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return nil, 0, false
			}
			return out, j + 1, true
		case c < 0x20:
			return nil, 0, false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(b) {
			return nil, 0, false
		}
		switch b[j+1] {
		case '"', '\\', '/':
			out = append(out, b[j+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, ok := unicodeEscape(b, j)
			if !ok {
				return nil, 0, false
			}
			out = utf8.AppendRune(out, r)
			j = n
			continue
		default:
			return nil, 0, false
		}
		j += 2
	}
	return nil, 0, false
}

// unicodeEscape reads \uXXXX at b[j], and the low half of a surrogate pair
// after it; a lone surrogate is left to encoding/json.
func unicodeEscape(b []byte, j int) (rune, int, bool) {
	r, ok := hex4(b, j+2)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, j + 6, true
	}
	if j+7 < len(b) && b[j+6] == '\\' && b[j+7] == 'u' {
		if r2, ok := hex4(b, j+8); ok {
			if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
				return c, j + 12, true
			}
		}
	}
	return 0, 0, false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// jsonNumber returns the index after the JSON number at b[i], or i when
// there is none: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(b []byte, i int) int {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		j = digits(b, j)
	default:
		return i
	}
	if j < len(b) && b[j] == '.' {
		k := digits(b, j+1)
		if k == j+1 {
			return i
		}
		j = k
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := digits(b, j)
		if k == j {
			return i
		}
		j = k
	}
	return j
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
