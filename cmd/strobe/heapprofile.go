package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"syscall"
)

// heapProfileEnv names a directory where a daemon writes a heap profile
// (heap-N.pprof, live objects after a GC) and the runtime's memory classes
// as they are before that GC (heap-N.txt) each time it gets SIGUSR1. The
// memory benchmarks use it to show where the daemon's memory goes at a
// moment they choose; without it SIGUSR1 keeps its default meaning.
const heapProfileEnv = "STROBE_HEAP_PROFILE_DIR"

// serveHeapProfiles starts writing heap profiles on SIGUSR1 when
// heapProfileEnv is set; stop ends it.
func serveHeapProfiles() (stop func()) {
	dir := os.Getenv(heapProfileEnv)
	if dir == "" {
		return func() {}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-sig:
			}
			if err := writeHeapProfile(filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", n))); err != nil {
				fmt.Fprintf(os.Stderr, "strobe daemon: %v\n", err)
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

func writeHeapProfile(path string) error {
	// What the runtime holds, by class, as things are (before the GC below).
	if err := os.WriteFile(strings.TrimSuffix(path, ".pprof")+".txt", memoryClasses(), 0o600); err != nil {
		return fmt.Errorf("writing memory classes: %w", err)
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return fmt.Errorf("writing a heap profile: %w", err)
	}
	// A heap profile describes the heap as of the last GC: collect first,
	// so that it shows what is live now.
	runtime.GC()
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing a heap profile: %w", err)
	}
	return os.Rename(path+".tmp", path)
}

// memoryClasses reads the runtime's /memory/classes/ metrics, one a line
// ("/memory/classes/heap/stacks:bytes 983040"): the heap profile shows
// objects only, not the stacks, GC metadata and free pages it keeps.
func memoryClasses() []byte {
	var samples []metrics.Sample
	for _, d := range metrics.All() {
		if strings.HasPrefix(d.Name, "/memory/classes/") || d.Name == "/sched/goroutines:goroutines" || d.Name == "/gc/heap/goal:bytes" {
			samples = append(samples, metrics.Sample{Name: d.Name})
		}
	}
	metrics.Read(samples)
	var b strings.Builder
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			fmt.Fprintf(&b, "%s %d\n", s.Name, s.Value.Uint64())
		}
	}
	return []byte(b.String())
}
