package format

import (
	"encoding/json"
	"testing"
	"time"
)

func TestLibtestEvent(t *testing.T) {
	var e LibtestEvent
	if err := json.Unmarshal([]byte(`{ "type": "test", "name": "tests::adds", "event": "ok", "exec_time": 0.25 }`), &e); err != nil {
		t.Fatal(err)
	}
	if e.Type != "test" || e.Event != "ok" || e.Name != "tests::adds" || e.Duration() != 250*time.Millisecond {
		t.Errorf("%+v, %v", e, e.Duration())
	}
	old := LibtestEvent{ExecTime: json.RawMessage(`"0.001s"`)}
	if d := old.Duration(); d != time.Millisecond {
		t.Errorf("an older nightly's exec_time: %v", d)
	}
}

// TestLenientLibtestEvent: rust-lang/rust#76151, a name written unescaped.
func TestLenientLibtestEvent(t *testing.T) {
	line := []byte(`{ "type": "test", "event": "ok", "name": "src\tests\lib.rs - func (line 47)" }`)
	e, ok := LenientLibtestEvent(line)
	if !ok || e.Name != `src\tests\lib.rs - func (line 47)` || e.Event != "ok" {
		t.Errorf("%+v %v", e, ok)
	}
	if _, ok := LenientLibtestEvent([]byte(`{"reason":"build-finished","success":true}`)); ok {
		t.Error("read cargo's message as a libtest event")
	}
}

// TestRecoverLibtestEvent: the head of a line the runner cut still names
// the test, and the end gives the panic.
func TestRecoverLibtestEvent(t *testing.T) {
	e, ok := RecoverLibtestEvent([]byte(`{ "type": "test", "name": "floods", "event": "failed", "stdout": "xxxxxxxx`))
	if !ok || e.Name != "floods" || e.Event != "failed" {
		t.Errorf("%+v %v", e, ok)
	}
	if got := LibtestOutputEnd([]byte(`xxxx\nthread 'floods' panicked at src/lib.rs:3:5:\nboom\n" }`)); got != "\nthread 'floods' panicked at src/lib.rs:3:5:\nboom\n" {
		t.Errorf("LibtestOutputEnd = %q", got)
	}
}
