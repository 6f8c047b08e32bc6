package stuck

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The recorded outputs come from `hang deadlock` (testdata/native), built
// with `g++ -g -O1 -pthread -o /tmp/hang hang.cpp` in testdata/native:
//
//	eu-stack -p PID -s -i                                        > eu-stack-deadlock.txt
//	gdb -p PID -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' > gdb-deadlock.txt
func TestParseRecorded(t *testing.T) {
	type testCase struct {
		file  string
		parse func([]byte) []Stack
		root  string // the project, as the recording saw it
	}
	for _, tc := range []testCase{
		{"eu-stack-deadlock.txt", parseEuStack, "/src/strobe/stuck/testdata/native"},
		{"gdb-deadlock.txt", parseGDB, "testdata/native"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile("testdata/recorded/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			stacks := tc.parse(b)
			if len(stacks) != 3 {
				t.Fatalf("%d stacks, want 3 threads", len(stacks))
			}
			c := Capture{Stacks: stacks}
			threads := Threads(c, tc.root)
			var all []string
			for _, th := range threads {
				all = append(all, th.Name+": "+strings.Join(th.Stack, " | "))
			}
			txt := strings.Join(all, "\n")
			for _, want := range []string{"lock_a_then_b", "lock_b_then_a", "(hang.cpp:", "std::mutex::lock"} {
				if !strings.Contains(txt, want) {
					t.Errorf("threads lack %q:\n%s", want, txt)
				}
			}
			for _, noise := range []string{"__GI___lll_lock_wait", "start_thread", "clone3", "_start", "std::__invoke"} {
				if strings.Contains(txt, noise) {
					t.Errorf("threads keep the noise %q:\n%s", noise, txt)
				}
			}
			traces := SuggestedTraces(c, tc.root, nil)
			for _, want := range []string{"lock_a_then_b", "lock_b_then_a"} {
				if !strings.Contains(strings.Join(traces, " "), want) {
					t.Errorf("suggested traces %v lack %s", traces, want)
				}
			}
		})
	}
}

func TestThreadsGroupsIdenticalStacks(t *testing.T) {
	fr := []Frame{{Func: "__GI___lll_lock_wait", File: "./nptl/lowlevellock.c", Line: 49}, {Func: "worker()", File: "/p/src/w.cpp", Line: 12}, {Func: "start_thread"}}
	c := Capture{Stacks: []Stack{{TID: 1, Name: "main", Frames: []Frame{{Func: "main", File: "/p/src/main.cpp", Line: 3}}},
		{TID: 2, Name: "w", Frames: fr}, {TID: 3, Name: "w", Frames: fr}}}
	th := Threads(c, "/p")
	if len(th) != 2 || th[1].Name != "w (tid 2), w (tid 3)" || strings.Join(th[1].Stack, "|") != "worker() (src/w.cpp:12)" {
		t.Fatalf("threads %+v", th)
	}
	if tr := SuggestedTraces(c, "/p", []string{"main"}); strings.Join(tr, ",") != "worker" {
		t.Errorf("traces %v, want [worker] (the test function left out)", tr)
	}
}

