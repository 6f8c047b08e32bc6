package daemon

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// DefaultIdle is how long a daemon with no run and no request waits before
// it exits.
const DefaultIdle = 30 * time.Minute

const (
	// maxConns bounds the connections served at once. Each costs a few
	// goroutines and buffers; agents hold one per session and strobe test
	// one per run, so even a busy machine stays far below, and a runaway
	// client cannot grow the daemon without end. The ones over it are
	// refused with a reason. What a burst of them leaves behind is the
	// runtime's bookkeeping of the heap they grew, which no setting
	// returns (at 64, 16.2 MiB a minute after 1,000 connections, idle
	// 14.4: docs/perf.md); a restart in place does (restart.go).
	maxConns = 64
	// trimDelay is how long after the last connection closed or run ended
	// the daemon gives its free memory back to the system. Go's runtime
	// would do so only after its next GC, which an idle daemon reaches by
	// the 2-minute forced GC, and then gradually.
	trimDelay = 5 * time.Second
	// connBufSize is the read buffer of a connection: the hello and the MCP
	// messages are small, and readLine grows past it for a long line. At
	// 64 KiB, 1,000 idle connections held 64 MiB.
	connBufSize = 4 << 10
)

// Options configure a daemon.
type Options struct {
	Paths   Paths
	Version string
	// Idle is the idle shutdown delay; 0 means never.
	Idle time.Duration
	Log  *zap.Logger
	// LogWriter receives the SDK's own warnings (slog JSON); may be nil.
	LogWriter io.Writer

	// Restart lets the daemon restart in place after a burst of
	// connections (restart.go): only a daemon whose program is strobe's
	// can (not the in-process tests').
	Restart bool

	// noReaper leaves out the reaper process (in-process tests, whose
	// executable is not strobe).
	noReaper bool
	// maxConns, trimDelay and restartAt replace the defaults when not zero,
	// and exec replaces execSelf when not nil (tests).
	maxConns  int
	trimDelay time.Duration
	restartAt int
	exec      func(env []string) error
}

// ErrRunning is returned by Run when another daemon already serves.
var ErrRunning = errors.New("another strobe daemon is already serving")

// Daemon is a running daemon.
type Daemon struct {
	opts       Options
	log        *zap.Logger
	ctx        context.Context // cancelled when shutdown starts
	reg        *registry
	srv        *mcp.Server // one for every connection: its handlers find their session in ctx
	started    time.Time
	lastActive atomic.Int64 // unix nanos
	stopOnce   sync.Once
	stopping   atomic.Bool
	stopCh     chan struct{}
	reaped     bool // a reaper ends the runs' processes if the daemon dies

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*atomic.Int64 // calls not answered yet
	conns    sync.WaitGroup
	open     atomic.Int64 // connections being served
	peak     atomic.Int64 // the most connections open at once
	trim     *trimmer

	restartable atomic.Bool   // opts.Restart, until a restart fails
	restarts    int           // the images before this one
	quiet       chan struct{} // the trimmer found a restart due
}

