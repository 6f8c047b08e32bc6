package runner

import (
	"bufio"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"strobe/internal/tail"
)

// maxLine is the longest line a parser sees whole. Longer lines still go to
// the tail buffer byte for byte; the parser gets their first maxLine bytes
// and their last lineEnd bytes, and is told the line was cut. A test that
// prints hundreds of megabytes on one line costs maxLine of memory, not the
// line.
const (
	maxLine = 4 << 20
	lineEnd = 64 << 10
)

// readerPool keeps the output readers' 64 KiB buffers from run to run:
// two per run were most of what a short run allocated in the daemon.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// readLines reads r to the end, calls raw with every byte read (in order)
// and line with every line, without its "\n" (and "\r"). For a line longer
// than maxLine, b is its head, cut is true and end holds its last bytes. The
// slices passed to line are only valid during the call.
func readLines(r io.Reader, raw func([]byte), line func(b []byte, cut bool, end []byte)) error {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() { br.Reset(nil); readerPool.Put(br) }()
	var long []byte // a line longer than the reader's buffer, up to maxLine
	cut := false
	var end *tail.Buffer // the last bytes of a cut line
	keep := func(b []byte) {
		if cut {
			end.Write(b)
			return
		}
		room := maxLine - len(long)
		if len(b) > room {
			cut = true
			end = tail.New(lineEnd)
			end.Write(b[room:])
			b = b[:room]
		}
		long = append(long, b...)
	}
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			raw(chunk)
		}
		switch err {
		case bufio.ErrBufferFull:
			keep(chunk)
			continue
		case nil, io.EOF:
			b := trimEOL(chunk)
			var endBytes []byte
			if len(long) > 0 {
				keep(b)
				b = trimEOL(long) // a "\r" may have ended the previous chunk
				if cut {
					endBytes = trimEOL(end.Bytes())
				}
			}
			if len(b) > 0 || err == nil {
				line(b, cut, endBytes)
			}
			long, cut = long[:0], false
			if cap(long) > 1<<20 {
				long = nil // don't hold a big buffer for the rest of the run
			}
			if err == io.EOF {
				return nil
			}
		default:
			return err
		}
	}
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// stamped reads r and notes when a read last returned bytes: the lines of
// that read arrived then. One clock read a read, not a line: a test that
// prints a million lines gives the reader far fewer reads than lines, and
// a clock read costs 84 ns on the 2-core VM here.
//
// With pause set, a read that follows a short one (less than pauseBelow)
// waits that long first, or until ended is closed: a test prints line by
// line, and a reader that wakes for every line spends more CPU than the
// test (go test -json's million lines: 1.4 s of CPU to read them a line at
// a time, 0.2 s after a wait; docs/perf.md). A fast writer is read as fast
// as it writes: a long read does not wait, and the pipe holds what comes
// meanwhile.
//
// Once stop is set a read ends the stream, dropping what it brought: the
// drain gave up on a writer that escaped the run (see wakeReader).
type stamped struct {
	r     io.Reader
	at    int64 // unix nanoseconds
	stop  *atomic.Bool
	pause time.Duration
	ended <-chan struct{}

	short bool // the last read was short: the next one waits
	timer *time.Timer
}

// pauseBelow is a short read for stamped's pause: a few lines.
const pauseBelow = 16 << 10

func (s *stamped) Read(b []byte) (int, error) {
	if s.short {
		s.wait()
	}
	n, err := s.r.Read(b)
	if s.stop != nil && s.stop.Load() {
		return 0, io.EOF
	}
	if n > 0 {
		s.at = time.Now().UnixNano()
	}
	s.short = s.pause > 0 && n > 0 && n < pauseBelow
	return n, err
}

func (s *stamped) wait() {
	if s.timer == nil {
		s.timer = time.NewTimer(s.pause)
	} else {
		s.timer.Reset(s.pause)
	}
	select {
	case <-s.timer.C:
	case <-s.ended:
		s.timer.Stop()
	}
}
