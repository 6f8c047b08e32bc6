package python

import (
	"bufio"
	"bytes"
	"io"
	"sync"
	"time"

	"strobe/adapters/kit"
)

// maxEvent bounds one event line. The Python side bounds a test's output
// to 64 KiB and its message to 8 KiB; a longer line is not an event of
// ours and is dropped rather than kept.
const maxEvent = 4 << 20

// Stream reads the events file as it grows, from its own goroutine, into
// a Mapper: a test's start reaches the Recorder while the test runs, so
// progress and the stuck detector can name it.
type Stream struct {
	tail *kit.TailFile
	done chan struct{}
	stop sync.Once
}

// Follow starts reading path into m.
func Follow(path string, m *Mapper) *Stream {
	s := &Stream{tail: kit.NewTailFile(path), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		Read(s.tail, m)
	}()
	return s
}

// Read feeds every line of r to m.
func Read(r io.Reader, m *Mapper) {
	br := bufio.NewReaderSize(r, 64<<10)
	var e Event
	var long []byte // a line longer than the reader's buffer, so far
	tooLong := false
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			tooLong = tooLong || len(long)+len(line) > maxEvent
			if !tooLong {
				long = append(long, line...)
			}
			continue
		}
		if long != nil || tooLong {
			if !tooLong && len(long)+len(line) <= maxEvent {
				m.Line(bytes.TrimSuffix(append(long, line...), []byte("\n")), &e)
			}
			long, tooLong = nil, false
		} else {
			m.Line(bytes.TrimSuffix(line, []byte("\n")), &e)
		}
		if err != nil {
			return
		}
	}
}

// Stop says the process is gone and waits (5 s at most) for what is left
// in the file to be read.
func (s *Stream) Stop() {
	s.stop.Do(func() {
		s.tail.Stop()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
		}
		s.tail.CloseFile()
	})
}
