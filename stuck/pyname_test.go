package stuck

import (
	"path/filepath"
	"slices"
	"testing"

	"strobe/adapters/adapterstest"
)

// pyProject writes a src-layout package beside a test file without one:
// src/calc/__init__.py, src/calc/tokens.py and tests/test_calc.py.
func pyProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"src/calc/__init__.py": "from .tokens import parse_int\n",
		"src/calc/tokens.py": `"""Tokens."""
import threading

LOCK = threading.Lock()


def parse_int(text):
    with LOCK:
        with LOCK:  # line 9
            return int(text)


class Stack:
    """A stack."""

    def push(self, x):
        while True:  # line 17
            pass

    class Inner:
        if True:
            async def drain(self):
                await self.done  # line 23


def outer():
    def inner():
        return 1  # line 28
    return inner()


class Doc:
    def first(self):
        s = """
text at the margin
"""
        return s  # line 37


class Margin:
    """A doc with a line
at the margin."""

    def method(self):
        return 1  # line 45
`,
		"tests/test_calc.py": "def helper():\n    return 1\n",
	}
	adapterstest.WriteFiles(t, root, files)
	return root
}

// TestPyTraceName: a stuck Python test's frames are suggested as a trace
// pattern names them, module and qualified name (the tracer matches
// __name__ and co_qualname), not as the bare names the dumps give, which
// match a function of that name in every module. Where the name cannot be
// told for sure, the bare name stays.
func TestPyTraceName(t *testing.T) {
	root := pyProject(t)
	tokens := filepath.Join(root, "src/calc/tokens.py")
	p := newPyNames(root)
	for _, tc := range []struct {
		frame Frame
		want  string
	}{
		{Frame{Func: "parse_int", File: tokens, Line: 9}, "calc.tokens.parse_int"},
		{Frame{Func: "push", File: tokens, Line: 17}, "calc.tokens.Stack.push"},
		{Frame{Func: "Stack.push", File: tokens, Line: 17}, "calc.tokens.Stack.push"}, // py-spy's
		{Frame{Func: "drain", File: tokens, Line: 23}, "calc.tokens.Stack.Inner.drain"},
		{Frame{Func: "helper", File: "tests/test_calc.py", Line: 2}, "test_calc.helper"},
		{Frame{Func: "__init__", File: filepath.Join(root, "src/calc/__init__.py"), Line: 1}, ""},
		{Frame{Func: "inner", File: tokens, Line: 28}, ""},                      // outer.<locals>.inner
		{Frame{Func: "parse_int", File: tokens, Line: 17}, ""},                  // not above: push is
		{Frame{Func: "first", File: tokens, Line: 37}, "calc.tokens.Doc.first"}, // a string at the margin in its body
		{Frame{Func: "method", File: tokens, Line: 45}, ""},                     // one above it
		{Frame{Func: "gone", File: filepath.Join(root, "missing.py"), Line: 3}, ""},
	} {
		if got := p.name(tc.frame); got != tc.want {
			t.Errorf("name(%s at %s:%d) = %q, want %q", tc.frame.Func, filepath.Base(tc.frame.File), tc.frame.Line, got, tc.want)
		}
	}

	c := Capture{Tool: ToolFaulthandler, Stacks: []Stack{{Name: "Current thread", Frames: []Frame{
		{Func: "parse_int", File: tokens, Line: 9},
		{Func: "method", File: tokens, Line: 45},
		{Func: "test_parse", File: filepath.Join(root, "tests/test_calc.py"), Line: 2},
	}}}}
	got := SuggestedTraces(c, root, []string{"tests/test_calc.py::test_parse"})
	if want := []string{"calc.tokens.parse_int", "method"}; !slices.Equal(got, want) {
		t.Errorf("SuggestedTraces = %q, want %q", got, want)
	}
}