// Run serves until ctx is cancelled (SIGTERM, SIGINT), a client asks it to
// stop, or it has been idle for opts.Idle. It returns ErrRunning, without
// serving, when another daemon holds the lock and answers on the socket.
func Run(ctx context.Context, opts Options) error {
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	p := opts.Paths
	if err := ensureHome(p.Home); err != nil {
		return err
	}
	h, ln, lock, err := takeHandoff(p)
	if err != nil {
		return err
	}
	if h == nil {
		if lock, err = acquireLock(ctx, p, opts.Version); err != nil {
			return err
		}
		if ln, err = listen(p); err != nil {
			lock.Close()
			return err
		}
	}
	defer lock.Close() // the kernel would release it anyway
	if n := reapOrphans(); n > 0 {
		opts.Log.Warn("killed processes left by a daemon that died", zap.Int("processes", n))
	}
	reaped := h != nil && h.Reaped // the reaper watches the pid, which a restart keeps
	if !opts.noReaper && h == nil {
		var err error
		if reaped, err = startReaper(); err != nil {
			opts.Log.Warn("starting the reaper", zap.Error(err))
		}
	}

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d := &Daemon{opts: opts, log: opts.Log, ctx: sctx, reg: newRegistry(retainResults),
		started: time.Now(), stopCh: make(chan struct{}), reaped: reaped, sessions: map[*mcp.ServerSession]*atomic.Int64{},
		quiet: make(chan struct{}, 1)}
	d.restartable.Store(opts.Restart)
	d.trim = newTrimmer(cmp.Or(opts.trimDelay, trimDelay), d.quieted)
	if h != nil {
		d.started, d.restarts = h.Started, h.Restarts
	}
	d.srv = d.newServer()
	defer d.trim.stop()
	d.reg.onDone = func(e *entry) {
		r := e.Result()
		d.log.Info("run finished", zap.String("runId", r.RunID), zap.String("status", string(r.Status)), zap.Duration("took", e.finishedAt().Sub(e.started)))
		d.touch()
		d.trim.soon() // the run's output buffers are garbage now
	}
	d.touch()
	if h != nil {
		d.lastActive.Store(h.Active.UnixNano())
	}
	d.log.Info("daemon started", zap.Int("pid", os.Getpid()), zap.String("version", opts.Version), zap.String("build", BuildID()),
		zap.String("socket", p.Socket), zap.Duration("idle", opts.Idle), zap.Int("restarts", d.restarts))

	serve := func() chan struct{} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			d.accept(sctx, ln)
		}()
		return done
	}
	acceptDone := serve()
	reason := d.waitForEnd(ctx)
	for reason == reasonQuiet {
		// Stop accepting: a connection that comes now waits in the
		// socket's backlog, for this image or the next.
		ln.SetDeadline(time.Unix(1, 0))
		<-acceptDone
		if d.restartDue() {
			err := d.restart(ln, lock) // returns only if it failed
			d.log.Warn("restarting in place failed; serving on", zap.Error(err))
			d.restartable.Store(false)
			freeOSMemory()
		}
		ln.SetDeadline(time.Time{})
		acceptDone = serve()
		reason = d.waitForEnd(ctx)
	}
	d.stopping.Store(true)
	d.log.Info("daemon stopping", zap.String("reason", reason))
	// Stop accepting; closing the listener unlinks the socket, and the lock
	// we still hold means no other daemon has bound that path since.
	ln.Close()
	<-acceptDone
	cancel()
	if !d.reg.cancelAll(20 * time.Second) {
		d.log.Warn("runs still not reaped at shutdown")
	}
	d.closeSessions(5 * time.Second)
	d.log.Info("daemon stopped")
	d.log.Sync()
	return nil
}

// reasonQuiet is waitForEnd's answer when the daemon should restart in
// place, not end.
const reasonQuiet = "quiet"

// waitForEnd waits for a reason to end, or for a restart to be due.
func (d *Daemon) waitForEnd(ctx context.Context) string {
	var idle <-chan time.Time
	if d.opts.Idle > 0 {
		t := time.NewTicker(min(max(d.opts.Idle/4, 50*time.Millisecond), 30*time.Second))
		defer t.Stop()
		idle = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return "signal"
		case <-d.stopCh:
			return "stop requested"
		case <-d.quiet:
			return reasonQuiet
		case <-idle:
			last := time.Unix(0, d.lastActive.Load())
			if time.Since(last) >= d.opts.Idle && d.reg.running() == 0 {
				return "idle for " + d.opts.Idle.String()
			}
		}
	}
}

// quieted runs when the trim delay has passed with no connection opened or
// closed and no run ended: the daemon gives back its free memory, or
// restarts in place when that is due.
func (d *Daemon) quieted() {
	if d.restartDue() {
		select {
		case d.quiet <- struct{}{}:
		default:
		}
		return
	}
	freeOSMemory()
}

