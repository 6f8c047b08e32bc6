package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoDaemon means nothing answers on the socket.
var ErrNoDaemon = errors.New("no strobe daemon is running")

// startTimeout bounds the wait for a daemon this client started.
const startTimeout = 15 * time.Second

// Conn is a connection to the daemon after the handshake: reads and writes
// are MCP.
type Conn struct {
	c       *net.UnixConn
	r       *bufio.Reader
	Welcome Welcome
}

func (c *Conn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c *Conn) Write(p []byte) (int, error) { return c.c.Write(p) }
func (c *Conn) Close() error                { return c.c.Close() }

// SetDeadline sets the connection's read and write deadline.
func (c *Conn) SetDeadline(t time.Time) error { return c.c.SetDeadline(t) }

// Transport is the connection as an MCP transport for the SDK.
func (c *Conn) Transport() mcp.Transport { return &mcp.IOTransport{Reader: c, Writer: c} }

// Dial connects to a running daemon and says hello. It never starts one.
func Dial(p Paths, h Hello) (*Conn, error) {
	if err := checkSocketOwner(p.Socket); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (no socket %s)", ErrNoDaemon, p.Socket)
		}
		return nil, err
	}
	nc, err := net.DialTimeout("unix", p.Socket, 2*time.Second)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (nothing listens on %s)", ErrNoDaemon, p.Socket)
		}
		if errors.Is(err, os.ErrPermission) {
			return nil, &AccessError{Msg: fmt.Sprintf("cannot connect to %s: %v: it is not yours; set %s to a directory of yours", p.Socket, err, HomeEnv)}
		}
		return nil, fmt.Errorf("connecting to %s: %w", p.Socket, err)
	}
	c := nc.(*net.UnixConn)
	if uid, err := peerUID(c); err == nil && uid != os.Getuid() {
		c.Close()
		return nil, &AccessError{Msg: fmt.Sprintf("the daemon on %s runs as uid %d, not as you (uid %d): set %s to a directory of yours", p.Socket, uid, os.Getuid(), HomeEnv)}
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if err := writeLine(c, h); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w (saying hello: %v)", ErrNoDaemon, err)
	}
	r := bufio.NewReaderSize(c, 64<<10)
	line, err := readLine(r, 1<<20)
	if err != nil {
		c.Close()
		// A daemon shutting down closes without answering.
		return nil, fmt.Errorf("%w (no answer to hello: %v)", ErrNoDaemon, err)
	}
	var w Welcome
	if err := json.Unmarshal(line, &w); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s answered something that is not a strobe daemon's welcome: %q", p.Socket, clipBytes(line, 200))
	}
	if w.Error != "" {
		c.Close()
		return nil, &AccessError{Msg: w.Error}
	}
	c.SetDeadline(time.Time{})
	return &Conn{c: c, r: r, Welcome: w}, nil
}

func clipBytes(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// Connect dials the daemon and, if none answers, starts one detached and
// waits until it answers (dial first, start second).
func Connect(ctx context.Context, p Paths, h Hello) (*Conn, error) {
	c, err := Dial(p, h)
	if err == nil || !errors.Is(err, ErrNoDaemon) {
		return c, err
	}
	exited, err := Start(p)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(startTimeout)
	wait := 2 * time.Millisecond
	for {
		c, err := Dial(p, h)
		if err == nil || !errors.Is(err, ErrNoDaemon) {
			return c, err
		}
		select {
		case e := <-exited:
			// Exit 0: another daemon won the lock; keep dialing it.
			if e != nil {
				return nil, fmt.Errorf("the strobe daemon did not start (%v): see %s", e, p.Log)
			}
			exited = nil
		default:
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the strobe daemon did not answer within %v: see %s", startTimeout, p.Log)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 50*time.Millisecond)
	}
}

// Executable is the strobe binary that Start runs as `strobe daemon`:
// this one. Tests of other binaries point it at strobe.
var Executable = os.Executable

// Start starts `strobe daemon` detached: its own session (setsid), stdin
// from /dev/null, stdout and stderr appended to the log, in /. The channel
// yields its exit error (nil for a clean exit) if it ends.
func Start(p Paths) (<-chan error, error) {
	if err := ensureHome(p.Home); err != nil {
		return nil, err
	}
	exe, err := Executable()
	if err != nil {
		return nil, fmt.Errorf("starting daemon: %w", err)
	}
	logf, err := os.OpenFile(p.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("starting daemon: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, "daemon")
	cmd.Env = append(os.Environ(), HomeEnv+"="+p.Home)
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reap it if it ends before we do
	return exited, nil
}

// Mismatch says, for a person, how the daemon's build differs from this
// client's; empty when they are the same build.
func Mismatch(w Welcome, version string) string {
	if w.Build == BuildID() {
		return ""
	}
	builds := fmt.Sprintf("a different build (version %s) from this strobe (version %s)", w.Version, version)
	if w.Version == version {
		builds = fmt.Sprintf("another build of this strobe's version (%s)", version)
	}
	return fmt.Sprintf("strobe: the running daemon (pid %d) is %s: run `strobe stop` so the next command starts this one", w.PID, builds)
}

// cliName is the client name of `strobe test`: the daemon stops the runs
// such a client started when its connection ends before their answers.
const cliName = "strobe-cli"

// NewClient is an MCP client of the SDK that knows strobe's own methods.
func NewClient(version string, opts *mcp.ClientOptions) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: cliName, Version: version}, opts)
	mcp.AddSendingCustomMethod[*StatusParams, *Status](c, MethodStatus)
	mcp.AddSendingCustomMethod[*StopParams, *Stopping](c, MethodStop)
	return c
}

var _ io.ReadWriteCloser = (*Conn)(nil)