// TestSuggestedTracesLeaveOutCatch2Bodies checks that the function Catch2
// (or doctest) generates for a test's body is not offered as a trace.
func TestSuggestedTracesLeaveOutCatch2Bodies(t *testing.T) {
	c := Capture{Stacks: []Stack{{TID: 1, Name: "t", Frames: []Frame{
		{Func: "lock_b_then_a()", File: "/p/deadlock.cpp", Line: 20},
		{Func: "C_A_T_C_H_T_E_S_T_4()", File: "/p/deadlock.cpp", Line: 31},
	}}}}
	if tr := SuggestedTraces(c, "/p", nil); strings.Join(tr, ",") != "lock_b_then_a" {
		t.Errorf("traces %v, want [lock_b_then_a]", tr)
	}
	// Catch2 v3's names, as eu-stack gave them for a deadlocked TEST_CASE
	// (and the thread it started) and a spinning TEMPLATE_TEST_CASE.
	c = Capture{Stacks: []Stack{
		{TID: 1, Name: "hang", Frames: []Frame{
			{Func: "std::mutex::lock()", File: "/usr/include/c++/12/bits/std_mutex.h", Line: 100},
			{Func: "CATCH2_INTERNAL_TEST_2", File: "/p/tests/hang.cpp", Line: 18},
		}},
		{TID: 2, Name: "hang", Frames: []Frame{
			{Func: "transfer()", File: "/p/tests/hang.cpp", Line: 12},
			{Func: "CATCH2_INTERNAL_TEST_2()::{lambda()#1}::operator()() const", File: "/p/tests/hang.cpp", Line: 13},
		}},
		{TID: 3, Name: "hang", Frames: []Frame{
			{Func: "spin_here", File: "/p/tests/hang.cpp", Line: 30},
			{Func: "CATCH2_INTERNAL_TEMPLATE_TEST_6<int>", File: "/p/tests/hang.cpp", Line: 31},
		}},
	}}
	if tr := SuggestedTraces(c, "/p", nil); strings.Join(tr, ",") != "transfer,spin_here" {
		t.Errorf("v3: traces %v, want [transfer spin_here]", tr)
	}
	// doctest's, as eu-stack gave them for a deadlocked TEST_CASE of
	// magic_enum's (its copy of doctest.h under test/3rdparty).
	c = Capture{Stacks: []Stack{{TID: 505, Name: "test_flags-cpp1", Frames: []Frame{
		{Func: "std::mutex::lock()", File: "/usr/include/c++/12/bits/std_mutex.h", Line: 100},
		{Func: "std::lock_guard<std::mutex>::lock_guard(std::mutex&)", File: "/usr/include/c++/12/bits/std_mutex.h", Line: 229},
		{Func: "DOCTEST_ANON_FUNC_27", File: "/p/test/test_flags.cpp", Line: 113},
		{Func: "doctest::Context::run()", File: "/p/test/3rdparty/doctest/doctest.h", Line: 6077},
		{Func: "main", File: "/p/test/3rdparty/doctest/doctest.h", Line: 6501},
	}}}}
	if tr := SuggestedTraces(c, "/p", nil); len(tr) != 0 {
		t.Errorf("doctest: traces %v, want none (the test's body alone is the project's)", tr)
	}
}

// TestSuggestedTracesLeaveOutInstalledDependencies: a dependency installed
// under the project (its .venv's site-packages, node_modules) is not the
// project's code, though its files are under the root.
func TestSuggestedTracesLeaveOutInstalledDependencies(t *testing.T) {
	c := Capture{Stacks: []Stack{{TID: 1, Name: "asyncio task Task-1", Frames: []Frame{
		{Func: "get", File: "/usr/lib/python3.11/asyncio/queues.py", Line: 158},
		{Func: "fetch_reply", File: "/p/test_b.py", Line: 5},
		{Func: "inner", File: "/p/.venv/lib/python3.11/site-packages/pytest_asyncio/plugin.py", Line: 700},
		{Func: "pytest_pyfunc_call", File: "/p/.venv/lib/python3.11/site-packages/_pytest/python.py", Line: 166},
		{Func: "handler", File: "node_modules/express/lib/router.js", Line: 9},
	}}}}
	if tr := SuggestedTraces(c, "/p", nil); strings.Join(tr, ",") != "fetch_reply" {
		t.Errorf("traces %v, want [fetch_reply]", tr)
	}
}

