package node

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit"
	"strobe/report"
)

// offline is Events over a reader instead of a tailed file.
func offline(rec *adapters.Recorder, cfg EventsConfig) *Events {
	done := make(chan struct{})
	close(done)
	return &Events{cfg: cfg, rec: rec, tail: kit.NewTailFile(filepath.Join(os.TempDir(), "strobe-node-none")), decoded: done}
}

var sampleLines = []string{
	`{"e":"begin","node":"v20.20.2"}`,
	`{"e":"start","file":"/p/test/a.test.js","name":"math › adds","line":4}`,
	`{"e":"end","file":"/p/test/a.test.js","name":"math › adds","line":4,"ms":1.25,"status":"passed"}`,
	`{"e":"end","file":"/p/test/a.test.js","name":"math","line":3,"ms":2,"status":"failed","suite":true,"started":false}`,
	`{"e":"out","file":"/p/test/a.test.js","name":"math › adds","stream":"stdout","text":"caf\u00e9 \"quoted\"\n\ttab"}`,
	`{ "e" : "end" , "name" : "x", "ms" : -1.5e2, "unknown": "y", "n": 3 }`,
	`{"e":"end","name":"x","status":"skipped","reason":"not on linux"}`,
}

// TestDecodeFastAgrees: the hand decoder reads what encoding/json reads,
// and declines what it cannot read the same way.
func TestDecodeFastAgrees(t *testing.T) {
	e := offline(adapters.NewRecorder(), EventsConfig{})
	for _, l := range sampleLines {
		var fast, slow Event
		if !e.decodeFast([]byte(l), &fast) {
			t.Errorf("declined %s", l)
			continue
		}
		if err := json.Unmarshal([]byte(l), &slow); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %+v\njson %+v", l, fast, slow)
		}
	}
	for _, l := range []string{
		`{"e":"end","fail":{"message":"x"}}`,
		`{"e":"file","code":null}`,
		`{"e":"end","name":"x"} trailing`,
		`{"e":"end","name":"\ud800"}`,
		`not json`,
	} {
		var ev Event
		if e.decodeFast([]byte(l), &ev) {
			t.Errorf("read %s: %+v", l, ev)
		}
	}
}

// TestEventsUnreadable: lines that are no event are counted and said.
func TestEventsUnreadable(t *testing.T) {
	rec := adapters.NewRecorder()
	e := offline(rec, EventsConfig{Framework: "node:test", Root: "/p"})
	long := `{"e":"out","name":"x","text":"` + strings.Repeat("y", maxEventLine) + `"}`
	e.Decode(strings.NewReader(strings.Join([]string{sampleLines[0], "garbage", long, sampleLines[2]}, "\n")))
	out := e.Finish(report.Exit{Exited: true, Code: 0})
	if len(out.Indicators) != 1 || !strings.Contains(out.Hint, "2 lines of strobe's node:test reporter could not be read") {
		t.Errorf("outcome %+v", out)
	}
	if tt, ok := adapterstest.TestByName(rec.Tests(), "math › adds"); !ok || tt.Status != report.TestPassed || tt.Suite != "test/a.test.js" {
		t.Errorf("test %+v", tt)
	}
}

// FuzzEvents reads arbitrary bytes as a reporter's event file, finishes
// with an exit the input chooses, and checks the Recorder; the hand
// decoder must agree with encoding/json on whatever it reads.
func FuzzEvents(f *testing.F) {
	f.Add([]byte(strings.Join(sampleLines, "\n")), byte(1), byte(0))
	// mocha --parallel: a worker's word of the tests it runs, and of its exit.
	f.Add([]byte(`{"e":"begin","tests":0}
{"e":"running","file":"{{ROOT}}/test/a.spec.js","name":"a › runs","pid":4242}
{"e":"ran","file":"{{ROOT}}/test/a.spec.js","name":"a › runs"}
{"e":"running","file":"{{ROOT}}/test/a.spec.js","name":"a › exits #2","title":"a › exits","pid":4242}
{"e":"workerExit","pid":4242,"code":0}
{"e":"start","file":"{{ROOT}}/test/a.spec.js","name":"a › runs"}
{"e":"end","file":"{{ROOT}}/test/a.spec.js","name":"a › runs","status":"passed","ms":1}
{"e":"done"}`), byte(1), byte(0))
	for _, dir := range []string{"../../nodetest/testdata/recorded", "../../mocha/testdata/recorded"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, file := range files {
			f.Add(adapterstest.FuzzSeed(f, file), byte(1), byte(0))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, code, flags byte) {
		rec := adapters.NewRecorder()
		e := offline(rec, EventsConfig{Framework: "node:test", Root: "{{ROOT}}", Rerun: func(file, test string) string { return file + " " + test }})
		var out adapters.Outcome
		adapterstest.FuzzRun(t, func() {
			e.Decode(bytes.NewReader(data))
			out = e.Finish(adapterstest.FuzzExit(code, flags))
		})
		adapterstest.FuzzCheck(t, rec, out)
		for _, l := range bytes.Split(data, []byte("\n")) {
			var fast, slow Event
			if e.decodeFast(l, &fast) && json.Unmarshal(l, &slow) == nil && !reflect.DeepEqual(fast, slow) {
				t.Errorf("%q:\nfast %+v\njson %+v", l, fast, slow)
			}
		}
	})
}
