// Package tail keeps the newest bytes of a stream within a fixed budget, so
// that memory stays flat however much a test prints.
package tail

import (
	"io"
	"strings"
)

// chunkSize is the most a Buffer allocates at once. The kept bytes live in
// chunks of this size rather than in one slice grown by append: growing one
// slice to 10 MiB allocates about 50 MiB on the way and holds the old and
// the new array at once at each step, which was most of a flooding run's
// peak memory.
const chunkSize = 64 << 10

// Buffer keeps the last Cap bytes written to it. The zero value is not
// usable; use New. Memory grows with what is written, up to Cap and two
// chunks.
type Buffer struct {
	cap    int
	chunks [][]byte // oldest first; all but the last are full
	off    int      // bytes of chunks[0] already dropped
	n      int      // bytes kept
	total  int64
	spare  []byte // a dropped chunk, reused for the next one
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
		p = p[len(p)-b.cap:]
		b.dropAll()
	}
	limit := min(chunkSize, b.cap)
	for len(p) > 0 {
		last := b.room(limit, len(p))
		k := min(len(p), limit-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
		b.n += k
		b.trim() // as it goes, so the buffer never holds more than a chunk over cap
	}
	return n, nil
}

// room returns the chunk to append to, with room for min(want, what the
// chunk lacks) more bytes. The first chunk grows by doubling, so a test that
// prints a line costs a few bytes, not a chunk; once a stream fills a chunk
// the next ones are allocated whole.
func (b *Buffer) room(limit, want int) *[]byte {
	if len(b.chunks) > 0 {
		last := &b.chunks[len(b.chunks)-1]
		if len(*last) < limit {
			if need := min(len(*last)+want, limit); need > cap(*last) {
				grown := make([]byte, len(*last), min(max(need, 2*cap(*last), 256), limit))
				copy(grown, *last)
				*last = grown
			}
			return last
		}
	}
	c := b.spare
	b.spare = nil
	if cap(c) < limit {
		size := limit
		if len(b.chunks) == 0 {
			size = min(max(want, 256), limit)
		}
		c = make([]byte, 0, size)
	}
	b.chunks = append(b.chunks, c[:0])
	return &b.chunks[len(b.chunks)-1]
}

// trim drops the oldest bytes beyond the cap.
func (b *Buffer) trim() {
	for b.n > b.cap {
		first := b.chunks[0]
		k := min(b.n-b.cap, len(first)-b.off)
		b.off += k
		b.n -= k
		if b.off == len(first) {
			b.spare = first[:0]
			b.chunks[0] = nil
			b.chunks = b.chunks[1:]
			b.off = 0
		}
	}
}

func (b *Buffer) dropAll() {
	for _, c := range b.chunks {
		if cap(c) > cap(b.spare) {
			b.spare = c[:0]
		}
	}
	b.chunks, b.off, b.n = nil, 0, 0
}

// each calls f with the kept bytes, oldest first, a chunk at a time.
func (b *Buffer) each(f func([]byte)) {
	for i, c := range b.chunks {
		if i == 0 {
			c = c[b.off:]
		}
		f(c)
	}
}

// WriteString is Write for a string.
func (b *Buffer) WriteString(s string) (int, error) { return b.Write([]byte(s)) }

// Bytes returns the kept bytes, oldest first, in a new slice.
func (b *Buffer) Bytes() []byte {
	out := make([]byte, 0, b.n)
	b.each(func(c []byte) { out = append(out, c...) })
	return out
}

// String returns the kept bytes as a string, copying them once.
func (b *Buffer) String() string {
	var s strings.Builder
	s.Grow(b.n)
	b.each(func(c []byte) { s.Write(c) })
	return s.String()
}

// WriteTo writes the kept bytes to w, oldest first, without copying them.
func (b *Buffer) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	b.each(func(c []byte) {
		if err != nil {
			return
		}
		var k int
		k, err = w.Write(c)
		n += int64(k)
	})
	return n, err
}

// Len is the number of bytes kept.
func (b *Buffer) Len() int { return b.n }

// Total is the number of bytes ever written.
func (b *Buffer) Total() int64 { return b.total }

// Truncated reports whether bytes were dropped.
func (b *Buffer) Truncated() bool { return b.total > int64(b.n) }
