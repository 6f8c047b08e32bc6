package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
)

// heapProfileEnv names a directory where a daemon writes a heap profile
// (heap-N.pprof, live objects after a GC) and the runtime's memory statistics
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
	// What the runtime holds, as things are (before the GC below).
	if err := os.WriteFile(strings.TrimSuffix(path, ".pprof")+".txt", memoryStats(), 0o600); err != nil {
		return fmt.Errorf("writing memory statistics: %w", err)
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

// memoryStats reads the runtime's memory statistics, one a line
// ("StackInuse 983040"): the heap profile shows objects only, not the
// stacks, GC metadata and free pages the runtime keeps. (runtime/metrics
// says the same by class, but its package init costs every strobe
// process 0.08 ms.)
func memoryStats() []byte {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	var b strings.Builder
	for _, f := range []struct {
		name string
		v    uint64
	}{
		{"HeapInuse", m.HeapInuse}, {"HeapIdle", m.HeapIdle}, {"HeapReleased", m.HeapReleased},
		{"StackInuse", m.StackInuse}, {"MSpanInuse", m.MSpanInuse}, {"MCacheInuse", m.MCacheInuse},
		{"GCSys", m.GCSys}, {"OtherSys", m.OtherSys}, {"BuckHashSys", m.BuckHashSys}, {"Sys", m.Sys},
	} {
		fmt.Fprintf(&b, "%s %d\n", f.name, f.v)
	}
	fmt.Fprintf(&b, "Goroutines %d\n", runtime.NumGoroutine())
	return []byte(b.String())
}