// listen makes the daemon's socket, open to this user alone.
func listen(p Paths) (*net.UnixListener, error) {
	// The lock is ours: a socket file left there is stale.
	if err := os.Remove(p.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing stale socket %s: %w", p.Socket, err)
	}
	old := unix.Umask(0o077) // no window where the socket is open to others
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p.Socket, Net: "unix"})
	unix.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", p.Socket, err)
	}
	os.Chmod(p.Socket, 0o600)
	return ln, nil
}

func (d *Daemon) touch() { d.lastActive.Store(time.Now().UnixNano()) }

func (d *Daemon) requestStop() { d.stopOnce.Do(func() { close(d.stopCh) }) }

func (d *Daemon) accept(ctx context.Context, ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrDeadlineExceeded) {
				return // shutting down, or pausing for a restart
			}
			d.log.Warn("accept", zap.Error(err))
			time.Sleep(20 * time.Millisecond)
			continue
		}
		d.conns.Add(1)
		n := d.open.Add(1)
		if n > d.peak.Load() {
			d.peak.Store(n) // only this goroutine stores it
		}
		if limit := cmp.Or(d.opts.maxConns, maxConns); n > int64(limit) {
			go func() {
				defer d.conns.Done()
				defer d.open.Add(-1)
				d.refuseBusy(c, limit)
			}()
			continue
		}
		go d.serveConn(ctx, c, func() {
			d.open.Add(-1)
			d.trim.soon() // its buffers and goroutines are garbage now
			d.conns.Done()
		})
	}
}

// refuseBusy answers a connection over the limit with the reason, once the
// client has said hello (closing before it reads would make its hello
// fail, which it takes for no daemon, and it would start another).
func (d *Daemon) refuseBusy(c *net.UnixConn, limit int) {
	defer c.Close()
	d.log.Warn("refused a connection: too many open", zap.Int("limit", limit))
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := readLine(bufio.NewReaderSize(c, connBufSize), maxHelloLine); err != nil {
		return
	}
	writeLine(c, Welcome{Strobe: protocolVersion, Version: d.opts.Version, Build: BuildID(), PID: os.Getpid(),
		Error: fmt.Sprintf("the strobe daemon (pid %d) serves its limit of %d connections: close agent sessions or strobe commands you no longer use, then retry", os.Getpid(), limit)})
}

