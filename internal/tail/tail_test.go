package tail

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
)

func TestBufferKeepsNewestBytes(t *testing.T) {
	type testCase struct {
		name   string
		cap    int
		writes []string
		want   string
		trunc  bool
	}
	for _, tc := range []testCase{
		{"empty", 4, nil, "", false},
		{"under cap", 8, []string{"ab", "cd"}, "abcd", false},
		{"exactly cap", 4, []string{"ab", "cd"}, "abcd", false},
		{"wraps", 4, []string{"abc", "def"}, "cdef", true},
		{"one big write", 3, []string{"abcdefg"}, "efg", true},
		{"many small", 5, []string{"a", "b", "c", "d", "e", "f", "g"}, "cdefg", true},
		{"big after ring", 4, []string{"abc", "de", "0123456"}, "3456", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(tc.cap)
			for _, w := range tc.writes {
				b.WriteString(w)
			}
			if got := b.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if b.Truncated() != tc.trunc {
				t.Errorf("Truncated() = %v, want %v", b.Truncated(), tc.trunc)
			}
		})
	}
}

// TestBufferMatchesNaive checks random write patterns against the obvious
// implementation: keep everything, return the last cap bytes.
func TestBufferMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		capN := 1 + r.IntN(64)
		b := New(capN)
		var all []byte
		for j := 0; j < 50; j++ {
			p := make([]byte, r.IntN(100))
			for k := range p {
				p[k] = byte('a' + r.IntN(26))
			}
			b.Write(p)
			all = append(all, p...)
		}
		want := all
		if len(want) > capN {
			want = want[len(want)-capN:]
		}
		if got := b.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("cap %d: got %q, want %q", capN, got, want)
		}
		if b.Total() != int64(len(all)) {
			t.Fatalf("Total() = %d, want %d", b.Total(), len(all))
		}
	}
}

// TestBufferMatchesNaiveAcrossChunks is TestBufferMatchesNaive with caps
// of several chunks and writes up to two chunks long.
func TestBufferMatchesNaiveAcrossChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		capN := chunkSize/2 + r.IntN(4*chunkSize)
		b := New(capN)
		var all []byte
		for j := 0; j < 40; j++ {
			p := make([]byte, r.IntN(2*chunkSize))
			for k := range p {
				p[k] = byte('a' + r.IntN(26))
			}
			b.Write(p)
			all = append(all, p...)
			want := all
			if len(want) > capN {
				want = want[len(want)-capN:]
			}
			if got := b.Bytes(); !bytes.Equal(got, want) {
				t.Fatalf("cap %d, write %d: got %d bytes, want %d (equal lengths: %v)", capN, j, len(got), len(want), len(got) == len(want))
			}
			var w bytes.Buffer
			if n, err := b.WriteTo(&w); err != nil || n != int64(len(want)) || !bytes.Equal(w.Bytes(), want) {
				t.Fatalf("cap %d, write %d: WriteTo wrote %d bytes (%v), want %d", capN, j, n, err, len(want))
			}
		}
	}
}

// TestBufferAllocatesWhatItKeeps checks that filling a buffer allocates
// about its cap, not the arrays of a slice grown by append on the way
// (about five times the cap), and that going on writing allocates nothing.
func TestBufferAllocatesWhatItKeeps(t *testing.T) {
	const capN = 10 << 20
	line := bytes.Repeat([]byte("flood "), 16)
	alloc := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	b := New(capN)
	filling := alloc(func() {
		for b.Len() < capN {
			b.Write(line)
		}
	})
	if limit := uint64(capN + 3*chunkSize); filling > limit {
		t.Errorf("filling a %d-byte buffer allocated %d bytes, want at most %d", capN, filling, limit)
	}
	more := alloc(func() {
		for range capN / len(line) {
			b.Write(line)
		}
	})
	if more > chunkSize {
		t.Errorf("writing %d more bytes into a full buffer allocated %d bytes", capN, more)
	}
}

// TestBufferSmallStaysSmall checks that a buffer that got one short line
// holds a few hundred bytes, not a chunk: a run keeps one per test.
func TestBufferSmallStaysSmall(t *testing.T) {
	b := New(64 << 10)
	b.WriteString("one line\n")
	if c := cap(b.chunks[0]); c > 256 {
		t.Errorf("a buffer holding 9 bytes has %d bytes of room", c)
	}
}
