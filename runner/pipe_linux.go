package runner

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// outputPipe makes a pipe for the command's stdout or stderr whose read
// end blocks: its reader waits in read(2) on its own thread instead of in
// Go's network poller. A test prints line by line, so every line is a wake
// up; through the poller each costs a failed read, an epoll_wait and the
// scheduler's search for work, and reading go test -json's million lines
// took 2.0 s of CPU against 1.0 s blocking (4,000 libtest events: 14
// against 7 ms). See docs/perf.md.
func outputPipe() (r, w *os.File, err error) {
	if !procFDs() {
		return os.Pipe() // wakeReader could not reach a blocked read
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	// Room for what a fast writer prints while the reader pauses (see
	// stamped): with the default 64 KiB, go test -json's million lines
	// filled the pipe within the pause, and the run took 3.6 s instead of
	// 2.6 (2.5 to /dev/null). A refusal (pipe-max-size, the user's pipe
	// quota) keeps the default.
	unix.FcntlInt(uintptr(fds[1]), unix.F_SETPIPE_SZ, pipeSize)
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// procFDs says whether /proc/self/fd is there for wakeReader.
var procFDs = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
})

// pipeSize is the capacity asked for an output pipe: four times what go
// test -json's million lines brought in a millisecond (65 KB), a quarter
// of what Linux lets a user ask
// (/proc/sys/fs/pipe-max-size). It counts against the user's pipe quota
// (pipe-user-pages-soft, 64 MiB), 512 KiB a run.
const pipeSize = 256 << 10

// wakeReader makes a read blocked on the pipe r return, for a reader told
// to stop (stamped.stop): a blocking read ignores deadlines, and a process
// that escaped the run still holds the write end. It writes one byte
// through a write end of its own, opened from /proc; a full pipe needs none,
// its reader is not blocked.
func wakeReader(r *os.File) {
	if r.SetReadDeadline(time.Now()) == nil {
		return // a pipe read through the poller: the deadline ends the read
	}
	w, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", r.Fd()), os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	w.Write([]byte{'\n'})
	w.Close()
}