// serveConn checks who is calling, reads the hello, answers it, then hands
// the connection to an MCP session, which serves it until the client goes
// away; done runs then, or as serveConn returns when there is no session.
// No goroutine of ours waits for the session: its end is the connection's
// close (sessionEnd), so a session holds the SDK's two goroutines only (a
// goroutine's descriptor is never freed, and a burst of sessions left the
// daemon that many bigger).
func (d *Daemon) serveConn(ctx context.Context, c *net.UnixConn, done func()) {
	handedOff := false
	defer func() {
		if !handedOff {
			done()
		}
	}()
	refuse := func(msg string) {
		c.SetWriteDeadline(time.Now().Add(2 * time.Second))
		writeLine(c, Welcome{Strobe: protocolVersion, Version: d.opts.Version, Build: BuildID(), PID: os.Getpid(), Error: msg})
		c.Close()
	}
	if uid, err := peerUID(c); err == nil && uid != os.Getuid() {
		d.log.Warn("refused a connection from another user", zap.Int("uid", uid))
		refuse(fmt.Sprintf("access denied: this strobe daemon belongs to uid %d and refuses uid %d; run your own (set %s)", os.Getuid(), uid, HomeEnv))
		return
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReaderSize(c, connBufSize)
	line, err := readLine(br, maxHelloLine)
	if err != nil {
		if !errors.Is(err, io.EOF) {
			refuse("expected strobe's hello line first: " + err.Error())
		} else {
			c.Close()
		}
		return
	}
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Strobe == 0 {
		refuse("expected strobe's hello line first (connect through `strobe mcp`, which sends it)")
		return
	}
	if h.Strobe != protocolVersion {
		refuse(fmt.Sprintf("this daemon (version %s) speaks socket protocol %d, not %d: run `strobe stop` and retry", d.opts.Version, protocolVersion, h.Strobe))
		return
	}
	c.SetReadDeadline(time.Time{})
	if d.stopping.Load() {
		// No welcome: the client takes this for no daemon and starts the
		// next one, which waits for our lock.
		c.Close()
		return
	}
	if err := writeLine(c, Welcome{Strobe: protocolVersion, Version: d.opts.Version, Build: BuildID(), PID: os.Getpid()}); err != nil {
		c.Close()
		return
	}
	if h.Env == nil {
		// A probe (another daemon checking that this one serves).
		c.Close()
		return
	}
	d.touch()
	s := newSession(d, h)
	t := &countingTransport{Transport: &mcp.IOTransport{Reader: readCloser{newChecked(br, c), c}, Writer: c}}
	ss, err := d.srv.Connect(withSession(context.WithoutCancel(ctx), s), t, nil)
	if err != nil {
		d.log.Warn("mcp connect", zap.Error(err))
		c.Close()
		return
	}
	d.mu.Lock()
	d.sessions[ss] = &t.calls
	d.mu.Unlock()
	handedOff = true
	t.end.then(func() {
		d.mu.Lock()
		delete(d.sessions, ss)
		d.mu.Unlock()
		s.ended()
		done()
	})
}

// sessionEnd runs a session's cleanup once its connection is closed, which
// the SDK does once, when the session is over. then sets the cleanup and
// close marks the connection closed, in either order: the cleanup runs
// once both have happened.
type sessionEnd struct {
	mu      sync.Mutex
	closed  bool
	cleanup func()
}

func (e *sessionEnd) then(f func()) {
	e.mu.Lock()
	if !e.closed {
		e.cleanup = f
		f = nil
	}
	e.mu.Unlock()
	if f != nil {
		f()
	}
}

func (e *sessionEnd) close() {
	e.mu.Lock()
	f := e.cleanup
	e.closed, e.cleanup = true, nil
	e.mu.Unlock()
	if f != nil {
		f()
	}
}

// closeSessions closes every session once it has answered its calls: the
// SDK's close refuses to write answers once it starts, and the answers of
// calls waiting on runs (cancelled by now) and of strobe/stop must go out.
func (d *Daemon) closeSessions(wait time.Duration) {
	d.mu.Lock()
	all := map[*mcp.ServerSession]*atomic.Int64{}
	for ss, n := range d.sessions {
		all[ss] = n
	}
	d.mu.Unlock()
	deadline := time.Now().Add(wait)
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for ss, calls := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for calls.Load() > 0 && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				ss.Close()
			}()
		}
		wg.Wait()
		d.conns.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait + time.Second):
		d.log.Warn("sessions still open at shutdown")
	}
}

// countingTransport counts the calls a connection received and has not
// answered yet.
type countingTransport struct {
	mcp.Transport
	calls atomic.Int64
	end   sessionEnd
}

func (t *countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Connection: c, calls: &t.calls, end: &t.end}, nil
}

type countingConn struct {
	mcp.Connection
	calls *atomic.Int64
	end   *sessionEnd
}

func (c *countingConn) Close() error {
	err := c.Connection.Close()
	c.end.close()
	return err
}

func (c *countingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.calls.Add(1)
	}
	return msg, err
}

func (c *countingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.calls.Add(-1)
	}
	return err
}

// Status is the answer of the strobe/status method.
type Status struct {
	mcp.ResultBase
	PID      int       `json:"pid"`
	Version  string    `json:"version"`
	Build    string    `json:"build"`
	Home     string    `json:"home"`
	Started  time.Time `json:"started"`
	UptimeMS int64     `json:"uptime_ms"`
	IdleMS   int64     `json:"idle_ms"`
	// IdleLimitMS is the idle shutdown delay; 0 means never.
	IdleLimitMS int64 `json:"idle_limit_ms"`
	Active      int   `json:"active"`
	// Restarts counts the daemon's restarts in place (restart.go).
	Restarts int       `json:"restarts,omitempty"`
	Runs     []RunInfo `json:"runs"`
	Log      string    `json:"log"`
}

