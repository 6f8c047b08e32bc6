package format

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestJSONStringAgainstEncodingJSON reads strings whose one special byte
// (a quote, a backslash escape, a control byte, UTF-8, invalid UTF-8)
// sits at every offset of the first words, so that the eight-byte scan
// meets it in each lane, and compares with encoding/json: the same value,
// or a decline where encoding/json would read the string differently.
func TestJSONStringAgainstEncodingJSON(t *testing.T) {
	specials := []string{`\"`, `\\`, `\n`, `\u00e9`, "\x01", "\x1f", " ", "~", "\x7f", "é", "\xff", `\ud800`}
	for _, sp := range specials {
		for at := range 24 {
			for _, tail := range []int{0, 3, 9} {
				body := strings.Repeat("a", at) + sp + strings.Repeat("b", tail)
				in := []byte(`"` + body + `"x`)
				var buf []byte
				v, next, ok := JSONString(in, 0, &buf)
				var want string
				err := json.Unmarshal(in[:len(in)-1], &want)
				switch {
				case ok && (err != nil || string(v) != want || next != len(in)-1):
					t.Errorf("JSONString(%q) = %q, %d; encoding/json: %q, %v", in, v, next, want, err)
				case !ok && err == nil && utf8.ValidString(body) && !strings.Contains(body, `\ud800`):
					t.Errorf("JSONString(%q) declined a string encoding/json reads as %q", in, want)
				}
			}
		}
	}
}

func BenchmarkJSONString(b *testing.B) {
	in := []byte(`"line 123456 of the print-heavy benchmark test, padded to sixty bytes\n"`)
	var buf []byte
	b.SetBytes(int64(len(in)))
	for range b.N {
		if _, _, ok := JSONString(in, 0, &buf); !ok {
			b.Fatal("declined")
		}
	}
}
