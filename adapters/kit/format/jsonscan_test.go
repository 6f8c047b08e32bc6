package format

import (
	"strings"
	"testing"
)

// TestJSONWhole reads flat objects of strings and numbers member by
// member, and declines what the hand decoders leave to encoding/json.
func TestJSONWhole(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want string // the members read, "key=value;"
	}{
		{`{}`, true, ""},
		{` { } `, true, ""},
		{`{"a":"x","b":12}`, true, "a=x;b=12;"},
		{"{ \"a\" : \"x\\ny\" ,\t\"b\": -1.5e3 }\r\n", true, "a=x\ny;b=-1.5e3;"},
		{`{"a":"x"} {}`, false, ""},      // more after the object
		{`{"a":"x",}`, false, ""},        // a trailing comma
		{`{"a" "x"}`, false, ""},         // no colon
		{`{"a":"x"`, false, ""},          // cut short
		{`{"a":true}`, false, ""},        // a literal: member declines
		{`{"a":{"b":1}}`, false, ""},     // a nested object: member declines
		{`["a"]`, false, ""},             // not an object
		{`{"a":"x" "b":"y"}`, false, ""}, // no comma
	} {
		var got strings.Builder
		var buf []byte
		b := []byte(tc.in)
		ok := JSONWhole(b, &buf, func(key []byte, i int) (int, bool) {
			got.WriteString(string(key) + "=")
			if b[i] == '"' {
				v, n, ok := JSONString(b, i, &buf)
				got.WriteString(string(v) + ";")
				return n, ok
			}
			n := JSONNumber(b, i)
			got.WriteString(string(b[i:n]) + ";")
			return n, n != i
		})
		if ok != tc.ok || ok && got.String() != tc.want {
			t.Errorf("JSONWhole(%q) = %v, read %q; want %v, %q", tc.in, ok, got.String(), tc.ok, tc.want)
		}
	}
}