// TestSuggestedTracesLeaveOutRegistryCrates: cargo builds a registry
// crate with paths relative to its own directory, so polling's
// "src/lib.rs" named a file of the project, and a hung smol test's
// suggested traces were polling's functions. The crates with a source in
// the project's Cargo.lock are not the project's.
func TestSuggestedTracesLeaveOutRegistryCrates(t *testing.T) {
	root := "testdata/rustsmol"
	c := Capture{Stacks: recordedStacks(t, "eu-stack-smol-channel-never-sent.txt")}
	for i, s := range c.Stacks {
		for j, f := range s.Frames {
			if strings.HasPrefix(f.Func, "rustsmol::tests::channel_never_sent::") {
				// What the test awaits, were it on the stack.
				c.Stacks[i].Frames = slices.Insert(slices.Clone(s.Frames), j, Frame{Func: "rustsmol::await_message::{{closure}}::h5ab1c0a3e1f2d4c7", File: "src/lib.rs", Line: 21})
				break
			}
		}
	}
	tr := SuggestedTraces(c, root, []string{"tests::channel_never_sent"})
	if len(tr) == 0 {
		t.Fatalf("no traces; want the project's own functions")
	}
	for _, fn := range tr {
		if !strings.HasPrefix(fn, "rustsmol::") {
			t.Errorf("traces %v: %s is not the project's", tr, fn)
		}
	}
	for fn, want := range map[string]bool{
		"polling::Poller::wait_impl":                 false,
		"<polling::Poller as core::ops::Drop>::drop": false,
		"async_io::driver::block_on":                 false,
		"rustsmol::await_message":                    true,
	} {
		if got := ownFrame(Frame{Func: fn, File: "src/lib.rs", Line: 20}, root); got != want {
			t.Errorf("ownFrame(%s, src/lib.rs) = %v, want %v", fn, got, want)
		}
	}
}

// TestThreadsLeaveOutRuntimeGoroutines checks that goroutines of the Go
// runtime alone do not crowd out the test's own.
func TestThreadsLeaveOutRuntimeGoroutines(t *testing.T) {
	c := Capture{Tool: "gdb+runtime-gdb.py", Stacks: []Stack{
		{Name: "goroutine 2 [waiting]", Frames: []Frame{{Func: "runtime.gopark"}, {Func: "runtime.forcegchelper", File: "/go/src/runtime/proc.go", Line: 375}}},
		// Go 1.2x's SIGQUIT dump of a test spinning: the idle M's g0.
		{Name: "goroutine 0 [idle]", Frames: []Frame{
			{Func: "internal/runtime/syscall/linux.Syscall6", File: "/go/src/internal/runtime/syscall/linux/asm_linux_amd64.s", Line: 36},
			{Func: "internal/runtime/syscall/linux.EpollWait", File: "/go/src/internal/runtime/syscall/linux/syscall_linux.go", Line: 32},
			{Func: "runtime.netpoll", File: "/go/src/runtime/netpoll_epoll.go", Line: 119},
			{Func: "runtime.findRunnable", File: "/go/src/runtime/proc.go", Line: 3754},
			{Func: "runtime.schedule", File: "/go/src/runtime/proc.go", Line: 4164},
			{Func: "runtime.mcall", File: "/go/src/runtime/asm_amd64.s", Line: 496}}},
		{Name: "goroutine 8 [waiting]", Frames: []Frame{{Func: "sync.(*Mutex).Lock", File: "/go/src/sync/mutex.go", Line: 46}, {Func: "example.com/m/bank.Transfer", File: "/p/bank/bank.go", Line: 20}}},
	}}
	th := Threads(c, "/p")
	if len(th) != 1 || th[0].Name != "goroutine 8 [waiting]" {
		t.Errorf("threads %+v, want only goroutine 8", th)
	}
}

