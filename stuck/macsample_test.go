package stuck

import (
	"strings"
	"testing"
)

// macSample follows the layout of macOS `sample` output (header, "Call
// graph:", one tree per thread with + ! : | marks, then the "Total number
// in stack" section). strobe has no macOS machine to record its own
// fixtures on; the shape is that of published recordings.
const macSample = `Analysis of sampling hang (pid 4242) every 1 millisecond
Process:         hang [4242]
Path:            /Users/dev/proj/hang
Code Type:       ARM64

Call graph:
    812 Thread_100001   DispatchQueue_1: com.apple.main-thread  (serial)
    + 812 start  (in dyld) + 2360  [0x18a0e60e0]
    +   812 main  (in hang) + 96  [0x100003e50]  hang.cpp:109
    +     812 std::__1::thread::join()  (in libc++.1.dylib) + 32  [0x18a3f9a7c]
    +       812 __ulock_wait  (in libsystem_kernel.dylib) + 8  [0x18a41e2a8]
    812 Thread_100002
    + 812 thread_start  (in libsystem_pthread.dylib) + 8  [0x18a45ab80]
    +   812 _pthread_start  (in libsystem_pthread.dylib) + 136  [0x18a45ff94]
    +     812 lock_a_then_b()  (in hang) + 60  [0x100003c2c]  hang.cpp:33
    +       800 std::__1::mutex::lock()  (in libc++.1.dylib) + 16  [0x18a3f7b10]
    +       ! 800 _pthread_mutex_firstfit_lock_slow  (in libsystem_pthread.dylib) + 248  [0x18a45d1c8]
    +       !   800 __psynch_mutexwait  (in libsystem_kernel.dylib) + 8  [0x18a41a0e8]
    +       12 nanosleep  (in libsystem_c.dylib) + 220  [0x18a32a6b8]
    +         12 __semwait_signal  (in libsystem_kernel.dylib) + 8  [0x18a41b3a8]

Total number in stack (recursive counted multiple times):
        812  thread_start  (in libsystem_pthread.dylib) + 8  [0x18a45ab80]
`

func TestParseMacSample(t *testing.T) {
	stacks := parseMacSample(macSample)
	if len(stacks) != 2 {
		t.Fatalf("%d threads, want 2: %+v", len(stacks), stacks)
	}
	main := stacks[0]
	if main.Name != "DispatchQueue_1: com.apple.main-thread  (serial)" || main.Frames[0].Func != "__ulock_wait" {
		t.Errorf("main thread %+v", main)
	}
	var fs []string
	for _, f := range stacks[1].Frames {
		fs = append(fs, f.String())
	}
	got := strings.Join(fs, " | ")
	want := "__psynch_mutexwait | _pthread_mutex_firstfit_lock_slow | std::__1::mutex::lock() | lock_a_then_b() (hang.cpp:33) | _pthread_start | thread_start"
	if got != want {
		t.Errorf("heaviest path\n got %s\nwant %s", got, want)
	}
}
