//go:build !linux

package runner

import (
	"os"
	"time"
)

// outputPipe makes a pipe for the command's stdout or stderr, read through
// Go's poller here (see pipe_linux.go).
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }

// wakeReader makes a read blocked on the pipe r return.
func wakeReader(r *os.File) { r.SetReadDeadline(time.Now()) }
