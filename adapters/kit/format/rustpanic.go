package format

import (
	"slices"
	"strconv"
	"strings"
	"strobe/internal/lazyre"
)

var (
	// Rust 1.73+: "thread 't' panicked at src/lib.rs:15:35:" then the message;
	// since 1.88 the thread id follows the name: "thread 't' (1654) panicked at".
	rustPanicAt = lazyre.New(`(?m)^thread '.*?'(?: \([^)\n]*\))? panicked at (.+):(\d+):(\d+):$`)
	// Before 1.73: "thread 't' panicked at 'message', src/lib.rs:3:5", the
	// message possibly over several lines.
	rustPanicAtOld  = lazyre.New(`(?s)thread '[^\n]*?' panicked at '(.*?)', ([^\n]+?):(\d+):(\d+)(?:\n|$)`)
	rustDidNotPanic = lazyre.New(`(?:note: )?test did not panic as expected(?: at (.+?):(\d+):\d+)?`)
	// Where a panic message ends and the backtrace or its advice starts.
	rustPanicEnd = lazyre.New("(?m)^(?:note: run with `RUST_BACKTRACE|stack backtrace:|note: Some details are omitted|thread '.*' panicked at )")
)

// RustPanic finds the first panic in a Rust test's output (cargo test's
// libtest events, rustdoc's failure blocks, cargo-nextest's captured
// output): the file and line as the panic printed them (relative to the
// workspace root, or absolute), and its message without the backtrace,
// unclipped. A test that did not panic as #[should_panic] expected gives
// libtest's own note. All empty when there is no panic.
func RustPanic(out string) (file string, line int, msg string) {
	best := len(out) + 1
	if loc := rustPanicAt.FindStringSubmatchIndex(out); loc != nil {
		best = loc[0]
		file, msg = out[loc[2]:loc[3]], out[loc[1]:]
		line, _ = strconv.Atoi(out[loc[4]:loc[5]])
		if end := rustPanicEnd.FindStringIndex(msg); end != nil {
			msg = msg[:end[0]]
		}
	}
	if loc := rustPanicAtOld.FindStringSubmatchIndex(out); loc != nil && loc[0] < best {
		best = loc[0]
		msg, file = out[loc[2]:loc[3]], out[loc[4]:loc[5]]
		line, _ = strconv.Atoi(out[loc[6]:loc[7]])
	}
	if loc := rustDidNotPanic.FindStringSubmatchIndex(out); loc != nil && loc[0] < best {
		msg, file, line = "test did not panic as expected", "", 0
		if loc[2] >= 0 {
			file = out[loc[2]:loc[3]]
			line, _ = strconv.Atoi(out[loc[4]:loc[5]])
		}
	}
	return file, line, strings.TrimRight(strings.TrimLeft(msg, "\n"), " \n")
}

var (
	// A backtrace frame: "   4: basic::checked_div" then "             at ./src/lib.rs:13:9".
	rustFrame      = lazyre.New(`^\s+\d+: (.+)$`)
	rustFrameAt    = lazyre.New(`^\s+at (.+?):\d+(?::\d+)?$`)
	rustSymbolHash = lazyre.New(`::h[0-9a-f]{16}$`)
)

// RustMaxTraces bounds the functions RustTraces names.
const RustMaxTraces = 5

// RustTraces names the project's functions on a panic's backtrace,
// innermost first, leaving out the test itself and the runtime: the places
// worth tracing on a rerun. inProject says whether a frame's file is the
// project's. The backtrace is there only when RUST_BACKTRACE is set.
func RustTraces(out, test string, inProject func(file string) bool) []string {
	var fns []string
	lines := strings.Split(out, "\n")
	for i := 0; i+1 < len(lines) && len(fns) < RustMaxTraces; i++ {
		fm := rustFrame.FindStringSubmatch(lines[i])
		if fm == nil {
			continue
		}
		at := rustFrameAt.FindStringSubmatch(lines[i+1])
		if at == nil || !inProject(at[1]) {
			continue
		}
		fn := rustSymbolHash.ReplaceAllString(fm[1], "")
		for strings.HasSuffix(fn, "::{{closure}}") {
			fn = strings.TrimSuffix(fn, "::{{closure}}")
		}
		if j := strings.LastIndex(fn, "::<"); j > 0 && strings.HasSuffix(fn, ">") {
			fn = fn[:j] // generic arguments
		}
		if fn == test || strings.HasSuffix(fn, "::"+test) || slices.Contains(fns, fn) || isRustRuntimeFrame(fn) {
			continue
		}
		fns = append(fns, fn)
	}
	return fns
}

// isRustRuntimeFrame tells the standard library and the test harness, which
// old toolchains located with relative paths (src/libstd/panicking.rs).
func isRustRuntimeFrame(fn string) bool {
	fn = strings.TrimPrefix(fn, "<")
	for _, p := range []string{"std::", "core::", "alloc::", "test::", "__rust"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
