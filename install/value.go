package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// field is one key of strobe's entry, in the order it is written.
// val is a string, a []string, an int, or a nested []field.
type field struct {
	key string
	val any
}

// ParseError reports a config file that does not parse. strobe leaves such
// a file untouched.
type ParseError struct {
	Path string
	Pos  string // "line 3, column 5"
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s does not parse (%s: %s): left untouched; fix it, or add strobe's entry by hand", e.Path, e.Pos, e.Msg)
}

// errUnchanged is returned by an edit when the file already says what it
// should.
var errNotEditable = errors.New("not editable")

// plain turns a value into what a JSON or TOML decoder gives back, so the
// two can be compared.
func plain(v any) any {
	switch v := v.(type) {
	case []field:
		m := map[string]any{}
		for _, f := range v {
			m[f.key] = plain(f.val)
		}
		return m
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.Decode(&out)
	return normalize(out)
}

// normalize makes decoded numbers comparable across decoders.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = normalize(x)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case json.Number:
		return v.String()
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return v
}

func sameValue(got, want any) bool {
	return reflect.DeepEqual(normalize(got), plain(want))
}

// lookup walks nested maps.
func lookup(doc map[string]any, path []string) (any, bool) {
	var cur any = doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// entryCurrent says whether the decoded entry has every field of want.
func entryCurrent(doc map[string]any, path []string, want []field) bool {
	v, ok := lookup(doc, path)
	if !ok {
		return false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, f := range want {
		if got, ok := m[f.key]; !ok || !sameValue(got, f.val) {
			return false
		}
	}
	return true
}

// without returns a deep copy of doc with the entry at path removed and
// containers it leaves empty pruned, so a document before and after
// strobe's edit can be compared for "nothing else changed".
func without(doc map[string]any, path []string) map[string]any {
	c := copyMap(doc)
	var prune func(m map[string]any, path []string)
	prune = func(m map[string]any, path []string) {
		if len(path) == 1 {
			delete(m, path[0])
			return
		}
		sub, ok := m[path[0]].(map[string]any)
		if !ok {
			return
		}
		prune(sub, path[1:])
		if len(sub) == 0 {
			delete(m, path[0])
		}
	}
	prune(c, path)
	return c
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = copyMap(sub)
		}
		out[k] = v
	}
	return out
}

func sameRest(before, after map[string]any, path []string) bool {
	return reflect.DeepEqual(normalize(without(before, path)), normalize(without(after, path)))
}

// lineStart is the offset of the first byte of the line holding off.
func lineStart(b []byte, off int) int {
	return bytes.LastIndexByte(b[:off], '\n') + 1
}

// lineEnd is the offset just after the newline ending the line holding
// off (or the end of b).
func lineEnd(b []byte, off int) int {
	if i := bytes.IndexByte(b[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(b)
}

// blankBefore says whether only spaces and tabs precede off on its line.
func blankBefore(b []byte, off int) bool {
	return strings.Trim(string(b[lineStart(b, off):off]), " \t") == ""
}

// blankAfter says whether only spaces, tabs and a CR follow off on its line.
func blankAfter(b []byte, off int) bool {
	return strings.Trim(string(b[off:lineEnd(b, off)]), " \t\r\n") == ""
}

// newline is the file's line end: CRLF when its first line ends so.
func newline(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// splice replaces b[from:to] with s.
func splice(b []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(s))
	out = append(out, b[:from]...)
	out = append(out, s...)
	return append(out, b[to:]...)
}
