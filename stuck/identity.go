package stuck

import "sync"

// identity is what a process view reads once per process: its executable
// and argv, which do not change for a (pid, start time).
type identity struct {
	exe  string
	args []string
}

// identities caches each live process's identity for a process view, so a
// sample reads only what changes (CPU, states); keep drops the processes
// that left the tree.
type identities struct {
	mu sync.Mutex
	m  map[ProcKey]identity
}

// get answers k's identity, reading it the first time.
func (c *identities) get(k ProcKey, read func() identity) identity {
	c.mu.Lock()
	id, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return id
	}
	id = read()
	c.mu.Lock()
	if c.m == nil {
		c.m = map[ProcKey]identity{}
	}
	c.m[k] = id
	c.mu.Unlock()
	return id
}

// keep forgets every process not in live.
func (c *identities) keep(live map[ProcKey]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if !live[k] {
			delete(c.m, k)
		}
	}
}