func TestStripArgs(t *testing.T) {
	for in, want := range map[string]string{
		"lock_b_then_a ()": "lock_b_then_a",
		"std::__invoke_impl<void, void (*)()> (__f=<optimized out>)": "std::__invoke_impl<void, void (*)()>",
		"futex_wait (private=0, expected=2, futex_word=0x55 <a>)":    "futex_wait",
		"main": "main",
	} {
		if got := stripArgs(in); got != want {
			t.Errorf("stripArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecode(t *testing.T) {
	type testCase struct {
		name  string
		state byte
		sc    Syscall
		kind  WaitKind
	}
	nr := map[string]int{}
	for n, s := range syscallNames {
		nr[s] = n
	}
	if len(nr) == 0 {
		t.Skip("no syscall table on this architecture")
	}
	for _, tc := range []testCase{
		{"mutex", 'S', Syscall{Nr: nr["futex"], Args: [6]uint64{0x55, 0x80, 2, 0}}, Lock},
		{"timed condvar", 'S', Syscall{Nr: nr["futex"], Args: [6]uint64{0x55, 0x189, 0, 0x7ff0}}, Timed},
		{"futex wake", 'S', Syscall{Nr: nr["futex"], Args: [6]uint64{0x55, 0x81, 1, 0}}, Running},
		{"sleep", 'S', Syscall{Nr: nr["nanosleep"], Args: [6]uint64{0x7ff0}}, Timed},
		{"poll forever", 'S', Syscall{Nr: nr["ppoll"], Args: [6]uint64{0x7ff0, 1, 0}}, IO},
		{"epoll 20 ms", 'S', Syscall{Nr: nr["epoll_pwait"], Args: [6]uint64{4, 0x7ff0, 128, 20}}, Timed},
		{"epoll forever", 'S', Syscall{Nr: nr["epoll_pwait"], Args: [6]uint64{4, 0x7ff0, 128, 0xffffffff}}, IO},
		{"read", 'S', Syscall{Nr: nr["read"], Args: [6]uint64{3}}, IO},
		{"wait for a child", 'S', Syscall{Nr: nr["wait4"]}, Child},
		{"on a CPU", 'R', Syscall{Nr: -1}, Running},
		{"disk", 'D', Syscall{Nr: nr["read"]}, Disk},
	} {
		if w := decode(tc.state, tc.sc); w.Kind != tc.kind {
			t.Errorf("%s: %v, want %v", tc.name, w.Kind, tc.kind)
		}
	}
}

// TestSuggestedTracesLeaveOutVendoredFrameworks: a project that copies
// its test framework into its tree (cxxopts' test/catch.hpp, yaml-cpp's
// test/googletest-1.16.0/) has the framework's frames under its root;
// they are no trace to suggest, nor is GoogleTest's TestBody (the test).
// The frames are those eu-stack gave of their endless loops.
func TestSuggestedTracesLeaveOutVendoredFrameworks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []Frame
	}{
		{"catch2", []Frame{
			{Func: "parse_floats()", File: "/p/test/options.cpp", Line: 950},
			{Func: "C_A_T_C_H_T_E_S_T_66()", File: "/p/test/options.cpp", Line: 958},
			{Func: "Catch::TestInvokerAsFunction::invoke() const", File: "/p/test/catch.hpp", Line: 14337},
			{Func: "Catch::RunContext::runCurrentTest(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&)", File: "/p/test/catch.hpp", Line: 12997},
			{Func: "execute", File: "/p/test/catch.hpp", Line: 13500},
		}},
		{"gtest", []Frame{
			{Func: "parse_floats()", File: "/p/test/ostream_wrapper_test.cpp", Line: 5},
			{Func: "TestBody", File: "/p/test/ostream_wrapper_test.cpp", Line: 12},
			{Func: "void testing::internal::HandleSehExceptionsInMethodIfSupported<testing::Test, void>(testing::Test*, void (testing::Test::*)(), char const*)", File: "/p/test/googletest-1.16.0/googletest/src/gtest.cc", Line: 2653},
			{Func: "testing::Test::Run()", File: "/p/test/googletest-1.16.0/googletest/src/gtest.cc", Line: 2728},
			{Func: "RUN_ALL_TESTS()", File: "/p/test/googletest-1.16.0/googletest/include/gtest/gtest.h", Line: 2334},
		}},
	} {
		c := Capture{Stacks: []Stack{{TID: 1, Name: "t", Frames: tc.frames}}}
		if tr := SuggestedTraces(c, "/p", nil); strings.Join(tr, ",") != "parse_floats" {
			t.Errorf("%s: traces %v, want [parse_floats]", tc.name, tr)
		}
	}
}
