package install

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// writeDiff prints a unified diff of one file, a single hunk around the
// lines that differ (strobe's edits touch one entry, so they sit together).
func writeDiff(w io.Writer, name string, old, new []byte) {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre == len(a) && pre == len(b) {
		return
	}
	const ctx = 3
	start := max(pre-ctx, 0)
	endA, endB := min(len(a)-suf+ctx, len(a)), min(len(b)-suf+ctx, len(b))
	oldName, newName := "a/"+name, "b/"+name
	if len(old) == 0 {
		oldName = "/dev/null"
	}
	if len(new) == 0 {
		newName = "/dev/null"
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", oldName, newName)
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(start, endA-start), hunkRange(start, endB-start))
	for _, l := range a[start:pre] {
		writeLine(w, ' ', l)
	}
	for _, op := range lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		writeLine(w, op.kind, op.line)
	}
	for _, l := range a[len(a)-suf : endA] {
		writeLine(w, ' ', l)
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeLine(w io.Writer, kind byte, l string) {
	s := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
	fmt.Fprintf(w, "%c%s\n", kind, s)
	if !strings.HasSuffix(l, "\n") {
		fmt.Fprintln(w, `\ No newline at end of file`)
	}
}

func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

type diffOp struct {
	kind byte // ' ', '-', '+'
	line string
}

// lcsDiff diffs the changed middle of two files; it is small because the
// common prefix and suffix were cut off first.
func lcsDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n*m > 4_000_000 { // too large to align: show it as replaced
		var ops []diffOp
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	return ops
}
