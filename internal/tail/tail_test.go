package tail

import (
	"bytes"
	"math/rand/v2"
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