// StatusParams and StopParams carry nothing.
type StatusParams struct{ mcp.ParamsBase }
type StopParams struct{ mcp.ParamsBase }

// Stopping answers strobe/stop.
type Stopping struct {
	mcp.ResultBase
	PID int `json:"pid"`
}

// Custom methods for strobe's own CLI; agents see only the tools.
const (
	MethodStatus = "strobe/status"
	MethodStop   = "strobe/stop"
)

// newServer makes the daemon's one MCP server. Building one per
// connection cost each `strobe test` about 1 ms of CPU (the SDK checks
// every tool's schema as it is added); a connection's handlers find their
// session (the client's environment) in the context Connect was given.
func (d *Daemon) newServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "strobe", Title: "strobe test runner", Version: d.opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       sdkLogger(d.opts.LogWriter),
		Capabilities: &mcp.ServerCapabilities{},
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "debug_test", Description: testDescription + traceDescription}, sessionTool((*session).debugTest))
	mcp.AddTool(srv, &mcp.Tool{Name: "debug_test_status", Description: statusDescription}, sessionTool((*session).debugTestStatus))
	mcp.AddTool(srv, &mcp.Tool{Name: "debug_test_cancel", Description: cancelDescription}, sessionTool((*session).debugTestCancel))
	mcp.AddTool(srv, &mcp.Tool{Name: "debug_query", Description: queryDescription}, sessionTool((*session).debugQuery))
	mcp.AddReceivingCustomMethod(srv, MethodStatus, func(context.Context, *mcp.ServerSession, *StatusParams) (*Status, error) {
		return d.status(), nil
	})
	mcp.AddReceivingCustomMethod(srv, MethodStop, func(ctx context.Context, _ *mcp.ServerSession, _ *StopParams) (*Stopping, error) {
		pid := 0
		if s := sessionOf(ctx); s != nil {
			pid = s.hello.PID
		}
		d.log.Info("stop requested", zap.Int("clientPid", pid))
		d.requestStop()
		return &Stopping{PID: os.Getpid()}, nil
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			d.touch()
			return next(ctx, method, req)
		}
	})
	srv.AddReceivingMiddleware(argumentErrors)
	return srv
}

func (d *Daemon) status() *Status {
	last := time.Unix(0, d.lastActive.Load())
	return &Status{PID: os.Getpid(), Version: d.opts.Version, Build: BuildID(), Home: d.opts.Paths.Home, Started: d.started,
		UptimeMS: time.Since(d.started).Milliseconds(), IdleMS: time.Since(last).Milliseconds(), IdleLimitMS: d.opts.Idle.Milliseconds(),
		Active: d.reg.running(), Restarts: d.restarts, Runs: d.reg.list(), Log: d.opts.Paths.Log}
}

// acquireLock takes strobe.lock, one daemon per user. While another
// process holds it, a daemon that answers on the socket means there is
// nothing to do (ErrRunning); one that does not is starting or stopping, so
// wait for the lock.
func acquireLock(ctx context.Context, p Paths, version string) (*os.File, error) {
	f, err := os.OpenFile(p.Lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", p.Lock, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", p.Lock, err)
		}
		if probe(p, version) {
			f.Close()
			return nil, ErrRunning
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s stays locked by a daemon that does not answer on %s: stop it (its pid is in the lock file) and retry", p.Lock, p.Socket)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// probe reports whether a daemon answers the hello on the socket.
func probe(p Paths, version string) bool {
	h := Hello{Strobe: protocolVersion, Version: version, Build: BuildID(), PID: os.Getpid()}
	c, err := Dial(p, h)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// LockHolder is the pid written in the lock file by the daemon holding it,
// or 0.
func LockHolder(p Paths) int {
	b, err := os.ReadFile(p.Lock)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(string(trimNL(b)))
	return pid
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}
