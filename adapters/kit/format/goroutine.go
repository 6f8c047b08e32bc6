// Package format reads output formats that several frameworks, or an
// adapter and the stuck detector, share. A reader lands here when a second
// user needs it; one framework's own format stays in its package.
package format

import (
	"strconv"
	"strings"
	"strobe/internal/lazyre"
)

// Goroutine is one goroutine of a Go traceback.
type Goroutine struct {
	ID     int
	State  string // "running", "chan receive", "select, 2 minutes"
	Frames []GoFrame
}

// GoFrame is one call in a goroutine's stack.
type GoFrame struct {
	Func string // without arguments: "main.(*T).Run"
	File string
	Line int
}

// goroutineHeader matches "goroutine 7 [running]:" and Go 1.23's
// "goroutine 18 gp=0x… m=0 mp=0x… [running]:".
var goroutineHeader = lazyre.New(`^goroutine (\d+) (.*?)\[(.*)\]:$`)

// goFrameFile matches a frame's location line: "\t/src/x.go:12 +0x1d".
var goFrameFile = lazyre.New(`^\t(.+?):(\d+)(?:\s|$)`)

// GoroutineHeader reads a goroutine's header line; false for any other.
func GoroutineHeader(line string) (id int, state string, ok bool) {
	m := goroutineHeader.FindStringSubmatch(line)
	if m == nil {
		return 0, "", false
	}
	id, _ = strconv.Atoi(m[1])
	return id, m[3], true
}

// GoFrameFile reads a frame's location line, the tab-indented line under
// its function; false for any other.
func GoFrameFile(line string) (file string, n int, ok bool) {
	m := goFrameFile.FindStringSubmatch(line)
	if m == nil {
		return "", 0, false
	}
	n, _ = strconv.Atoi(m[2])
	return m[1], n, true
}

// GoFuncName strips the arguments from a frame's function line:
// "main.(*T).Run(0xc000010000, {0x1, 0x2})" is main.(*T).Run.
func GoFuncName(line string) string {
	line = strings.TrimSpace(line)
	if strings.HasSuffix(line, ")") {
		if i := strings.LastIndexByte(line, '('); i > 0 {
			return line[:i]
		}
	}
	return line
}

// ParseGoroutines reads a Go runtime traceback (a SIGQUIT dump, a panic,
// a -timeout panic) into its goroutines, in order. "created by" frames and
// elided-frame notes are left out.
func ParseGoroutines(text string) []Goroutine {
	var gs []Goroutine
	var cur *Goroutine
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if id, state, ok := GoroutineHeader(line); ok {
			gs = append(gs, Goroutine{ID: id, State: state})
			cur = &gs[len(gs)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if line == "" {
			cur = nil
			continue
		}
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "created by ") || strings.HasPrefix(line, "...") {
			continue
		}
		fr := GoFrame{Func: GoFuncName(line)}
		if i+1 < len(lines) {
			if file, n, ok := GoFrameFile(strings.TrimRight(lines[i+1], "\r")); ok {
				fr.File, fr.Line = file, n
				i++
			}
		}
		cur.Frames = append(cur.Frames, fr)
	}
	return gs
}
