package gotest

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"strobe/trace"
)

// A reflect.Value argument as Delve 1.27.2 sends it (recorded from go-cmp's
// value.isLess): its ptr field is an unsafe.Pointer whose address is in the
// child, not in Base, and was rendered 0x0 for every value.
func TestRenderUnsafePointerAddress(t *testing.T) {
	data, err := os.ReadFile("testdata/delve/reflect_value.json")
	if err != nil {
		t.Fatal(err)
	}
	var v dlvVariable
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	r := newValueRenderer(&trace.Spec{})
	got := r.value("x", &v).Value
	want := "reflect.Value{typ_: &abi.Type{…}, ptr: unsafe.Pointer(0xc000012345), flag: 162}"
	if got != want {
		t.Errorf("rendered\n%s\nwant\n%s", got, want)
	}
	nilPtr := dlvVariable{Kind: 26, Type: "unsafe.Pointer"}
	if got := r.value("p", &nilPtr).Value; got != "unsafe.Pointer(nil)" {
		t.Errorf("nil unsafe.Pointer rendered %s", got)
	}
}

// Slices of bytes as Delve sends them (its uint8 elements carry
// reflect.Uint's kind): text, a named type, a slice deeper than Delve
// loaded, an empty one and a nil one.
func TestRenderBytes(t *testing.T) {
	bytesOf := func(typ string, s string, n int64) dlvVariable {
		v := dlvVariable{Kind: 23, Type: typ, Len: n, Cap: n, Base: 0xc000010000}
		for _, c := range []byte(s) {
			v.Children = append(v.Children, dlvVariable{Kind: 7, Type: "uint8", Value: strconv.Itoa(int(c))})
		}
		return v
	}
	r := newValueRenderer(&trace.Spec{})
	deep := bytesOf("[]uint8", "", 40)
	empty := bytesOf("[]uint8", "", 0)
	nilSlice := dlvVariable{Kind: 23, Type: "[]uint8"}
	for _, c := range []struct {
		v    dlvVariable
		want string
	}{
		{bytesOf("[]uint8", "GET / HTTP/1.1\r\n", 16), `[]byte("GET / HTTP/1.1\r\n")`},
		{bytesOf("encoding/json.RawMessage", `{"a":1`, 8), `json.RawMessage("{\"a\":1"…(8 bytes))`},
		{deep, `[]byte(…40 bytes)`},
		{empty, `[]byte("")`},
		{nilSlice, `nil`},
	} {
		if got := r.value("b", &c.v).Value; got != c.want {
			t.Errorf("rendered %s, want %s", got, c.want)
		}
	}
}
