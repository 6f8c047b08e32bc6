package stuck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/internal/lazyre"
	"strobe/report"
)

// maxFrames bounds the frames kept per stack in a report.
const maxFrames = 24

// maxOwnTail bounds the project's own frames a report keeps past the
// innermost ones (shownFrames).
const maxOwnTail = 8

// innerNoise are the frames at the top of a waiting stack that only say
// how the wait is done (libc's futex wrappers, the Go scheduler).
var innerNoise = lazyre.New(`^(__|_?lll_|futex_|syscall$|__?pthread_|___pthread|pthread_cond_|pthread_join|pthread_mutex_|std::sys::|core::panicking|runtime\.(gopark|goparkunlock|semacquire|notetsleep|futexsleep|futex|park_m|schedule|mcall|systemstack|selectgo|chanrecv|chansend|block|netpollblock|usleep|epollwait|netpoll)|internal/sync\.runtime_|sync\.runtime_|internal/poll\.runtime_|<std::sys::|<std::thread::|\[kernel\] (futex|do_|__x64|entry_|x64_))`)

// outerNoise are the frames at the bottom that start every thread.
var outerNoise = lazyre.New(`^(_start|__libc_start|__clone|clone3?$|start_thread|runtime\.(goexit|main|mstart)|testing\.(tRunner|\(\*T\)\.Run|runTests|\(\*M\)\.Run)|main\.main$|std::rt::|std::panicking::|std::panic::|std::thread::|std::sys::|core::ops::function::|test::|<alloc::boxed::Box|<F as |<core::panic::|<std::(sys|thread|rt|panicking)|__rust_|\?\?$)|std::__invoke|std::thread::_Invoker|std::thread::_State_impl`)

