package gotest

import (
	"encoding/json"
	"os"
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
