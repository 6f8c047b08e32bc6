package python

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

var eventLines = []string{
	`{"ev":"hello","pid":14613,"version":"9.2.0"}`,
	`{"ev":"start","id":"tests/t.py::test_p[a\"b-\u00e9]","file":"tests/t.py","line":18}`,
	`{"ev":"end","id":"t.py::x","status":"failed","dur":0.00041,"when":"call","msg":"assert 8 == 9\n +  where 8 = double(4)","type":"AssertionError","file":"t.py","line":15,"out":"hi\n"}`,
	`{"ev":"end","id":"t.py::w","status":"failed","msg":"assert 1 == 2","traces":["calc.tokens.parse_int","calc.evaluate.evaluate"]}`,
	`{"ev":"end","id":"t.py::v","status":"failed","msg":"no","file":"conftest.py","line":4,"call":"t.py:9 (test_v)"}`,
	`{"ev":"end","id":"t.py::r","status":"passed","attempts":2,"first":{"status":"error","when":"setup","type":"ConnectionError","msg":"down","file":"t.py","line":3}}`,
	`{"ev":"end","id":"t.py::s","status":"failed","timeout":0.5}`,
	`{"ev":"end","id":"t.py::u","status":"failed","msg":"(n=0) 0 != 1","later":[{"status":"failed","sub":"(n=1) ","msg":"1 != 2","file":"t.py","line":7},{"status":"error","when":"teardown","type":"OSError","msg":"x","file":"t.py","line":9}],"later_omitted":3}`,
	`{"ev":"end","id":"t.py::u","status":"failed","msg":"x","later_omitted":3,"sub":"(n=1) "}`,
	`{"ev":"end","id":"t.py::t","status":"failed","timeout":2.0,"stack":["f (t.py:3)"],"args":["--hypothesis-seed=1"]}`,
	`{"ev":"end","id":"t.py::y","status":"failed","file":null,"line":null,"msg":"[XPASS(strict)] x"}`,
	`{"ev":"end","id":"t.py::z","status":"skipped","dur":1e-4,"reason":"slow","extra":{"a":[1,2]}}`,
	` { "ev" : "done" , "exit" : 1 } `,
	`{"ev":"collect_error","id":"t.py","file":"t.py","line":2,"msg":"SyntaxError: \ud83d\ude00"}`,
	`{}`,
}

// TestDecodeAgreesWithEncodingJSON: the hand decoder reads what
// encoding/json reads, or declines and lets it.
func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, l := range eventLines {
		var got, want Event
		if err := Decode([]byte(l), &got); err != nil {
			t.Errorf("Decode(%s): %v", l, err)
		}
		if err := json.Unmarshal([]byte(l), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%s) = %+v, want %+v", l, got, want)
		}
	}
	for _, bad := range []string{`{"ev":`, `not json`, `{"line":"x"}`, `[1]`} {
		var e Event
		if Decode([]byte(bad), &e) == nil {
			t.Errorf("Decode(%s) accepted: %+v", bad, e)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, l := range eventLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var hand, std Event
		if !decodeFlat(b, &hand) {
			return
		}
		if err := json.Unmarshal(b, &std); err != nil {
			t.Fatalf("hand decoder accepted what encoding/json refuses (%v): %q", err, b)
		}
		if !reflect.DeepEqual(hand, std) {
			t.Fatalf("hand %+v, encoding/json %+v for %q", hand, std, b)
		}
	})
}

// TestMapper records a stream of events: starts while they run, failures
// with their location, message, rerun and output, errors outside the
// test, skips and xfails with reasons, collection errors.
func TestMapper(t *testing.T) {
	rec := adapters.NewRecorder()
	m := &Mapper{Rec: rec, Rerun: func(id string) string { return "rerun " + id }}
	var e Event
	for _, l := range []string{
		`{"ev":"hello","pid":1,"version":"9"}`,
		`{"ev":"start","id":"a","file":"t.py","line":3}`,
		`{"ev":"start","id":"b","file":"t.py","line":9}`,
	} {
		m.Line([]byte(l), &e)
	}
	if got := rec.Running(""); strings.Join(got, ",") != "a,b" {
		t.Errorf("running %q", got)
	}
	for _, l := range []string{
		`{"ev":"end","id":"a","status":"failed","when":"call","type":"ValueError","msg":"bad","file":"t.py","line":4,"out":"printed\n"}`,
		`{"ev":"end","id":"b","status":"error","when":"setup","msg":"[XPASS(strict)]","also":"error in teardown: boom"}`,
		`{"ev":"start","id":"c","file":"t.py","line":12}`,
		`{"ev":"end","id":"c","status":"xfailed","reason":"bug 12"}`,
		`{"ev":"end","id":"d","status":"skipped","reason":"no GPU"}`,
		`{"ev":"end","id":"e","status":"xpassed","reason":"fixed"}`,
		`{"ev":"collect_error","file":"u.py","line":2,"msg":"SyntaxError"}`,
		// Another test module that imports u.py: the same error, said once.
		`{"ev":"collect_error","file":"u.py","line":2,"msg":"SyntaxError"}`,
		`not an event`,
		`{"ev":"done","exit":1}`,
	} {
		m.Line([]byte(l), &e)
	}
	st := m.State()
	if !st.Hello || !st.Done || st.Exit != 1 || st.Unreadable != 1 || len(st.CollectErrors) != 1 || st.CollectErrors[0] != (report.BuildError{File: "u.py", Line: 2, Message: "SyntaxError"}) {
		t.Errorf("state %+v", st)
	}
	adapterstest.Golden(t, "mapper", adapterstest.Normalise(rec, adapters.Outcome{}, nil))
}

// TestRead reads a file of events with a partial last line and a line too
// long to be an event.
func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	long := `{"ev":"end","id":"long","status":"passed","out":"` + strings.Repeat("x", maxEvent) + `"}`
	os.WriteFile(path, []byte(`{"ev":"start","id":"a"}`+"\n"+long+"\n"+`{"ev":"end","id":"a","status":"passed"}`+"\n"+`{"ev":"start","id":"b"`), 0o600)
	rec := adapters.NewRecorder()
	m := &Mapper{Rec: rec}
	s := Follow(path, m)
	s.Stop()
	if got := rec.Tests(); len(got) != 1 || got[0].Name != "a" || got[0].Status != report.TestPassed {
		t.Errorf("tests %+v", got)
	}
	if st := m.State(); st.Unreadable != 1 {
		t.Errorf("unreadable %d, want the cut last line", st.Unreadable)
	}
}
