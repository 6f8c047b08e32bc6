package kit

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// A reporter that writes its report to a file (Catch2's XML, JUnit XML,
// a JSON reporter) is read while the tests run: the report file is read for
// new bytes every TailPoll, backing off to TailPollIdle while nothing comes
// (a long test); Kick wakes the reader at once.
const (
	TailPoll     = 2 * time.Millisecond
	TailPollIdle = 50 * time.Millisecond
)

// TailFile reads a file as another process writes it: at its end it waits
// for more until Stop, then drains what is left and answers io.EOF. A file
// that does not exist yet is waited for the same way. Read is for one
// goroutine (a decoder's); Kick, Stop and CaughtUp are for any.
type TailFile struct {
	path   string
	f      *os.File
	wait   time.Duration // the next poll's wait
	done   chan struct{}
	stop   sync.Once
	closed sync.Once
	// handed counts the bytes returned; idle says Read is waiting at the
	// file's end (so the decoder holds no unread byte).
	handed atomic.Int64
	idle   atomic.Bool
	kick   chan struct{}
}

// NewTailFile returns a reader of path, which need not exist yet.
func NewTailFile(path string) *TailFile {
	return &TailFile{path: path, done: make(chan struct{}), kick: make(chan struct{}, 1)}
}

// Path is the file's path.
func (t *TailFile) Path() string { return t.path }

// Stop says the writer is gone: Read drains the file and ends.
func (t *TailFile) Stop() { t.stop.Do(func() { close(t.done) }) }

// Kick wakes a Read waiting at the file's end (the process printed
// something, so the report has likely grown).
func (t *TailFile) Kick() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// CaughtUp says the reader has taken in the file's first size bytes, all
// of them: every event before that point has been decoded.
func (t *TailFile) CaughtUp(size int64) bool {
	// handed first: Read clears idle before it adds to handed.
	return t.handed.Load() == size && t.idle.Load()
}

// Idle marks the reader as waiting at the file's end, for a decoder that
// a test feeds from another reader in step with the output lines, so that
// CaughtUp holds once it has taken in what it was given.
func (t *TailFile) Idle() { t.idle.Store(true) }

// CloseFile closes the file once Read is done with it (after Stop and
// Read's io.EOF, or when Read will not be called again).
func (t *TailFile) CloseFile() {
	t.closed.Do(func() {
		if t.f != nil {
			t.f.Close()
		}
	})
}

func (t *TailFile) Read(p []byte) (int, error) {
	for {
		finished := false
		select {
		case <-t.done:
			finished = true
		default:
		}
		if t.f == nil {
			f, err := os.Open(t.path)
			if err != nil {
				if finished {
					return 0, io.EOF
				}
				t.idle.Store(true) // nothing to read: output is not behind a report
				t.pause()
				continue
			}
			t.f = f
		}
		n, err := t.f.Read(p)
		if n > 0 {
			t.wait = 0
			t.idle.Store(false)
			t.handed.Add(int64(n))
			return n, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if finished {
			return 0, io.EOF
		}
		t.idle.Store(true)
		t.pause()
	}
}

// pause waits for the next poll, a kick or Stop.
func (t *TailFile) pause() {
	t.wait = min(max(2*t.wait, TailPoll), TailPollIdle)
	select {
	case <-t.done:
	case <-t.kick:
	case <-time.After(t.wait):
	}
}
