package stuck

import (
	"context"
	"sync"
)

// symbolJob is the link of one stripped Go test binary's copy with DWARF.
type symbolJob struct {
	done chan struct{}
	path string
	err  error
}

// symbolJobs holds a detector's links, one per binary, for the whole run:
// a package's binary is linked again only if go test ran another one.
type symbolJobs struct {
	mu   sync.Mutex
	jobs map[string]*symbolJob
}

// goSymbols answers the copy with DWARF of p's binary when p is a Go
// program go test stripped and the adapter can link one: ready, the path;
// still linking, pending. The first ask starts the link in the background,
// so the detector keeps sampling meanwhile. A failed link answers its
// error, and the capture goes on without goroutines as before.
func (d *Detector) goSymbols(ctx context.Context, p ProcSample) (path string, pending bool, err error) {
	if d.cfg.GoSymbols == nil || p.Exe == "" {
		return "", false, nil
	}
	if bin := inspectBinary(p.Exe); !bin.isGo || bin.dwarf {
		return "", false, nil
	}
	d.syms.mu.Lock()
	if d.syms.jobs == nil {
		d.syms.jobs = map[string]*symbolJob{}
	}
	job := d.syms.jobs[p.Exe]
	if job == nil {
		job = &symbolJob{done: make(chan struct{})}
		d.syms.jobs[p.Exe] = job
		go func() {
			defer close(job.done)
			job.path, job.err = d.cfg.GoSymbols(ctx, p)
		}()
	}
	d.syms.mu.Unlock()
	select {
	case <-job.done:
		return job.path, false, job.err
	default:
		return "", true, nil
	}
}

// readySymbols answers p's copy with DWARF only if it is already linked.
func (d *Detector) readySymbols(p ProcSample) string {
	d.syms.mu.Lock()
	job := d.syms.jobs[p.Exe]
	d.syms.mu.Unlock()
	if job == nil {
		return ""
	}
	select {
	case <-job.done:
		return job.path
	default:
		return ""
	}
}
