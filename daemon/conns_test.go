package daemon

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startInProcess runs a daemon in this process with opts (Paths filled in)
// until the test ends, and returns its paths once it answers.
func startInProcess(t *testing.T, opts Options) Paths {
	t.Helper()
	home, err := os.MkdirTemp("/tmp", "sdt")
	if err != nil {
		t.Fatal(err)
	}
	p, err := PathsIn(home)
	if err != nil {
		t.Fatal(err)
	}
	opts.Paths, opts.Version, opts.noReaper = p, "test", true
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, opts) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-ended:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("daemon did not stop")
		}
		os.RemoveAll(home)
	})
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		c, err := Dial(p, Hello{Strobe: protocolVersion, Version: "test"})
		if err == nil {
			c.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(fds)
}

// eventually polls cond for up to 5 s and reports whether it came true.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// TestConnectionBurstLeavesNothing opens MCP sessions at once, closes them,
// and checks that the daemon is back where it was: no goroutine, no file
// descriptor left of them, and its free memory given back to the system.
func TestConnectionBurstLeavesNothing(t *testing.T) {
	var trims atomic.Int64
	old := freeOSMemory
	freeOSMemory = func() { trims.Add(1) }
	t.Cleanup(func() { freeOSMemory = old })
	p := startInProcess(t, Options{trimDelay: 50 * time.Millisecond})
	time.Sleep(100 * time.Millisecond) // the probe's trim
	goroutines, fds, trimmed := runtime.NumGoroutine(), openFDs(t), trims.Load()

	const n = 40
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		sessions []*mcp.ClientSession
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Dial(p, NewHello("test"))
			if err != nil {
				t.Error(err)
				return
			}
			cs, err := NewClient("test", nil).Connect(context.Background(), c.Transport(), nil)
			if err != nil {
				c.Close()
				t.Error(err)
				return
			}
			mu.Lock()
			sessions = append(sessions, cs)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if got := openFDs(t); got < fds+n {
		t.Fatalf("%d fds with %d sessions open, want at least %d", got, len(sessions), fds+n)
	}
	for _, cs := range sessions {
		cs.Close()
	}
	if !eventually(func() bool { return openFDs(t) <= fds }) {
		t.Errorf("%d fds before the burst, %d after", fds, openFDs(t))
	}
	if !eventually(func() bool { return runtime.NumGoroutine() <= goroutines }) {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before the burst, %d after:\n%s", goroutines, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
	}
	if !eventually(func() bool { return trims.Load() > trimmed }) {
		t.Error("the daemon kept its memory after the burst")
	}
}

// TestConnectionLimit checks that a connection over the limit is refused
// with the reason, and that closing one makes room again.
func TestConnectionLimit(t *testing.T) {
	const limit = 3
	p := startInProcess(t, Options{maxConns: limit})
	var conns []*Conn
	for range limit {
		// startInProcess's own probe may still count until the daemon
		// reads its close (a CI run under load refused the third).
		var c *Conn
		var err error
		if !eventually(func() bool { c, err = Dial(p, NewHello("test")); return err == nil }) {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	_, err := Dial(p, NewHello("test"))
	var ae *AccessError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "serves its limit of 3 connections") {
		t.Fatalf("connection over the limit: %v, want a refusal that says why", err)
	}
	for _, c := range conns[1:] {
		defer c.Close()
	}
	conns[0].Close()
	if !eventually(func() bool {
		c, err := Dial(p, NewHello("test"))
		if err != nil {
			return false
		}
		c.Close()
		return true
	}) {
		t.Error("no room again after a connection closed")
	}
}

// A session's cleanup runs once, whether the connection closes before the
// cleanup is set (a client gone during the handshake) or after it.
func TestSessionEndRunsCleanupOnce(t *testing.T) {
	for _, closeFirst := range []bool{false, true} {
		var e sessionEnd
		runs := 0
		if closeFirst {
			e.close()
		}
		e.then(func() { runs++ })
		if !closeFirst && runs != 0 {
			t.Fatalf("the cleanup ran before the connection closed")
		}
		e.close()
		e.close()
		if runs != 1 {
			t.Errorf("close first %v: the cleanup ran %d times, want once", closeFirst, runs)
		}
	}
}
