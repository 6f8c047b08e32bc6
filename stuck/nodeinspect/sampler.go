package nodeinspect

import (
	"context"
	"sync"
)

// Sampler takes repeated samples of node processes' JavaScript frames for
// the stuck detector's loop check, keeping one inspector connection per
// process: the native samples of a busy node thread are V8's unnamed JIT
// frames, which neither tell a loop from honest work nor unwind the same
// way twice. Each sample pauses the threads running JavaScript and
// resumes them at once.
type Sampler struct {
	mu    sync.Mutex
	conns map[int]*conn
}

// Sample answers the threads of pid that were running JavaScript, with
// their frames; idle threads are left out.
func (s *Sampler) Sample(ctx context.Context, pid int) ([]Thread, error) {
	c, err := s.conn(ctx, pid)
	if err != nil {
		return nil, err
	}
	var out []Thread
	th, err := thread(ctx, session{c: c}, "main thread", true)
	if err != nil {
		s.drop(pid)
		return nil, err
	}
	if !th.Idle {
		out = append(out, th)
	}
	for _, w := range workerSessions(ctx, c) {
		if th, err := thread(ctx, session{c: c, id: w.id}, w.name, true); err == nil && !th.Idle {
			out = append(out, th)
		}
	}
	return out, nil
}

func (s *Sampler) conn(ctx context.Context, pid int) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.conns[pid]; c != nil {
		return c, nil
	}
	target, err := open(ctx, pid)
	if err != nil {
		return nil, err
	}
	c, err := dial(ctx, target)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.autoResume = true
	c.mu.Unlock()
	if s.conns == nil {
		s.conns = map[int]*conn{}
	}
	s.conns[pid] = c
	return c, nil
}

func (s *Sampler) drop(pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.conns[pid]; c != nil {
		c.close()
		delete(s.conns, pid)
	}
}

// Close ends every connection; the threads run on.
func (s *Sampler) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for pid, c := range s.conns {
		c.close()
		delete(s.conns, pid)
	}
}
