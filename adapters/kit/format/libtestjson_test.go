package format

import (
	"encoding/json"
	"reflect"
	"testing"
)

// libtestDecoderCases are libtest's events and lines that only look like
// them; fast says whether DecodeLibtestEvent must take them.
var libtestDecoderCases = []struct {
	name string
	line string
	fast bool
}{
	{"suite started", `{ "type": "suite", "event": "started", "test_count": 3 }`, true},
	{"test started", `{ "type": "test", "event": "started", "name": "tests::adds" }`, true},
	{"test ok with exec_time", `{ "type": "test", "name": "tests::adds", "event": "ok", "exec_time": 0.000123 }`, true},
	{"exec_time as an older string", `{ "type": "test", "name": "t", "event": "ok", "exec_time": "0.001s" }`, true},
	{"exec_time exponent", `{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 9.24e-5 }`, true},
	{"suite failed with totals", `{ "type": "suite", "event": "failed", "passed": 1501, "failed": 2, "allowed_fail": 0, "ignored": 4, "measured": 0, "filtered_out": 0, "exec_time": 1.5 }`, true},
	{"failed with stdout", `{ "type": "test", "name": "tests::fails", "event": "failed", "stdout": "\nthread 'tests::fails' panicked at src/lib.rs:9:9:\nassertion ` + "`left == right`" + ` failed\n  left: 1\n right: 2\nnote: run with ` + "`RUST_BACKTRACE=1`" + `\n" }`, true},
	{"failed in stderr", `{ "type": "test", "name": "t", "event": "failed", "stderr": "boom\n" }`, true},
	{"ignored with a message", `{ "type": "test", "name": "t", "event": "ignored", "message": "slow \"one\"" }`, true},
	{"timeout", `{ "type": "test", "event": "timeout", "name": "t" }`, true},
	{"report", `{ "type": "report", "total_time": 0.225519393, "compilation_time": 0.162774902 }`, true},
	{"bench", `{ "type": "bench", "name": "b", "median": 1, "deviation": 0 }`, false},
	{"unknown type and event", `{ "type": "future", "event": "thing", "name": "t" }`, true},
	{"escaped tab in a name", `{ "type": "test", "event": "ok", "name": "src\tests\\lib.rs" }`, true},
	{"html and unicode escapes", `{ "type": "test", "event": "failed", "name": "t", "stdout": "\u003cnil\u003e \u0026 \u001b[31m \ud83d\ude00 \/ \b\f\r" }`, true},
	{"raw utf-8", `{ "type": "test", "event": "ok", "name": "tests::héllo_世界" }`, true},
	{"negative count", `{ "type": "suite", "event": "started", "test_count": -0 }`, true},
	{"duplicate key, last wins", `{ "type": "test", "event": "started", "event": "ok", "name": "t", "exec_time": 1, "exec_time": "2s" }`, true},
	{"escaped key", `{ "type": "test", "ev\u0065nt": "ok", "name": "t" }`, true},
	{"compact spacing", "{ \"type\": \"test\",\"event\":\"ok\" ,\t\"name\" :\"t\"\r\n}\n", true},

	{"nextest started, compact", `{"type":"test","event":"started","name":"ntdemo::integration$panics"}`, true},
	{"nextest ok after a retry", `{"type":"test","event":"ok","name":"ntdemo::integration$flaky#2","exec_time":0.005626301}`, true},
	{"nextest timeout reason", `{"type":"test","event":"failed","name":"ntdemo::integration$deadlock","exec_time":2.003539341,"reason":"time limit exceeded"}`, false},
	{"nextest suite object", `{"type":"suite","event":"started","test_count":3,"nextest":{"crate":"ntdemo","test_binary":"ntdemo","kind":"lib"}}`, false},

	{"cargo message", `{"reason":"build-finished","success":true}`, false},
	{"cargo key after the type", `{ "type": "test", "event": "ok", "name": "t", "reason": "compiler-artifact" }`, false},
	{"unknown key", `{ "type": "test", "event": "ok", "name": "t", "extra": "x" }`, false},
	{"key in another case", `{ "type": "test", "Event": "ok", "name": "t" }`, false},
	{"kelvin sign folds to k", `{ "type": "test", "event": "ok", "name": "t", "un` + "\u212a" + `nown": 1 }`, false},
	{"null value", `{ "type": "test", "event": "ok", "name": null }`, false},
	{"null exec_time", `{ "type": "test", "event": "ok", "name": "t", "exec_time": null }`, false},
	{"bool value", `{ "type": "test", "event": "ok", "name": "t", "exec_time": true }`, false},
	{"nested message", `{ "type": "test", "event": "ok", "name": "t", "message": {"a": 1} }`, false},
	{"array", `{ "type": "test", "event": "ok", "name": ["t"] }`, false},
	{"number where a string belongs", `{ "type": "test", "event": "ok", "name": 7 }`, false},
	{"string where a count belongs", `{ "type": "suite", "event": "started", "test_count": "3" }`, false},
	{"fraction in a count", `{ "type": "suite", "event": "started", "test_count": 3.0 }`, false},
	{"exponent in a count", `{ "type": "suite", "event": "started", "test_count": 3e2 }`, false},
	{"count overflowing int", `{ "type": "suite", "event": "started", "test_count": 99999999999999999999 }`, false},
	{"string in a skipped total", `{ "type": "suite", "event": "ok", "measured": "0" }`, false},
	{"invalid utf-8", "{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"\xff\xfe\" }", false},
	{"invalid utf-8 in exec_time", "{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"t\", \"exec_time\": \"\xff\" }", false},
	{"invalid utf-8 with an escape", "{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"t\", \"stdout\": \"\\n\xff\" }", false},
	{"lone surrogate", `{ "type": "test", "event": "ok", "name": "\ud83d x" }`, false},
	{"bad escape", `{ "type": "test", "event": "ok", "name": "src\lib.rs - f (line 4)" }`, false},
	{"raw control character", "{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"a\tb\" }", false},
	{"leading zero", `{ "type": "suite", "event": "started", "test_count": 01 }`, false},
	{"plus sign", `{ "type": "suite", "event": "started", "test_count": +1 }`, false},
	{"bare dot", `{ "type": "test", "event": "ok", "name": "t", "exec_time": 1. }`, false},
	{"trailing text", `{ "type": "test", "event": "ok", "name": "t" } trailing`, false},
	{"cut", `{ "type": "test", "name": "floods", "event": "failed", "stdout": "xxxxxxxx`, false},
	{"trailing comma", `{ "type": "test", "event": "ok", }`, false},
	{"missing colon", `{ "type": "test", "event" "ok" }`, false},
	{"no closing brace", `{ "type": "test", "event": "ok"`, false},
	{"not libtest's start", `{"event":"ok","type":"test","name":"t"}`, false},
	{"text", `{ "type": "x" this is a test's own output }`, false},
}

