package runner

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReadLines(t *testing.T) {
	type line struct {
		text string
		cut  bool
		end  string
	}
	big := strings.Repeat("x", maxLine+100)
	type testCase struct {
		name string
		in   string
		want []line
	}
	for _, tc := range []testCase{
		{"empty", "", nil},
		{"simple", "a\nb\n", []line{{"a", false, ""}, {"b", false, ""}}},
		{"no final newline", "a\nb", []line{{"a", false, ""}, {"b", false, ""}}},
		{"crlf and empty lines", "a\r\n\nb\n", []line{{"a", false, ""}, {"", false, ""}, {"b", false, ""}}},
		{"longer than the reader buffer", strings.Repeat("y", 200<<10) + "\nz\n", []line{{strings.Repeat("y", 200<<10), false, ""}, {"z", false, ""}}},
		{"longer than maxLine", big[:maxLine] + "tail-end\nafter\n", []line{{big[:maxLine], true, "tail-end"}, {"after", false, ""}}},
		{"end keeps the last bytes", big + big + "!\n", []line{{big[:maxLine], true, (big + big + "!")[2*len(big)+1-lineEnd:]}}},
		{"exactly maxLine", big[:maxLine] + "\n", []line{{big[:maxLine], false, ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []line
			var raw bytes.Buffer
			err := readLines(strings.NewReader(tc.in), func(b []byte) { raw.Write(b) }, func(b []byte, cut bool, end []byte) {
				got = append(got, line{string(b), cut, string(end)})
			})
			if err != nil {
				t.Fatal(err)
			}
			if raw.String() != tc.in {
				t.Errorf("raw bytes differ from input (%d vs %d bytes)", raw.Len(), len(tc.in))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i].text != tc.want[i].text || got[i].cut != tc.want[i].cut || got[i].end != tc.want[i].end {
					t.Errorf("line %d: got (%d bytes, cut=%v), want (%d bytes, cut=%v)", i, len(got[i].text), got[i].cut, len(tc.want[i].text), tc.want[i].cut)
				}
			}
		})
	}
}

// TestStamped: a read that returns bytes stamps the time they came; the
// end of the stream changes nothing.
func TestStamped(t *testing.T) {
	pr, pw := io.Pipe()
	in := &stamped{r: pr}
	go func() {
		pw.Write([]byte("one\n"))
		time.Sleep(50 * time.Millisecond)
		pw.Write([]byte("two\n"))
		pw.Close()
	}()
	var stamps []int64
	before := time.Now().UnixNano()
	readLines(in, func([]byte) {}, func([]byte, bool, []byte) { stamps = append(stamps, in.at) })
	if len(stamps) != 2 {
		t.Fatalf("%d lines, want 2", len(stamps))
	}
	if stamps[0] < before || stamps[1]-stamps[0] < int64(25*time.Millisecond) {
		t.Errorf("stamps %v (read from %d): the second line came 50 ms after the first", stamps, before)
	}
	if last := in.at; last != stamps[1] {
		t.Errorf("the end of the stream moved the stamp: %d, was %d", last, stamps[1])
	}
}

// After a short read the next one waits the pause, unless the read was long
// or the run has ended.
func TestStampedPause(t *testing.T) {
	const pause = time.Second
	pr, pw := io.Pipe()
	ended := make(chan struct{})
	in := &stamped{r: pr, pause: pause, ended: ended}
	long := strings.Repeat("x", 2*pauseBelow) + "\n"
	go func() {
		pw.Write([]byte(long))
		pw.Write([]byte("after the long line\n")) // no pause: the read was long
		pw.Write([]byte("after a short line\n"))  // read after the pause
		close(ended)
		pw.Write([]byte("after the end\n")) // no pause once the run ended
		pw.Close()
	}()
	var stamps []int64
	readLines(in, func([]byte) {}, func([]byte, bool, []byte) { stamps = append(stamps, in.at) })
	if len(stamps) != 4 {
		t.Fatalf("%d lines, want 4", len(stamps))
	}
	gap := func(i int) time.Duration { return time.Duration(stamps[i] - stamps[i-1]) }
	if gap(1) > pause/2 {
		t.Errorf("the line after a long read came %v after it: a long read must not pause", gap(1))
	}
	if gap(2) < pause*9/10 {
		t.Errorf("the line after a short read came %v after it, want the %v pause", gap(2), pause)
	}
	if gap(3) > pause/2 {
		t.Errorf("the line after the end came %v after the one before: the end must cut the pause short", gap(3))
	}
}
