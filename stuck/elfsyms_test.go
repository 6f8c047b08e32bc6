package stuck

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/internal/testutil"
)

func TestDemangleNested(t *testing.T) {
	for sym, want := range map[string]string{
		"_ZN2v88internal12_GLOBAL__N_16InvokeEPNS0_7IsolateERKNS1_12InvokeParamsE": "v8::internal::(anonymous namespace)::Invoke",
		"_ZN3std2rt10lang_start17h0123456789abcdefE":                               "std::rt::lang_start::h0123456789abcdef",
		"_ZN4core4hint9black_box17h0123456789abcdefE":                              "core::hint::black_box::h0123456789abcdef",
		"_ZNSt6vectorIiSaIiEE9push_backERKi":                                       "_ZNSt6vectorIiSaIiEE9push_backERKi",
		"_ZNKSt6thread8joinableEv":                                                 "std::thread::joinable",
		"_ZNSt6threadD1Ev":                                                         "std::thread::~thread",
		"_ZN4HangC2Ev":                                                             "Hang::Hang",
		"_Z12spin_foreverv":                                                        "spin_forever",
		"_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_":               "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
		"_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvvEEEEEE6_M_runEv":     "_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvvEEEEEE6_M_runEv",
		"_ZZ4mainENKUlvE_clEv":                                                     "_ZZ4mainENKUlvE_clEv", // a local name: not read
		"main":                                                                     "main",
		"_ZN3fooE":                                                                 "foo",
		"_ZN4nodeL14StartExecutionEPNS_11EnvironmentEPKc":                          "node::StartExecution",
		"_ZL4spinv": "spin",
		"_ZN3foo":   "_ZN3foo", // cut short
		"_Z":        "_Z",
		"_ZN99fooE": "_ZN99fooE",
	} {
		if got := demangleNested(sym); got != want {
			t.Errorf("demangleNested(%q) = %q, want %q", sym, got, want)
		}
	}
}

// TestSymbolizerAgreesWithEuStack names the addresses of a capture of
// node (C++, V8's builtins) and of the C++ hang fixture (std::thread,
// libc through its debug file) as eu-stack names them in the same
// capture: every frame eu-stack names, the symbolizer names alike (up to
// the argument list and template arguments it leaves out).
func TestSymbolizerAgreesWithEuStack(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("eu-stack and /proc/PID/maps are Linux's")
	}
	testutil.RequireTool(t, "eu-stack")
	hang := buildHang(t)
	for _, argv := range [][]string{{"node", "testdata/node/hang.js", "busy"}, {hang, "deadlock"}} {
		testutil.RequireTool(t, argv[0])
		t.Run(argv[0], func(t *testing.T) {
			cmd := exec.Command(argv[0], argv[1:]...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			time.Sleep(700 * time.Millisecond)
			out, err := exec.Command("eu-stack", "-p", strconv.Itoa(cmd.Process.Pid)).CombinedOutput()
			named := parseEuStack(out)
			if len(named) == 0 {
				t.Fatalf("eu-stack: %v\n%s", err, out)
			}
			var z symbolizer
			checked := 0
			for _, s := range named {
				unnamed := Stack{TID: s.TID}
				for _, f := range s.Frames {
					unnamed.Frames = append(unnamed.Frames, Frame{Func: "??", pc: f.pc})
				}
				stacks := []Stack{unnamed}
				z.name(cmd.Process.Pid, stacks)
				for j, f := range s.Frames {
					got, want := stacks[0].Frames[j].Func, f.Func
					if want == "??" {
						continue // eu-stack could not name it either
					}
					checked++
					if !sameFunction(got, want) {
						t.Errorf("thread %d frame %d at %#x: %q, eu-stack %q", s.TID, j, f.pc, got, want)
					}
				}
			}
			if checked < 5 {
				t.Fatalf("only %d named frames to compare:\n%s", checked, out)
			}
			t.Logf("%d frames named alike", checked)
		})
	}
}

// sameFunction: ours is eu-stack's name without the argument list, or the
// mangled symbol of what ours does not read (a template, a lambda).
func sameFunction(ours, eu string) bool {
	if ours == eu {
		return true
	}
	if strings.HasPrefix(ours, "_Z") {
		return strings.Contains(eu, "<") || strings.Contains(eu, "{lambda")
	}
	return strings.HasPrefix(eu, ours+"(") || strings.HasPrefix(eu, ours+" [")
}

// buildHang builds testdata/native/hang.cpp with symbols.
func buildHang(t *testing.T) string {
	t.Helper()
	gxx := testutil.RequireTool(t, "g++")
	out := t.TempDir() + "/hang"
	if msg, err := exec.Command(gxx, "-g", "-O1", "-pthread", "-o", out, "testdata/native/hang.cpp").CombinedOutput(); err != nil {
		t.Fatalf("building hang.cpp: %v\n%s", err, msg)
	}
	return out
}

// FuzzDemangleNested: any symbol read from a binary comes back read or as
// it was, never empty, without a panic.
func FuzzDemangleNested(f *testing.F) {
	for _, s := range []string{"_ZN2v88internal12_GLOBAL__N_16InvokeEPNS0_7IsolateERKNS1_12InvokeParamsE",
		"_ZN3std2rt10lang_start17h0123456789abcdefE", "_ZNSt6threadD1Ev", "_ZN4nodeL14StartExecutionEPNS_11EnvironmentEPKc", "_ZL4spinv"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sym string) {
		got := demangleNested(sym)
		if got == "" && sym != "" {
			t.Errorf("demangleNested(%q) = %q", sym, got)
		}
	})
}
