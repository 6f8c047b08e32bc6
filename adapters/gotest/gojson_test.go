package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// goDecoderCases are lines of go test -json's shape and lines that only
// look like it; fast says whether the hand-written path must take them.
var goDecoderCases = []struct {
	name string
	line string
	fast bool
}{
	{"start", `{"Time":"2026-11-23T14:54:41.170869792Z","Action":"start","Package":"example.com/basic/calc"}`, true},
	{"output", `{"Time":"2026-11-23T14:54:41.222210435Z","Action":"output","Package":"example.com/basic/calc","Test":"TestAdd","Output":"=== RUN   TestAdd\n"}`, true},
	{"pass with elapsed", `{"Time":"2026-11-23T14:54:41.224095809Z","Action":"pass","Package":"p","Test":"TestAdd","Elapsed":0.002}`, true},
	{"elapsed forms", `{"Action":"fail","Package":"p","Elapsed":-1.5e+3}`, true},
	{"elapsed zero", `{"Action":"fail","Package":"p","Elapsed":0}`, true},
	{"html and control escapes", `{"Action":"output","Package":"p","Test":"T","Output":"\u003cnil\u003e \u0026 \u001b[31mred\u001b[0m\t\"q\" \\ \/\r\n"}`, true},
	{"surrogate pair", `{"Action":"output","Package":"p","Output":"\ud83d\ude00 ok"}`, true},
	{"raw utf-8", `{"Action":"output","Package":"p","Output":"héllo, 世界\n"}`, true},
	{"build output", `{"ImportPath":"example.com/broken/lib [example.com/broken/lib.test]","Action":"build-output","Output":"# example.com/broken/lib\n"}`, true},
	{"failed build", `{"Action":"fail","Package":"p","Elapsed":0,"FailedBuild":"example.com/broken/lib [example.com/broken/lib.test]"}`, true},
	{"unknown string field", `{"Action":"output","Package":"p","OutputType":"frame","Output":"x\n"}`, true},
	{"spaces", " { \"Action\" : \"run\" ,\t\"Package\" : \"p\" , \"Test\" : \"T\" } \r", true},
	{"empty object", `{}`, true},
	{"duplicate key, last wins", `{"Action":"run","Action":"pass","Package":"p"}`, true},
	{"escaped key", `{"Act\u0069on":"run","Package":"p"}`, true},

	{"key in another case", `{"action":"run","PACKAGE":"p"}`, false},
	{"kelvin sign folds to k", `{"Action":"run","Pac` + "\u212a" + `age":"p"}`, false},
	{"null value", `{"Action":"run","Package":null}`, false},
	{"bool value", `{"Action":"run","Package":"p","Extra":true}`, false},
	{"nested object", `{"Action":"run","Package":"p","Extra":{"a":1}}`, false},
	{"array", `{"Action":"run","Package":"p","Extra":[1,2]}`, false},
	{"number where a string belongs", `{"Action":"run","Package":7}`, false},
	{"string where the number belongs", `{"Action":"pass","Package":"p","Elapsed":"0.1"}`, false},
	{"number in an unknown field", `{"Action":"pass","Package":"p","Count":3}`, false},
	{"invalid utf-8", "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"\xff\xfe\"}", false},
	{"invalid utf-8 with an escape", "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"\\n\xff\"}", false},
	{"lone surrogate", `{"Action":"output","Package":"p","Output":"\ud83d x"}`, false},
	{"leading zero", `{"Action":"pass","Package":"p","Elapsed":01}`, false},
	{"plus sign", `{"Action":"pass","Package":"p","Elapsed":+1}`, false},
	{"bare dot", `{"Action":"pass","Package":"p","Elapsed":1.}`, false},
	{"huge number", `{"Action":"pass","Package":"p","Elapsed":1e999}`, false},
	{"bad escape", `{"Action":"output","Package":"p","Output":"\q"}`, false},
	{"raw control character", "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"a\tb\"}", false},
	{"trailing text", `{"Action":"run","Package":"p"} trailing`, false},
	{"cut", `{"Action":"output","Package":"p","Output":"a long li`, false},
	{"trailing comma", `{"Action":"run","Package":"p",}`, false},
	{"missing colon", `{"Action" "run"}`, false},
	{"not an object", `["Action","run"]`, false},
	{"text", `{ this is a test's own output }`, false},
}

// TestGoDecoder: the hand-written decoder takes go test -json's own shape
// and leaves everything else to encoding/json; either way the event is
// what json.Unmarshal makes of the line.
func TestGoDecoder(t *testing.T) {
	for _, tc := range goDecoderCases {
		t.Run(tc.name, func(t *testing.T) {
			var d goDecoder
			var e goEvent
			if got := d.fast([]byte(tc.line), &e); got != tc.fast {
				t.Errorf("fast path took it: %v, want %v", got, tc.fast)
			}
			checkGoDecoder(t, &d, []byte(tc.line))
		})
	}
}

// TestGoDecoderRecorded: every line of the recorded go test -json output
// decodes as encoding/json decodes it, and every event takes the fast path.
func TestGoDecoderRecorded(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	corpus, _ := filepath.Glob("testdata/corpus/*.jsonl")
	files = append(files, corpus...)
	if len(files) == 0 {
		t.Fatal("no recorded output")
	}
	events := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d goDecoder
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if json.Unmarshal(line, new(goEvent)) == nil {
				events++
				var e goEvent
				if !d.fast(line, &e) {
					t.Errorf("%s: an event of go test -json left the fast path: %s", f, line)
				}
			}
			checkGoDecoder(t, &d, line)
		}
	}
	if events == 0 {
		t.Fatal("no events in the recorded output")
	}
}

