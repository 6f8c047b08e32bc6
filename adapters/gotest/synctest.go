package gotest

import (
	"fmt"
	"strings"

	"strobe/adapters/kit/format"
)

// testing/synctest's deadlocks (Go 1.25+).
//
// A bubble whose goroutines are all blocked ("deadlock: all goroutines in
// bubble are blocked"), or whose main goroutine returned while others stay
// blocked ("deadlock: main bubble goroutine has exited but blocked
// goroutines remain"), panics in the test that called synctest.Test. The
// panicking goroutine's first frame in the project is that call, which says
// nothing; the goroutines of the bubble ("goroutine 21 [chan receive
// (durable), synctest bubble 1]:") say where each is blocked. The failure
// is at the first of them with a frame in the project's files, and its
// message lists them.

const goBubbleShown = 4 // blocked goroutines named in a message

// goBubbleDeadlock says whether a panic's header is a bubble's deadlock.
func goBubbleDeadlock(header string) bool {
	return strings.Contains(header, "deadlock: all goroutines in bubble are blocked") ||
		strings.Contains(header, "deadlock: main bubble goroutine has exited but blocked goroutines remain")
}

// goBubble is the blocked goroutines of a deadlocked bubble.
type goBubble struct {
	blocked []goBlocked
	in      bool   // the goroutine being read is in the bubble
	fn      string // function line waiting for its file line
	skip    bool   // the next file line is a "created by"'s
	lines   int
}

type goBlocked struct {
	id    int
	state string // "chan receive (durable)"
	at    goSite // its first frame in the project's files
}

// bubbleLine reads a line of a deadlocked bubble's panic for its blocked
// goroutines.
func (p *goParser) bubbleLine(b *goBubble, line string) {
	if b.lines++; b.lines > goTraceLines {
		return
	}
	if id, state, ok := format.GoroutineHeader(line); ok {
		st, _, inBubble := strings.Cut(state, ", synctest bubble ")
		b.in, b.fn, b.skip = inBubble, "", false
		if inBubble {
			b.blocked = append(b.blocked, goBlocked{id: id, state: st})
		}
		return
	}
	if !b.in {
		return
	}
	g := &b.blocked[len(b.blocked)-1]
	switch file, n, ok := format.GoFrameFile(line); {
	case ok:
		if rel, isProject := p.projectFile(file, b.fn); isProject && g.at.path == "" && b.fn != "" && !b.skip {
			g.at = goSite{rel, b.fn, n}
		}
		b.fn, b.skip = "", false
	case strings.HasPrefix(line, "created by "):
		b.fn, b.skip = "", true
	case line != "" && !strings.HasPrefix(line, "\t"):
		b.fn = format.GoFuncName(line)
	}
}

// message names the bubble's blocked goroutines that are in the project's
// code, and drops the others from the list.
func (b *goBubble) message() string {
	var kept []goBlocked
	var parts []string
	for _, g := range b.blocked {
		if g.at.path == "" {
			continue
		}
		kept = append(kept, g)
		if len(parts) < goBubbleShown {
			parts = append(parts, fmt.Sprintf("goroutine %d [%s] at %s", g.id, g.state, g.at))
		}
	}
	b.blocked = kept
	if len(kept) == 0 {
		return ""
	}
	if len(kept) > goBubbleShown {
		parts = append(parts, fmt.Sprintf("and %d more", len(kept)-goBubbleShown))
	}
	return "blocked in the bubble: " + strings.Join(parts, "; ")
}
