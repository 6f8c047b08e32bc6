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

// TestLibtestDuration: the direct read of a number gives what JSON's
// decoding gives, and what JSON rejects (Inf, hexadecimal, underscores)
// stays 0.
func TestLibtestDuration(t *testing.T) {
	for raw, want := range map[string]time.Duration{
		"0.000000336": 336 * time.Nanosecond,
		"1e-3":        time.Millisecond,
		"2.5E+1":      25 * time.Second,
		"-0":          0,
		"12":          12 * time.Second,
		`"0.5s"`:      500 * time.Millisecond,
		"Inf":         0,
		"0x1p4":       0,
		"1_0":         0,
		"1.2.3":       0,
		"null":        0,
		"":            0,
	} {
		e := LibtestEvent{ExecTime: json.RawMessage(raw)}
		if got := e.Duration(); got != want {
			t.Errorf("exec_time %s: %v, want %v", raw, got, want)
		}
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
