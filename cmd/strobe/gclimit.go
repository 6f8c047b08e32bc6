package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// followLiveHeap keeps the soft memory limit above the live heap. The
// limit (memLimit) bounds the garbage of a run that prints hundreds of MB;
// the live heap of a run of tens of thousands of tests (their names,
// results and output, which the answer needs) can outgrow it, and a heap
// held above its limit is collected over and over, on the cores the tests
// run on: a 128,000-test vitest run under `strobe test --no-daemon` was
// collected 773 times and took 27.4 s; following the live heap, 85 times
// and 25.0 s (the 200 MB floods stay within their 64 MiB, make bench).
// After each collection the limit becomes what the collection kept plus
// base, up to a quarter more than base, and half as much again as the
// live heap above that; never less than base, so it comes back down once
// a run's records are dropped. The room above a live heap of a few tens of
// MiB is more than a share of it: the limit counts the runtime's own
// memory too (9 MiB of 32 here), and at half as much again as a live heap
// of 20 MiB the heap could grow by 3 MiB between collections: a
// 63,740-test vitest run was collected 52 times in 8 s, scanning 20 to 30
// MiB each time. On 40,000 quick vitest tests: 19 to 25 collections at
// half as much again, 9 with base's room above the live heap, 14 with it
// capped. The cap keeps the 200 MB floods within 64 MiB: with base's room
// unbounded the daemon's go flood peaked at 67.6 MiB (docs/perf.md).
// stop ends it.
func followLiveHeap(base int64) (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var stopped atomic.Bool
	var arm func()
	arm = func() {
		// A finalizer runs once the collection that found its object
		// unreachable is done: one per cycle. 32 bytes, so that the tiny
		// allocator does not batch it with others and delay it.
		runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				debug.SetMemoryLimit(limitFor(base, int64(sample[0].Value.Uint64())))
			}
			arm()
		})
	}
	arm()
	return func() { stopped.Store(true) }
}

// limitFor is the soft limit for a live heap of live bytes.
func limitFor(base, live int64) int64 {
	live = max(live, 0)
	return max(live+live/2, min(live+base, base+base/4))
}
