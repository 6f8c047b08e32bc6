package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestFollowLiveHeap: a live heap larger than the base limit raises the
// limit above it after a collection, and once that heap is dropped the
// limit comes back to about the base.
func TestFollowLiveHeap(t *testing.T) {
	const base = 8 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(base)
	defer followLiveHeap(base)()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	settle := func(want func(int64) bool) int64 {
		// The finalizer runs after the collection, on its own goroutine.
		for range 50 {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
			if l := limit(); want(l) {
				return l
			}
		}
		return limit()
	}
	held := make([][]byte, 0, 64)
	for range 64 {
		held = append(held, make([]byte, 512<<10)) // 32 MiB live
	}
	if l := settle(func(l int64) bool { return l > 32<<20 }); l <= 32<<20 {
		t.Errorf("limit %d MiB with 32 MiB live, want above it", l>>20)
	}
	runtime.KeepAlive(held)
	held = nil
	// What stays live (the test binary's own heap) is a few MiB at most.
	back := func(l int64) bool { return l < base+4<<20 }
	if l := settle(back); !back(l) {
		t.Errorf("limit %d MiB once the heap was dropped, want about the base's %d", l>>20, base>>20)
	}
}

func TestLimitFor(t *testing.T) {
	for _, tc := range []struct{ live, want int64 }{
		{0, 32 << 20},
		{4 << 20, 36 << 20},
		{8 << 20, 40 << 20},
		{20 << 20, 40 << 20}, // capped: base's room would be 52
		{40 << 20, 60 << 20}, // half as much again
		{-1, 32 << 20},
	} {
		if got := limitFor(32<<20, tc.live); got != tc.want {
			t.Errorf("limitFor(32 MiB, %d MiB) = %d MiB, want %d", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}