// Threads turns a capture into report threads: noise trimmed, identical
// stacks grouped under one entry that names them all, frames as
// "function (file:line)" with files under root made relative.
func Threads(c Capture, root string) []report.Thread {
	type group struct {
		names []string
		stack []string
	}
	var groups []*group
	byKey := map[string]*group{}
	own := ownPrefixes(c, root)
	isOwn := func(f Frame) bool { return ownFrame(f, root) || own[funcPrefix(f.Func)] }
	for _, s := range c.Stacks {
		frames := trim(s.Frames)
		if runtimeOnly(frames) || waitsItsTurn(s.Frames) {
			continue // the Go runtime's own goroutines (the GC, finalizers), tests paused in t.Parallel
		}
		var lines []string
		next := 0 // the frame after the last one shown
		shown := shownFrames(frames, isOwn)
		if parkedIn(Stack{Frames: frames}) != "" {
			shown = parkedFrames(frames, isOwn)
		}
		for _, i := range shown {
			if i > next {
				lines = append(lines, fmt.Sprintf("… %d frames", i-next))
			}
			f := frames[i]
			f.File = shortFile(f.File, root)
			f.Func = cleanFunc(f.Func)
			lines = append(lines, f.String())
			next = i + 1
		}
		if next < len(frames) {
			lines = append(lines, fmt.Sprintf("… %d more frames", len(frames)-next))
		}
		key := strings.Join(lines, "\n")
		name := s.Name
		if s.TID != 0 {
			if name == "" {
				name = "thread"
			}
			name = fmt.Sprintf("%s (tid %d)", name, s.TID)
		}
		g := byKey[key]
		if g == nil {
			g = &group{stack: lines}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.names = append(g.names, name)
	}
	var out []report.Thread
	for _, g := range groups {
		name := strings.Join(g.names, ", ")
		if len(g.names) > 4 {
			name = fmt.Sprintf("%s and %d more (%d with this stack)", strings.Join(g.names[:3], ", "), len(g.names)-3, len(g.names))
		}
		if g.stack == nil {
			g.stack = []string{}
		}
		out = append(out, report.Thread{Name: name, Stack: g.stack})
	}
	return out
}

// shownFrames picks the frames of a stack a report shows, by index: all
// of them up to maxFrames; past that, the innermost ones (where it waits
// or spins) and, further out, the project's own frames, at most
// maxOwnTail of them, the outermost first, within the same maxFrames. An
// async runtime's stack is deep: a #[tokio::test]'s own function is some
// 30 frames below tokio's park, under its block_on.
func shownFrames(frames []Frame, own func(Frame) bool) []int {
	n := len(frames)
	var outer []int // the project's frames, outermost first
	if n > maxFrames {
		for i := n - 1; i >= 0; i-- {
			if own(frames[i]) {
				outer = append(outer, i)
			}
		}
	}
	head := min(n, maxFrames)
	var tail []int
	for range maxOwnTail + 1 { // the head shrinks as the tail grows: a few rounds settle it
		tail = tail[:0]
		for _, i := range outer {
			if i >= head && len(tail) < maxOwnTail {
				tail = append(tail, i)
			}
		}
		if h := maxFrames - len(tail); h >= head || len(tail) == 0 {
			break
		} else {
			head = h
		}
	}
	idx := make([]int, 0, head+len(tail))
	for i := range head {
		idx = append(idx, i)
	}
	for i := len(tail) - 1; i >= 0; i-- {
		idx = append(idx, tail[i])
	}
	return idx
}

// parkedFrames picks the frames shown of a thread an async runtime parks
// (parkedIn): where it parks, then, past the runtime's own frames, the
// one the program called (the runtime's block_on) and the program's
// frames from there out. A worker parked with none of the program's
// frames shows where it parks only.
func parkedFrames(frames []Frame, own func(Frame) bool) []int {
	var idx []int
	park := 0
	for park < len(frames)-1 && waitPlumbing.MatchString(frames[park].Func) {
		park++
	}
	for i := 0; i <= park; i++ {
		idx = append(idx, i)
	}
	first := slices.IndexFunc(frames[park+1:], own)
	if first < 0 {
		return idx
	}
	first += park + 1
	if first-1 > park {
		idx = append(idx, first-1)
	}
	for i := first; i < len(frames) && len(idx) < maxFrames; i++ {
		idx = append(idx, i)
	}
	return idx
}

// ownPrefixes are the crates and packages of the project's own frames in
// a capture (ownFrame): a function whose file the debug info misplaces (a
// loop's body inlined from the standard library) is still the project's
// when its crate or package is.
func ownPrefixes(c Capture, root string) map[string]bool {
	own := map[string]bool{}
	for _, s := range c.Stacks {
		for _, f := range s.Frames {
			if p := funcPrefix(f.Func); p != "" && ownFrame(f, root) {
				own[p] = true
			}
		}
	}
	return own
}

// runtimeOnly reports whether a goroutine's stack is the Go runtime's alone
// (the GC's sweeper and scavenger, the finalizer goroutine, testing's main
// goroutine parked in a channel receive): noise next to the test's own.
func runtimeOnly(frames []Frame) bool {
	if len(frames) == 0 {
		return false
	}
	for _, f := range frames {
		// internal/runtime: the runtime's own syscalls (an idle M's
		// goroutine 0 waits in internal/runtime/syscall/linux.EpollWait).
		if !strings.HasPrefix(f.Func, "runtime.") && !strings.HasPrefix(f.Func, "runtime/") && !strings.HasPrefix(f.Func, "internal/runtime/") {
			return false
		}
	}
	return true
}

// waitsItsTurn reports whether a goroutine is a Go test paused in
// t.Parallel, until the tests that run one at a time are done (or a slot
// is free): it runs none of its own code, so its stack says nothing of
// a hang, and a dump of a package of parallel tests has one for each.
func waitsItsTurn(frames []Frame) bool {
	return slices.ContainsFunc(frames, func(f Frame) bool { return f.Func == "testing.(*T).Parallel" })
}

// trim drops the frames that start every thread and those that only
// carry out the wait, keeping at least one frame.
func trim(frames []Frame) []Frame {
	end := len(frames)
	for end > 1 && (outerNoise.MatchString(frames[end-1].Func) || frames[end-1].Func == "main" && frames[end-1].File == "") {
		end--
	}
	start := 0
	for start < end-1 && innerNoise.MatchString(frames[start].Func) {
		start++
	}
	return frames[start:end]
}

var rustHash = lazyre.New(`::h[0-9a-f]{16}$`)

func cleanFunc(fn string) string { return rustHash.ReplaceAllString(fn, "") }

// shortFile makes a file relative to root when under it, and cuts other
// absolute paths to their base name (a toolchain's source).
func shortFile(file, root string) string {
	if file == "" {
		return ""
	}
	if root != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	if filepath.IsAbs(file) || strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../") {
		return filepath.Base(file)
	}
	return file
}

