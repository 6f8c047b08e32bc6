// Package tail keeps the newest bytes of a stream within a fixed budget, so
// that memory stays flat however much a test prints.
package tail

import "strings"

// Buffer keeps the last Cap bytes written to it. The zero value is not
// usable; use New. Memory grows with what is written, up to Cap.
type Buffer struct {
	cap   int
	buf   []byte // grows to cap, then used as a ring
	start int    // index of the oldest byte once the ring is full
	total int64
}

// New returns a Buffer that keeps at most cap bytes.
func New(cap int) *Buffer { return &Buffer{cap: cap} }

// Write appends p, dropping the oldest bytes beyond the cap. It never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if b.cap <= 0 {
		return n, nil
	}
	if len(p) >= b.cap {
		// Only the last cap bytes of p survive.
		b.buf = append(b.buf[:0], p[len(p)-b.cap:]...)
		b.start = 0
		return n, nil
	}
	if room := b.cap - len(b.buf); room > 0 {
		k := min(room, len(p))
		b.buf = append(b.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // ring is full: overwrite the oldest bytes
		k := copy(b.buf[b.start:], p)
		p = p[k:]
		b.start = (b.start + k) % b.cap
	}
	return n, nil
}

// WriteString is Write for a string.
func (b *Buffer) WriteString(s string) (int, error) { return b.Write([]byte(s)) }

// Bytes returns the kept bytes, oldest first, in a new slice.
func (b *Buffer) Bytes() []byte {
	out := make([]byte, 0, len(b.buf))
	out = append(out, b.buf[b.start:]...)
	return append(out, b.buf[:b.start]...)
}

// String returns the kept bytes as a string, copying them once.
func (b *Buffer) String() string {
	var s strings.Builder
	s.Grow(len(b.buf))
	s.Write(b.buf[b.start:])
	s.Write(b.buf[:b.start])
	return s.String()
}

// Len is the number of bytes kept.
func (b *Buffer) Len() int { return len(b.buf) }

// Total is the number of bytes ever written.
func (b *Buffer) Total() int64 { return b.total }

// Truncated reports whether bytes were dropped.
func (b *Buffer) Truncated() bool { return b.total > int64(len(b.buf)) }
