package format

import (
	"reflect"
	"testing"
)

// dump is a SIGQUIT dump as Go 1.23 prints it (gp=/m= in the header), with
// a created-by frame and an elided-frames note.
const dump = "SIGQUIT: quit\nPC=0x472181 m=0 sigcode=0\n\n" +
	"goroutine 1 gp=0xc000002380 m=0 mp=0x5d6a40 [chan receive, 2 minutes]:\n" +
	"testing.(*T).Run(0xc0000076c0, {0x5a1b2c, 0x8}, 0x5b0c18)\n" +
	"\t/usr/local/go/src/testing/testing.go:1751 +0x3ab\n" +
	"main.main()\n" +
	"\t_testmain.go:45 +0x9b\n\n" +
	"goroutine 7 [sync.Mutex.Lock]:\n" +
	"example.com/bank.(*Ledger).Transfer(...)\n" +
	"\t/src/bank/ledger.go:23\n" +
	"...additional frames elided...\n" +
	"created by testing.(*T).Run in goroutine 1\n" +
	"\t/usr/local/go/src/testing/testing.go:1743 +0x390\n"

func TestParseGoroutines(t *testing.T) {
	want := []Goroutine{
		{ID: 1, State: "chan receive, 2 minutes", Frames: []GoFrame{
			{Func: "testing.(*T).Run", File: "/usr/local/go/src/testing/testing.go", Line: 1751},
			{Func: "main.main", File: "_testmain.go", Line: 45},
		}},
		{ID: 7, State: "sync.Mutex.Lock", Frames: []GoFrame{
			{Func: "example.com/bank.(*Ledger).Transfer", File: "/src/bank/ledger.go", Line: 23},
		}},
	}
	if got := ParseGoroutines(dump); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseGoroutines:\n got %+v\nwant %+v", got, want)
	}
}

func TestGoTraceLines(t *testing.T) {
	for _, tc := range []struct {
		line   string
		header bool
		file   string
		n      int
	}{
		{"goroutine 18 [running]:", true, "", 0},
		{"goroutine 18 gp=0x1 m=0 [running]:", true, "", 0},
		{"goroutine 18 [running]", false, "", 0},
		{"\t/src/x_test.go:12 +0x1d", false, "/src/x_test.go", 12},
		{"\tC:/src/x_test.go:12", false, "C:/src/x_test.go", 12},
		{"/src/x_test.go:12", false, "", 0},
	} {
		if _, _, ok := GoroutineHeader(tc.line); ok != tc.header {
			t.Errorf("GoroutineHeader(%q) = %v", tc.line, ok)
		}
		file, n, _ := GoFrameFile(tc.line)
		if file != tc.file || n != tc.n {
			t.Errorf("GoFrameFile(%q) = %q, %d", tc.line, file, n)
		}
	}
}
