package stuck

import "sync"

// identity is what a process view reads once per process image: its
// executable and argv. A (pid, start time) keeps its key across exec, and
// a child first seen between fork and exec wears its parent's command
// line (a test's `sleep` read as the vitest fork that spawned it), so the
// identity is kept only while the process's name (comm) is the one it
// was read with; exec and a retitle (node's process.title) change it.
type identity struct {
	name string
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

// get answers k's identity, reading it when k is new or its name is no
// longer the one read with.
func (c *identities) get(k ProcKey, name string, read func() identity) identity {
	c.mu.Lock()
	id, ok := c.m[k]
	c.mu.Unlock()
	if ok && id.name == name {
		return id
	}
	id = read()
	id.name = name
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
