package runner

import (
	"bufio"
	"io"
)

// maxLine is the longest line a parser sees whole. Longer lines still go to
// the tail buffer byte for byte; the parser gets their first maxLine bytes
// and is told the line was cut. A test that prints hundreds of megabytes on
// one line costs maxLine of memory, not the line.
const maxLine = 4 << 20

// readLines reads r to the end, calls raw with every byte read (in order)
// and line with every line, without its "\n" (and "\r"). The slice passed to
// line is only valid during the call.
func readLines(r io.Reader, raw func([]byte), line func(b []byte, cut bool)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the reader's buffer, up to maxLine
	cut := false
	keep := func(b []byte) {
		room := maxLine - len(long)
		if len(b) > room {
			b, cut = b[:room], true
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
			if len(long) > 0 {
				keep(b)
				b = trimEOL(long) // a "\r" may have ended the previous chunk
			}
			if len(b) > 0 || err == nil {
				line(b, cut)
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
