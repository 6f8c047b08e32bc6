package jest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDecodeEvent: the hand decoder reads every recorded line as
// encoding/json does, and lines it does not expect still decode.
func TestDecodeEvent(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "recorded", "*.jsonl"))
	var lines [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(bytes.TrimSpace(b), []byte("\n"))...)
	}
	lines = append(lines,
		[]byte(`{"ev":"end","file":"/p/a.test.js","name":"caf\u00e9 \"q\" › x","status":"failed","ms":1.5,"msg":"a\nb","at":{"file":"/p/a.test.js","line":3,"col":7}}`),
		[]byte(`{"ev":"suite","file":"/p/b.test.js","msg":"x","at":null}`),
		[]byte(`{"ev":"end","extra":[1,2],"name":"n"}`), // unknown key: encoding/json
		[]byte(`{"ev":"done","passed":1e2,"interrupted":true}`),
	)
	for _, l := range lines {
		var want, got event
		var buf []byte
		if err := json.Unmarshal(l, &want); err != nil {
			if decodeEvent(l, &got, &buf) {
				t.Errorf("decodeEvent(%s) read what encoding/json refuses (%v)", l, err)
			}
			continue
		}
		if !decodeEvent(l, &got, &buf) || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeEvent(%s) = %+v, want %+v", l, got, want)
		}
	}
	var ev event
	var buf []byte
	if decodeEvent([]byte(`{"ev":"end",`), &ev, &buf) {
		t.Error("a cut line decoded")
	}
}