// FuzzGoDecoder: whatever the line, the decoder agrees with encoding/json.
func FuzzGoDecoder(f *testing.F) {
	for _, tc := range goDecoderCases {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkGoDecoder(t, &goDecoder{}, line)
	})
}

func checkGoDecoder(t *testing.T, d *goDecoder, line []byte) {
	t.Helper()
	var want, got goEvent
	wantOK := json.Unmarshal(line, &want) == nil
	ok := d.decode(line, &got)
	if ok != wantOK {
		t.Fatalf("decode(%q) ok = %v, encoding/json: %v", line, ok, wantOK)
	}
	if ok && got != want {
		t.Fatalf("decode(%q) = %+v, encoding/json: %+v", line, got, want)
	}
}

// TestGoDecoderAgain: an event whose middle is the last output event's is
// read again from its time and text, and only when the rest of it is
// exactly that middle; every line still decodes as encoding/json decodes
// it, whatever came before.
func TestGoDecoderAgain(t *testing.T) {
	const tmpl = `{"Time":"2026-11-23T14:54:41.222210435Z","Action":"output","Package":"p","Test":"TestA","Output":"first\n"}`
	for _, tc := range []struct {
		name  string
		line  string
		again bool
	}{
		{"same middle", `{"Time":"2026-11-23T14:54:41.3Z","Action":"output","Package":"p","Test":"TestA","Output":"second \u003c\n"}`, true},
		{"a time with an escape", `{"Time":"2026\u002d11","Action":"output","Package":"p","Test":"TestA","Output":"x"}`, true},
		{"an empty output", `{"Time":"","Action":"output","Package":"p","Test":"TestA","Output":""}`, true},
		{"another test", `{"Time":"t","Action":"output","Package":"p","Test":"TestB","Output":"x\n"}`, false},
		{"a space after", `{"Time":"t","Action":"output","Package":"p","Test":"TestA","Output":"x\n"} `, false},
		{"a member after the output", `{"Time":"t","Action":"output","Package":"p","Test":"TestA","Output":"x","Elapsed":1}`, false},
		{"text after the object", `{"Time":"t","Action":"output","Package":"p","Test":"TestA","Output":"x"}}`, false},
		{"a time that is a number", `{"Time":1,"Action":"output","Package":"p","Test":"TestA","Output":"x"}`, false},
		{"an output that is not a string", `{"Time":"t","Action":"output","Package":"p","Test":"TestA","Output":1}`, false},
		{"invalid utf-8", "{\"Time\":\"t\",\"Action\":\"output\",\"Package\":\"p\",\"Test\":\"TestA\",\"Output\":\"\xff\"}", false},
		{"a raw control character", "{\"Time\":\"t\",\"Action\":\"output\",\"Package\":\"p\",\"Test\":\"TestA\",\"Output\":\"a\tb\"}", false},
		{"cut", `{"Time":"t","Action":"output","Package":"p","Test":"TestA","Output":"a lo`, false},
		{"a bad time", `{"Time":"\q","Action":"output","Package":"p","Test":"TestA","Output":"x"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d goDecoder
			checkGoDecoder(t, &d, []byte(tmpl))
			var e goEvent
			if got := d.again([]byte(tc.line), &e); got != tc.again {
				t.Errorf("again took it: %v, want %v", got, tc.again)
			}
			checkGoDecoder(t, &d, []byte(tc.line))
		})
	}
	// A middle with more in it: the elapsed time and a second output
	// member come from the middle; the last output wins.
	var d goDecoder
	checkGoDecoder(t, &d, []byte(`{"Time":"a","Action":"output","Elapsed":2.5,"Output":"dup","Package":"q","Output":"one"}`))
	line := []byte(`{"Time":"b","Action":"output","Elapsed":2.5,"Output":"dup","Package":"q","Output":"two"}`)
	var e goEvent
	if !d.again(line, &e) || e.Output != "two" || e.Elapsed != 2.5 || e.Package != "q" {
		t.Errorf("again: %+v", e)
	}
	checkGoDecoder(t, &d, line)
}

// FuzzGoDecoderLines: lines decoded one after another by one decoder (the
// middle of one event is looked for in the next) agree with encoding/json.
func FuzzGoDecoderLines(f *testing.F) {
	for i, tc := range goDecoderCases {
		f.Add([]byte(tc.line + "\n" + goDecoderCases[(i+1)%len(goDecoderCases)].line))
	}
	f.Add([]byte(`{"Time":"a","Action":"output","Package":"p","Test":"T","Output":"x\n"}` + "\n" +
		`{"Time":"b","Action":"output","Package":"p","Test":"T","Output":"y\n"}` + "\n" +
		`{"Time":"c","Action":"output","Package":"p","Test":"T","Output":"z"} ` + "\n" +
		`{"Time":"d","Action":"pass","Package":"p","Test":"T","Elapsed":0.01}`))
	corpus, _ := filepath.Glob("testdata/corpus/*.jsonl")
	for _, c := range corpus {
		if b, err := os.ReadFile(c); err == nil {
			f.Add(b[:min(len(b), 4096)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d goDecoder
		for _, line := range bytes.Split(data, []byte("\n")) {
			checkGoDecoder(t, &d, line)
		}
	})
}
