package format

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON scanning both hand decoders of test events share (libtest's
// here, go test -json's in the go adapter): each reads one value at b[i]
// and says where it ends, and declines what encoding/json would read
// differently, so its caller can fall back to encoding/json.

// FoldsToKey says whether encoding/json would store a member named key in
// a field named one of keys: it matches names whatever their case, so a
// hand decoder that reads only the exact name must decline the others.
func FoldsToKey(key []byte, keys []string) bool {
	for _, k := range keys {
		if strings.EqualFold(string(key), k) {
			return true
		}
	}
	return false
}

// SkipSpace is the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// JSONString reads the string starting at b[i] (a quote) and returns its
// value and the index after it. The value aliases b when nothing was
// escaped, and *buf otherwise, which it reuses. ok is false on bad JSON,
// invalid UTF-8 (which encoding/json replaces) and a lone surrogate escape.
func JSONString(b []byte, i int, buf *[]byte) (v []byte, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	ascii := true
	for j := start; j < len(b); j++ {
		// Eight bytes at a time while they are plain (the long output
		// lines of a test that prints), then one at a time.
		for j+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[j:])) {
			j += 8
		}
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

// plainWord says whether the eight bytes of w are all plainASCII: none
// has its high bit set, none is below 0x20 (a byte less than 0x20 borrows
// into its high bit when 0x20 is taken from it), and none is the quote or
// the backslash (a byte equal to c is zero after xor with c).
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	return (w&highs)|((w-0x20*ones)&^w&highs)|zero(w^'"'*ones)|zero(w^'\\'*ones) == 0
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

// JSONNumber returns the index after the JSON number at b[i], or i when
// there is none: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func JSONNumber(b []byte, i int) int {
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

// JSONObject reads the object starting at b[i] (a brace), member by
// member: the shape all the hand decoders of test events share. member
// gets each key and the index of its value, reads the value and returns
// the index after it, or false to decline (a key or a value its decoder
// leaves to encoding/json). key aliases b or *buf: member reads it before
// it reads a string value into the same buf. JSONObject returns the index
// after the closing brace; ok is false on bad JSON or a declined member.
// member is called directly, not stored, so a closure stays on the
// caller's stack.
func JSONObject(b []byte, i int, buf *[]byte, member func(key []byte, i int) (int, bool)) (next int, ok bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		key, n, ok := JSONString(b, i, buf)
		if !ok {
			return 0, false
		}
		i = SkipSpace(b, n)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		i = SkipSpace(b, i+1)
		if i >= len(b) {
			return 0, false
		}
		if i, ok = member(key, i); !ok {
			return 0, false
		}
		i = SkipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// JSONWhole reads b as one object with JSONObject, and nothing but white
// space around it: a line of an events file.
func JSONWhole(b []byte, buf *[]byte, member func(key []byte, i int) (int, bool)) bool {
	next, ok := JSONObject(b, SkipSpace(b, 0), buf, member)
	return ok && SkipSpace(b, next) == len(b)
}
