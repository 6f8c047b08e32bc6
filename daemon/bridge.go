package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CodeDaemonLost is the JSON-RPC error code of a request whose daemon
// connection went away before it was answered: retrying it is safe.
const CodeDaemonLost = -32001

// Bridge is `strobe mcp`: it copies MCP messages between the agent (in, out)
// and the daemon, connecting with dial on the first message and again after
// the daemon went away. A new daemon connection gets the session's
// initialize and initialized again (the agent sent them once); a request in
// flight when the connection broke is answered with a JSON-RPC error saying
// to retry. It returns when in reaches EOF and every call sent by then is
// answered (a script that pipes a session in and closes stdin still gets
// its answers), or when ctx ends.
func Bridge(ctx context.Context, in io.ReadCloser, out io.WriteCloser, dial func(context.Context) (*Conn, error)) error {
	agent, err := (&mcp.IOTransport{Reader: readCloser{newChecked(bufio.NewReaderSize(in, 64<<10), out), in}, Writer: out}).Connect(ctx)
	if err != nil {
		return err
	}
	b := &bridge{agent: agent, dial: dial, inflight: map[jsonrpc.ID]mcp.Connection{}}
	defer b.closeDaemon()
	for {
		msg, err := agent.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, io.EOF) {
				b.settle(ctx)
				return nil
			}
			return err
		}
		b.forward(ctx, msg)
	}
}

type bridge struct {
	agent mcp.Connection
	dial  func(context.Context) (*Conn, error)

	mu          sync.Mutex
	daemon      mcp.Connection
	inflight    map[jsonrpc.ID]mcp.Connection // agent's calls by the connection they went to
	initialize  *jsonrpc.Request
	initialized *jsonrpc.Request
	replays     sync.Map // jsonrpc.ID → chan *jsonrpc.Response
	replayN     int
	settled     chan struct{} // closed when inflight empties, while settle waits
}

// settle waits until every call sent to the daemon is answered (or
// answered as lost), or ctx ends.
func (b *bridge) settle(ctx context.Context) {
	b.mu.Lock()
	if len(b.inflight) == 0 {
		b.mu.Unlock()
		return
	}
	b.settled = make(chan struct{})
	ch := b.settled
	b.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// answeredLocked forgets the call id, now answered.
func (b *bridge) answeredLocked(id jsonrpc.ID) {
	delete(b.inflight, id)
	if len(b.inflight) == 0 && b.settled != nil {
		close(b.settled)
		b.settled = nil
	}
}

func (b *bridge) forward(ctx context.Context, msg jsonrpc.Message) {
	req, isReq := msg.(*jsonrpc.Request)
	if isReq {
		switch req.Method {
		case "initialize":
			b.mu.Lock()
			b.initialize, b.initialized = req, nil
			b.mu.Unlock()
		case "notifications/initialized":
			b.mu.Lock()
			b.initialized = req
			b.mu.Unlock()
		}
	}
	// A write can fail on a connection that broke since the last message:
	// the message was not delivered, so one retry on a new one is safe.
	for attempt := 0; ; attempt++ {
		b.mu.Lock()
		conn, err := b.connectLocked(ctx, req)
		if err == nil {
			if err = conn.Write(ctx, msg); err == nil {
				if isReq && req.IsCall() {
					b.inflight[req.ID] = conn
				}
				b.mu.Unlock()
				return
			}
			b.dropLocked(conn)
		}
		b.mu.Unlock()
		if attempt == 1 || ctx.Err() != nil {
			if isReq && req.IsCall() {
				b.answer(req.ID, CodeDaemonLost, fmt.Sprintf("cannot reach the strobe daemon: %v; retry the request", err))
			}
			return
		}
	}
}

// connectLocked returns the daemon connection, dialling (and starting) the
// daemon if there is none, and replaying the session's initialization on a
// new connection unless msg is that initialization itself.
func (b *bridge) connectLocked(ctx context.Context, msg *jsonrpc.Request) (mcp.Connection, error) {
	if b.daemon != nil {
		return b.daemon, nil
	}
	c, err := b.dial(ctx)
	if err != nil {
		return nil, err
	}
	conn, err := c.Transport().Connect(ctx)
	if err != nil {
		c.Close()
		return nil, err
	}
	go b.readDaemon(ctx, conn)
	if b.initialize != nil && (msg == nil || msg != b.initialize) {
		if err := b.replay(ctx, conn); err != nil {
			conn.Close()
			return nil, fmt.Errorf("initializing the new daemon connection: %w", err)
		}
	}
	b.daemon = conn
	return conn, nil
}

// replay sends the agent's initialize under an id of the bridge's own,
// waits for its answer (which the agent does not see), then initialized.
func (b *bridge) replay(ctx context.Context, conn mcp.Connection) error {
	b.replayN++
	id, _ := jsonrpc.MakeID(fmt.Sprintf("strobe-bridge-initialize-%d", b.replayN))
	ch := make(chan *jsonrpc.Response, 1)
	b.replays.Store(id, ch)
	defer b.replays.Delete(id)
	init := *b.initialize
	init.ID = id
	if err := conn.Write(ctx, &init); err != nil {
		return err
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return errors.New("the connection closed")
		}
		if resp.Error != nil {
			return resp.Error
		}
	case <-time.After(10 * time.Second):
		return errors.New("no answer to initialize")
	case <-ctx.Done():
		return ctx.Err()
	}
	if b.initialized != nil {
		return conn.Write(ctx, b.initialized)
	}
	return nil
}

// readDaemon copies the daemon's messages to the agent until the
// connection breaks, then answers the agent's calls that went to it.
func (b *bridge) readDaemon(ctx context.Context, conn mcp.Connection) {
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			b.replays.Range(func(_, v any) bool {
				select {
				case v.(chan *jsonrpc.Response) <- nil:
				default:
				}
				return true
			})
			b.mu.Lock()
			b.dropLocked(conn)
			var lost []jsonrpc.ID
			for id, c := range b.inflight {
				if c == conn {
					lost = append(lost, id)
				}
			}
			b.mu.Unlock()
			for _, id := range lost {
				b.answer(id, CodeDaemonLost, "the strobe daemon went away before answering (it stopped or was killed); retry the request: a new daemon starts on demand, and a run that was started may be collectable with debug_test_status")
			}
			b.mu.Lock()
			for _, id := range lost {
				b.answeredLocked(id)
			}
			b.mu.Unlock()
			return
		}
		if resp, ok := msg.(*jsonrpc.Response); ok {
			if ch, ok := b.replays.Load(resp.ID); ok {
				ch.(chan *jsonrpc.Response) <- resp
				continue
			}
		}
		b.agent.Write(ctx, msg)
		if resp, ok := msg.(*jsonrpc.Response); ok {
			// Forgotten after the agent has the answer: settle returns
			// only once the last answer is written.
			b.mu.Lock()
			b.answeredLocked(resp.ID)
			b.mu.Unlock()
		}
	}
}

func (b *bridge) dropLocked(conn mcp.Connection) {
	if b.daemon == conn {
		b.daemon = nil
	}
	conn.Close()
}

func (b *bridge) closeDaemon() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.daemon != nil {
		b.dropLocked(b.daemon)
	}
}

func (b *bridge) answer(id jsonrpc.ID, code int64, msg string) {
	b.agent.Write(context.Background(), &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
}