// ownFrame says whether a frame is in the project's own code: a file
// under root, or a relative path the compiler wrote for the project
// (rustc writes "src/lib.rs"; toolchains write "./nptl/…" or absolute paths).
// A file of a dependency installed under root (a virtualenv's
// site-packages, node_modules) is not the project's: pytest-asyncio in the
// project's .venv filled a hung async test's suggested traces with pytest's
// hook calls. Nor is a crate from the registry (rustDeps), whose relative
// paths can name a file of the project.
func ownFrame(f Frame, root string) bool {
	if f.File == "" {
		return false
	}
	if c := rustCrate(f.Func); c != "" && rustDeps(root)[c] {
		return false
	}
	if filepath.IsAbs(f.File) {
		if root == "" {
			return false
		}
		rel, err := filepath.Rel(root, f.File)
		return err == nil && !strings.HasPrefix(rel, "..") && !installedDep(rel)
	}
	if installedDep(f.File) {
		return false
	}
	// A relative path is the project's when the file is there (rustc
	// writes "src/lib.rs" for the crate, "library/std/…" for the toolchain).
	if root == "" || strings.HasPrefix(f.File, "./") || strings.HasPrefix(f.File, "../") {
		return false
	}
	_, err := os.Stat(filepath.Join(root, f.File))
	return err == nil
}

// installedDep says whether a path relative to the project is inside a
// dependency installed there: a directory named site-packages,
// dist-packages or node_modules on the way.
func installedDep(rel string) bool {
	for _, d := range strings.Split(filepath.ToSlash(filepath.Dir(rel)), "/") {
		switch d {
		case "site-packages", "dist-packages", "node_modules":
			return true
		}
	}
	return false
}

// SuggestedTraces are the project's own functions in the stacks, innermost
// first, without the test functions themselves (skip holds their names).
func SuggestedTraces(c Capture, root string, skip []string) []string {
	own := ownPrefixes(c, root)
	var out []string
	seen := map[string]bool{}
	var py *pyNames
	if IsPythonCapture(c) {
		py = newPyNames(root)
	}
	for _, s := range c.Stacks {
		if waitsItsTurn(s.Frames) {
			continue
		}
		for _, f := range trim(s.Frames) {
			if !ownFrame(f, root) && !own[funcPrefix(f.Func)] {
				continue
			}
			fn := traceName(f.Func)
			if fn == "" || fn == "main" || strings.HasSuffix(fn, "::main") || seen[fn] || isTestFunc(fn, skip) || catch2TestBody.MatchString(fn) || pyAnonymous(fn) || testFramework(fn, f.File) {
				continue
			}
			if py != nil {
				if q := py.name(f); q != "" {
					fn = q
				}
				if seen[fn] {
					continue
				}
			}
			seen[fn] = true
			out = append(out, fn)
			if len(out) == 8 {
				return out
			}
		}
	}
	return out
}

// pyAnonymous says whether a Python function name is a code object with
// no name to trace: "<module>", "<lambda>", "<listcomp>", "<genexpr>".
func pyAnonymous(fn string) bool {
	return strings.HasPrefix(fn, "<") && strings.HasSuffix(fn, ">") && !strings.ContainsAny(fn, " :")
}