// TestDecodeLibtestEvent: the hand-written decoder takes libtest's own
// events and leaves everything else to encoding/json; what it takes it
// decodes as json.Unmarshal does.
func TestDecodeLibtestEvent(t *testing.T) {
	for _, tc := range libtestDecoderCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkLibtestDecoder(t, []byte(tc.line)); got != tc.fast {
				t.Errorf("fast path took it: %v, want %v", got, tc.fast)
			}
		})
	}
}

// FuzzDecodeLibtestEvent: whatever the line, what the decoder takes it
// decodes as encoding/json does.
func FuzzDecodeLibtestEvent(f *testing.F) {
	for _, tc := range libtestDecoderCases {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkLibtestDecoder(t, line)
	})
}

// checkLibtestDecoder says whether DecodeLibtestEvent took the line, and
// fails t when it took one that json.Unmarshal rejects or reads otherwise,
// or when it left a nonzero event behind.
func checkLibtestDecoder(t *testing.T, line []byte) bool {
	t.Helper()
	var got LibtestEvent
	fast := DecodeLibtestEvent(line, &got)
	if !fast {
		if !reflect.DeepEqual(got, LibtestEvent{}) {
			t.Fatalf("DecodeLibtestEvent(%q) declined but left %+v", line, got)
		}
		return false
	}
	var want LibtestEvent
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatalf("DecodeLibtestEvent(%q) took a line encoding/json rejects: %v", line, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeLibtestEvent(%q) = %+v, encoding/json: %+v", line, got, want)
	}
	return true
}
