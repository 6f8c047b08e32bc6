package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// holdConns opens n connections that said hello as a client would, and
// closes them all once every one is open.
func holdConns(t *testing.T, p Paths, n int) {
	t.Helper()
	var conns []*Conn
	for range n {
		c, err := Dial(p, NewHello("test"))
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Close()
	}
}

// A daemon that served restartAt connections at once restarts once they
// have closed, handing over its socket and lock open across the exec; a
// connection that comes while it restarts waits and is served; a restart
// that fails leaves the daemon serving, and it does not try again.
func TestRestartAfterABurst(t *testing.T) {
	var (
		calls   atomic.Int64
		mu      sync.Mutex
		handed  handoff
		inherit []int // fds left open across the exec
	)
	entered, leave := make(chan struct{}, 1), make(chan struct{})
	exec := func(env []string) error {
		calls.Add(1)
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, handoffEnv+"="); ok {
				mu.Lock()
				if err := json.Unmarshal([]byte(v), &handed); err != nil {
					t.Errorf("handoff %q: %v", v, err)
				}
				for _, fd := range []int{handed.Listener, handed.Lock} {
					if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
						inherit = append(inherit, fd)
					}
				}
				mu.Unlock()
			}
		}
		entered <- struct{}{}
		<-leave
		return errors.New("no exec in a test")
	}
	p := startInProcess(t, Options{Restart: true, restartAt: 5, trimDelay: 50 * time.Millisecond, exec: exec})

	holdConns(t, p, 3) // under restartAt: a trim, no restart
	time.Sleep(300 * time.Millisecond)
	if calls.Load() != 0 {
		t.Fatalf("restarted after 3 connections at once, want only after 5")
	}

	holdConns(t, p, 6)
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("no restart after 6 connections at once had closed")
	}
	// While the daemon execs, a client connects: it waits in the backlog.
	served := make(chan error, 1)
	go func() {
		c, err := Dial(p, NewHello("test"))
		if err == nil {
			c.Close()
		}
		served <- err
	}()
	time.Sleep(200 * time.Millisecond)
	select {
	case err := <-served:
		t.Fatalf("a connection was answered while the daemon restarted: %v", err)
	default:
	}
	close(leave)
	if err := <-served; err != nil {
		t.Errorf("the connection made during the restart: %v", err)
	}
	mu.Lock()
	if handed.Restarts != 1 || handed.Started.IsZero() || handed.Active.IsZero() || len(inherit) != 2 {
		t.Errorf("handoff %+v, %d descriptors kept open across exec, want 2", handed, len(inherit))
	}
	for _, fd := range []int{handed.Listener, handed.Lock} {
		if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC == 0 {
			t.Errorf("descriptor %d still open across exec after the restart failed", fd)
		}
	}
	mu.Unlock()

	holdConns(t, p, 6)
	time.Sleep(300 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Errorf("%d restarts, want 1: a daemon whose restart failed tries no more", n)
	}
}

// A session open keeps the daemon from restarting, however many came and
// went.
func TestNoRestartWithASessionOpen(t *testing.T) {
	var calls atomic.Int64
	p := startInProcess(t, Options{Restart: true, restartAt: 5, trimDelay: 50 * time.Millisecond,
		exec: func([]string) error { calls.Add(1); return errors.New("no exec in a test") }})
	c, err := Dial(p, NewHello("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	holdConns(t, p, 6)
	time.Sleep(300 * time.Millisecond)
	if calls.Load() != 0 {
		t.Errorf("restarted with a session open")
	}
}

// tempHome is a STROBE_HOME short enough for a socket path, removed at
// the end, and its paths.
func tempHome(t *testing.T) (string, Paths) {
	t.Helper()
	home, err := os.MkdirTemp("/tmp", "sdt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	p, err := PathsIn(home)
	if err != nil {
		t.Fatal(err)
	}
	return home, p
}

// rawFD is a duplicate of f's descriptor that no *os.File owns, and closes
// f: the code under test takes it over, as after an exec.
func rawFD(t *testing.T, f *os.File) int {
	t.Helper()
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return fd
}

// The new image serves on the socket and under the lock it is handed, and
// keeps the first image's start.
func TestHandoffServes(t *testing.T) {
	_, p := tempHome(t)
	ln, err := listen(p)
	if err != nil {
		t.Fatal(err)
	}
	// The descriptors are handed over as an exec hands them: raw, owned by
	// nothing of this process (an *os.File's finalizer would close them
	// under the daemon).
	lf, _ := ln.File()
	ln.SetUnlinkOnClose(false)
	ln.Close()
	lock, err := os.OpenFile(p.Lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	started := time.Now().Add(-time.Hour).Round(time.Second)
	h, _ := json.Marshal(handoff{Listener: rawFD(t, lf), Lock: rawFD(t, lock), Started: started, Active: time.Now(), Restarts: 2})
	t.Setenv(handoffEnv, string(h))

	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, Options{Paths: p, Version: "test", noReaper: true}) }()
	var st *Status
	if !eventually(func() bool {
		c, err := Dial(p, NewHello("test"))
		if err != nil {
			return false
		}
		cs, err := NewClient("test", nil).Connect(context.Background(), c.Transport(), nil)
		if err != nil {
			c.Close()
			return false
		}
		defer cs.Close()
		st, err = mcp.CallCustomMethod[*StatusParams, *Status](context.Background(), cs, MethodStatus, &StatusParams{})
		return err == nil
	}) {
		t.Fatal("the new image never answered on the socket it was handed")
	}
	if st.Restarts != 2 || !st.Started.Equal(started) || st.PID != os.Getpid() {
		t.Errorf("status after the handoff: %+v", st)
	}
	if _, ok := os.LookupEnv(handoffEnv); ok {
		t.Errorf("%s is still in the environment: the runs would inherit it", handoffEnv)
	}
	cancel()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there after the daemon stopped: %v", err)
	}
}

// A handoff that is not one is refused with what to do, and nothing is
// served.
func TestBadHandoff(t *testing.T) {
	home, p := tempHome(t)
	// Each case opens its own files: a refused handoff closes what it names.
	file := func(path string) string {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.Itoa(rawFD(t, f))
	}
	for _, c := range []struct {
		name  string
		value func() string
	}{
		{"not json", func() string { return "{" }},
		{"stdio", func() string { return `{"listener":0,"lock":1}` }},
		{"another file for the lock", func() string {
			return `{"listener":` + file(filepath.Join(home, "a")) + `,"lock":` + file(filepath.Join(home, "b")) + `}`
		}},
		{"a file for the socket", func() string {
			return `{"listener":` + file(filepath.Join(home, "a")) + `,"lock":` + file(p.Lock) + `}`
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := c.value()
			t.Setenv(handoffEnv, v)
			err := Run(context.Background(), Options{Paths: p, Version: "test", noReaper: true})
			if err == nil || !strings.Contains(err.Error(), "start the daemon again") {
				t.Errorf("Run with %s=%s: %v, want an error saying what to do", handoffEnv, v, err)
			}
			if _, err := net.Dial("unix", p.Socket); err == nil {
				t.Errorf("something serves on the socket")
			}
		})
	}
}