// catch2TestBody matches the functions Catch2's TEST_CASE macro generates
// for a test's body: the test itself, not a trace. Catch2 v2 names them
// C_A_T_C_H_T_E_S_T_4; v3 CATCH2_INTERNAL_TEST_4, and a
// TEMPLATE_TEST_CASE's CATCH2_INTERNAL_TEMPLATE_TEST_6<int>. doctest's
// TEST_CASE makes DOCTEST_ANON_FUNC_27 (magic_enum's tests).
var catch2TestBody = lazyre.New(`(^|::)(C_A_T_C_H_T_E_S_T_|CATCH2_INTERNAL_TEST_|CATCH2_INTERNAL_TEMPLATE_TEST_|DOCTEST_ANON_FUNC_)\d+(<.*>)?$`)

// gtestTestBody matches the method GoogleTest's TEST macro generates for
// a test's body (Suite_Name_Test::TestBody; eu-stack may print TestBody
// alone): the test itself, not a trace.
var gtestTestBody = lazyre.New(`(^|::)TestBody$`)

// frameworkNamespace matches the C++ test frameworks' own functions,
// whatever return type a template's name begins with.
var frameworkNamespace = lazyre.New(`(^|[\s<(*&])(Catch|testing|doctest)::`)

// frameworkHeaders are the files a project copies its C++ test framework
// in as (cxxopts' test/catch.hpp): their static functions have no
// namespace to tell them by.
var frameworkHeaders = []string{"catch.hpp", "catch_amalgamated.hpp", "catch_amalgamated.cpp", "doctest.h", "gtest.h", "gtest-all.cc", "gtest.cc", "gtest_main.cc"}

// testFramework says whether a frame is the test framework's own code
// (Catch2, GoogleTest, doctest) rather than the project's, though a
// project often vendors the framework inside its tree (cxxopts'
// test/catch.hpp, yaml-cpp's test/googletest-1.16.0/): tracing it tells
// nothing of the test.
func testFramework(fn, file string) bool {
	return gtestTestBody.MatchString(fn) || frameworkNamespace.MatchString(fn) || slices.Contains(frameworkHeaders, filepath.Base(file))
}

// funcPrefix is a function's crate ("rustdeadlock::") or Go package
// ("example.com/m/pkg."), "" when it has none.
func funcPrefix(fn string) string {
	if strings.HasPrefix(fn, "<") {
		return ""
	}
	if i := strings.Index(fn, "::"); i > 0 {
		return fn[:i+2]
	}
	slash := strings.LastIndexByte(fn, '/')
	if i := strings.IndexByte(fn[slash+1:], '.'); i > 0 {
		return fn[:slash+1+i+1]
	}
	return ""
}

// traceName is a function name fit for a trace pattern: no parameter
// list, no Rust hash, no closure suffix.
func traceName(fn string) string {
	fn = cleanFunc(fn)
	if i := strings.Index(fn, "("); i > 0 && !strings.HasPrefix(fn[i:], "(*") {
		fn = fn[:i]
	}
	for strings.HasSuffix(fn, "::{{closure}}") { // a closure in a closure
		fn = strings.TrimSuffix(fn, "::{{closure}}")
	}
	return strings.TrimSpace(fn)
}

// withoutParams is a pytest node id without its parameters' id
// ("test_x.py::test_parse[06:40]" → "test_x.py::test_parse"), which may
// hold any character, a colon or a slash included.
func withoutParams(t string) string {
	if i := strings.Index(t, "::"); i >= 0 && strings.HasSuffix(t, "]") {
		if j := strings.IndexByte(t[i:], '['); j > 0 {
			return t[:i+j]
		}
	}
	return t
}

func isTestFunc(fn string, tests []string) bool {
	last := fn
	if i := strings.LastIndexAny(fn, ":."); i >= 0 {
		last = fn[i+1:]
	}
	for _, t := range tests {
		t = withoutParams(t)
		tl := t
		if i := strings.LastIndexAny(t, ":/"); i >= 0 {
			tl = t[i+1:]
		}
		if last == tl || strings.HasSuffix(fn, t) {
			return true
		}
	}
	return false
}
