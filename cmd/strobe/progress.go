package main

import (
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// progress redraws one status line on a terminal while a run goes on:
// tests done, failures so far, the test running now, elapsed time. The
// line comes from line(), empty while there is nothing to show.
type progress struct {
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func startProgress(f *os.File, line func() string) *progress {
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
				if l := line(); l != "" {
					fmt.Fprint(f, "\r\033[K"+clip(l, width-1))
				}
			}
		}
	}()
	return p
}

// stop erases the line; a nil progress does nothing.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.done)
		<-p.stopped
	})
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
