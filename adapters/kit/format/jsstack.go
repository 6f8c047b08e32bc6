package format

import (
	"net/url"
	"strconv"
	"strings"
)

// JSFrame is one frame of a V8 stack trace (node, jest, vitest, mocha).
type JSFrame struct {
	Func string `json:"func,omitempty"` // "" for a frame without a function (module top level)
	// File is a path (file:// URLs decoded), node:internal/… as is, or ""
	// for a native frame ("<anonymous>", "native").
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"col,omitempty"`
	Async bool   `json:"async,omitempty"` // "at async fn (…)": a frame resumed by an await
	// Internal frames are node's own (node:internal/…, node:…) or V8's
	// native ones: never where a test failed.
	Internal bool `json:"internal,omitempty"`
}

// ParseJSFrame reads one line of a V8 stack trace:
//
//	at fn (file:line:col)
//	at file:line:col
//	at async fn (file:line:col)
//	at new Foo (file:line:col)
//	at fn [as alias] (file:line:col)
//	at Array.forEach (<anonymous>)
//	at eval (eval at make (file:1:1), <anonymous>:1:1)
func ParseJSFrame(line string) (JSFrame, bool) {
	s := strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(s, "at ")
	if !ok || rest == "" {
		return JSFrame{}, false
	}
	var f JSFrame
	if r, ok := strings.CutPrefix(rest, "async "); ok {
		f.Async, rest = true, r
	}
	loc := rest
	if strings.HasSuffix(rest, ")") {
		if i := openParen(rest); i > 0 {
			f.Func = strings.TrimSpace(rest[:i])
			loc = rest[i+1 : len(rest)-1]
		}
	}
	if i := strings.LastIndex(loc, ", "); i >= 0 && strings.HasPrefix(loc, "eval at ") {
		loc = loc[i+2:] // an eval's own position: "<anonymous>:1:1"
	}
	f.File, f.Line, f.Col = splitLocation(loc)
	if f.File == "" && f.Func == "" {
		return JSFrame{}, false // "at " followed by no location: prose, not a frame
	}
	switch {
	case f.File == "<anonymous>" || f.File == "native" || f.File == "index 0":
		f.File, f.Internal = "", true
	case strings.HasPrefix(f.File, "node:"), strings.HasPrefix(f.File, "internal/"):
		f.Internal = true
	}
	return f, true
}

// openParen finds the parenthesis that opens a frame's location: the
// one matching the line's last, so "eval at f (a.js:1:1), …" stays whole.
func openParen(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitLocation splits "file:line:col" (or "file:line") from the right, so
// a Windows drive letter or a URL's scheme stays in the file.
func splitLocation(loc string) (file string, line, col int) {
	file = loc
	nums := []int{}
	for len(nums) < 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(file[i+1:])
		if err != nil || n < 0 {
			break
		}
		nums = append(nums, n)
		file = file[:i]
	}
	switch len(nums) {
	case 2:
		line, col = nums[1], nums[0]
	case 1:
		line = nums[0]
	}
	if p, ok := strings.CutPrefix(file, "file://"); ok {
		if dec, err := url.PathUnescape(p); err == nil {
			p = dec
		}
		file = p
	}
	return file, line, col
}

// ParseJSStack reads an error's stack text: the message (every line
// before the first frame) and the frames, innermost first. Lines after
// the frames (a cause's own stack, jest's code frame) end it.
func ParseJSStack(text string) (message string, frames []JSFrame) {
	var msg []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if f, ok := ParseJSFrame(line); ok && strings.HasPrefix(strings.TrimSpace(line), "at ") {
			frames = append(frames, f)
			continue
		}
		if len(frames) > 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			break
		}
		msg = append(msg, line)
	}
	return strings.TrimSpace(strings.Join(msg, "\n")), frames
}

// FirstJSFrameIn is the innermost frame in a file that match accepts (a
// test file, a project file not under node_modules): where a failure is
// located.
func FirstJSFrameIn(frames []JSFrame, match func(file string) bool) (JSFrame, bool) {
	for _, f := range frames {
		if !f.Internal && f.File != "" && match(f.File) {
			return f, true
		}
	}
	return JSFrame{}, false
}
