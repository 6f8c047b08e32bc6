package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"strobe/runner"
)

// progress redraws one status line on a terminal while a run goes on:
// tests done, failures so far, the test running now, elapsed time.
type progress struct {
	done    chan struct{}
	stopped chan struct{}
}

func startProgress(f *os.File, r *runner.Run) *progress {
	p := &progress{done: make(chan struct{}), stopped: make(chan struct{})}
	width := 100
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 20 {
		width = w
	}
	go func() {
		defer close(p.stopped)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-tick.C:
				fmt.Fprint(f, "\r\033[K"+clip(progressLine(r.Framework(), r.Progress()), width-1))
			}
		}
	}()
	return p
}

func progressLine(framework string, pr runner.Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · ", framework, pr.Elapsed.Round(100*time.Millisecond))
	if pr.Phase == "building" {
		b.WriteString("building…")
		return b.String()
	}
	fmt.Fprintf(&b, "%d passed", pr.Passed)
	if pr.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", pr.Failed)
	}
	if pr.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", pr.Skipped)
	}
	if n := len(pr.Running); n > 0 {
		t := pr.Running[0] // the longest-running one is the interesting one
		fmt.Fprintf(&b, " · running %s (%s)", t.Name, time.Since(t.Since).Round(100*time.Millisecond))
		if n > 1 {
			fmt.Fprintf(&b, " +%d", n-1)
		}
	}
	return b.String()
}

// stop erases the line; a nil progress does nothing.
func (p *progress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	<-p.stopped
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
