package stuck

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pyFakeStacker answers loop samples of a busy Python process: its Python
// frames (unless native only) and its native frames, each the same every
// time or changing.
type pyFakeStacker struct {
	calls                     int
	pyChanging, nativeChanges bool
	nativeOnly                bool
}

func (s *pyFakeStacker) Stacks(_ context.Context, pid int, _ string, opt Opts) Capture {
	s.calls++
	native := []Stack{{TID: 10, Frames: []Frame{{Func: "_PyEval_EvalFrameDefault"}, {Func: "Py_RunMain"}}}}
	if s.nativeChanges {
		native[0].Frames = append([]Frame{{Func: "c_helper_" + strconv.Itoa(s.calls%5)}}, native[0].Frames...)
	}
	if s.nativeOnly {
		return Capture{PID: pid, Tool: "eu-stack", Stacks: native, Reason: "no Python frames: install py-spy"}
	}
	py := []Frame{{Func: "spin", File: "/p/t.py", Line: 4}, {Func: "<module>", File: "/p/t.py", Line: 9}}
	if s.pyChanging {
		// A recursion: the depth moves.
		for range s.calls % 4 {
			py = append([]Frame{{Func: "fib", File: "/p/t.py", Line: 2}}, py...)
		}
	}
	c := Capture{PID: pid, Tool: ToolFaulthandler, Stacks: []Stack{{Name: "Current thread 0x1", Frames: py}}}
	if opt.Native {
		c.native = native
	}
	return c
}

// TestPythonLoopRules: a Python process is called an endless loop only
// when both its Python frames and its native frames stay the same; with
// native frames alone (no faulthandler, no py-spy) it gets no verdict.
func TestPythonLoopRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stacker *pyFakeStacker
		want    Kind
		warning string
	}{
		{"spin", &pyFakeStacker{}, EndlessLoop, ""},
		{"recursion", &pyFakeStacker{pyChanging: true}, "", "identical stack samples"},
		{"sieve", &pyFakeStacker{nativeChanges: true}, "", "identical stack samples"},
		{"native only", &pyFakeStacker{nativeOnly: true}, "", "no verdict without Python frames (no Python frames: install py-spy)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: start}
			p := ProcSample{ProcKey: ProcKey{PID: 7, Start: 1}, Name: "python3", Exe: "/usr/bin/python3.11"}
			view := &fakeView{clock: clock, procs: func(step int) []ProcSample {
				q := p
				q.Threads = []ThreadSample{thread(10, 'R', running, uint64(step)*uint64(DefaultTick), uint64(step))}
				return []ProcSample{q}
			}}
			d := New(Config{Root: 7, View: view, Clock: clock, Stacker: tc.stacker, LastOutput: func() time.Time { return start }})
			var v *Verdict
			for clock.t.Sub(start) <= 10*time.Second && v == nil {
				v = d.Step(context.Background())
				clock.t = clock.t.Add(DefaultTick)
			}
			switch {
			case tc.want == "" && v != nil:
				t.Fatalf("verdict %s: %s", v.Kind, v.Diagnosis)
			case tc.want != "" && (v == nil || v.Kind != tc.want):
				t.Fatalf("verdict %+v, want %s", v, tc.want)
			case tc.want == "" && !strings.Contains(d.Warning(), tc.warning):
				t.Errorf("warning %q, want it to say %q", d.Warning(), tc.warning)
			}
			if v != nil && !IsPythonCapture(v.Stacks) {
				t.Errorf("the verdict's stacks are %s, want Python frames", v.Stacks.Tool)
			}
		})
	}
}
