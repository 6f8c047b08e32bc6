package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/stuck"
)

// linkTimeout bounds the link of a test binary's copy with symbols.
const linkTimeout = 2 * time.Minute

// symbolLinks are the copies of a run's test binaries linked with symbols
// for the stuck detector, in a directory of the run's own, removed when the
// run ends.
type symbolLinks struct {
	linker adapters.SymbolLinker
	run    *Run

	mu     sync.Mutex
	dir    string
	closed bool
	wg     sync.WaitGroup
}

// link links a copy of p's binary with symbols and answers its path.
func (s *symbolLinks) link(ctx context.Context, p stuck.ProcSample) (string, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return "", fmt.Errorf("the run ended")
	}
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "strobe-symbols-")
		if err != nil {
			s.mu.Unlock()
			return "", err
		}
		s.dir = dir
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	ctx, cancel := context.WithTimeout(ctx, linkTimeout)
	defer cancel()
	out := filepath.Join(s.dir, fmt.Sprintf("%d-%s", p.PID, filepath.Base(p.Exe)))
	if err := s.linker.LinkSymbols(ctx, procOf(p), s.run.plan, s.run.environ(), out); err != nil {
		return "", err
	}
	return out, nil
}

// close waits for the links under way (the detector's end cancels them)
// and removes the copies.
func (s *symbolLinks) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
