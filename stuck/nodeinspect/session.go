package nodeinspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// message is one Chrome DevTools Protocol message: a command's response
// (ID set) or an event (Method set).
type message struct {
	ID     int64           `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// conn is one WebSocket connection to a node inspector. The main thread's
// session talks on it directly; a worker thread's session is tunnelled
// through NodeWorker.sendMessageToWorker, its replies arriving as
// NodeWorker.receivedMessageFromWorker events.
type conn struct {
	ws  *websocket.Conn
	tcp *net.TCPConn // to ask for quick ACKs

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan message // by session + id
	events  map[string]chan message // by session: every event of that session
	closed  chan struct{}
	err     error
	// workers are the worker threads attached (NodeWorker.enable once,
	// then kept up to date from its events: vitest starts its pool's
	// threads after the connection may have been made).
	workers       []worker
	workerEnabled bool
	debugger      map[string]bool // the sessions whose Debugger domain is on
	// A sampler's connection resumes a thread that pauses when nobody
	// waits for it: a pause that came after its sample gave up would
	// otherwise hold the thread until the run ends, and a paused thread
	// waits on a lock like a deadlocked one.
	autoResume bool
	awaiting   map[string]bool // sessions whose Debugger.paused is awaited
	// scripts maps each session's script ids to their URLs, from
	// Debugger.scriptParsed: kept here, not queued, as a jest worker
	// announces thousands of them when its debugger is enabled.
	scripts map[string]map[string]*script
}

func dial(ctx context.Context, url string) (*conn, error) {
	var tcp *net.TCPConn
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if t, ok := c.(*net.TCPConn); ok {
				tcp = t
			}
			return c, err
		},
	}}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		return nil, fmt.Errorf("connecting to the inspector: %w", err)
	}
	// Debugger.scriptParsed events of a big bundle (jest's transformed
	// sources, source maps inline) exceed the 32 KiB default.
	ws.SetReadLimit(64 << 20)
	c := &conn{ws: ws, tcp: tcp, pending: map[string]chan message{}, events: map[string]chan message{},
		scripts: map[string]map[string]*script{}, closed: make(chan struct{})}
	go c.read()
	return c, nil
}

func (c *conn) close() { c.ws.Close(websocket.StatusNormalClosure, "") }

// quickAck makes the kernel acknowledge the next segments at once. Node
// writes a command's reply and the event that follows (Debugger.pause,
// then Debugger.paused) as two small segments without TCP_NODELAY: Nagle
// holds the second until the first is acknowledged, and a delayed ACK
// takes 40 ms, all of which the sampled thread would spend paused.
func (c *conn) quickAck() {
	if c.tcp == nil {
		return
	}
	if raw, err := c.tcp.SyscallConn(); err == nil {
		raw.Control(func(fd uintptr) { setQuickAck(int(fd)) })
	}
}

// read dispatches every message until the connection ends.
func (c *conn) read() {
	defer close(c.closed)
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
		c.dispatch("", b)
	}
}

func (c *conn) dispatch(sid string, b []byte) {
	var m message
	if json.Unmarshal(b, &m) != nil {
		return
	}
	if m.Method == "NodeWorker.receivedMessageFromWorker" {
		var p struct {
			SessionID string `json:"sessionId"`
			Message   string `json:"message"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			c.dispatch(p.SessionID, []byte(p.Message))
		}
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.Method == "Debugger.scriptParsed" {
		var p struct {
			ScriptID     string `json:"scriptId"`
			URL          string `json:"url"`
			SourceMapURL string `json:"sourceMapURL"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			if c.scripts[sid] == nil {
				c.scripts[sid] = map[string]*script{}
			}
			c.scripts[sid][p.ScriptID] = &script{url: p.URL, mapURL: p.SourceMapURL}
		}
		return
	}
	switch m.Method {
	case "NodeWorker.attachedToWorker":
		var w struct {
			SessionID  string `json:"sessionId"`
			WorkerInfo struct {
				WorkerID string `json:"workerId"`
				URL      string `json:"url"`
			} `json:"workerInfo"`
		}
		if json.Unmarshal(m.Params, &w) == nil && len(c.workers) < maxWorkers {
			name := "worker thread " + w.WorkerInfo.WorkerID
			if f := filePath(w.WorkerInfo.URL); f != "" {
				name += " (" + f + ")"
			}
			c.workers = append(c.workers, worker{id: w.SessionID, name: name})
		}
		return
	case "NodeWorker.detachedFromWorker":
		var w struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(m.Params, &w) == nil {
			c.workers = slices.DeleteFunc(c.workers, func(x worker) bool { return x.id == w.SessionID })
		}
		return
	}
	if m.Method == "Debugger.paused" && c.autoResume && !c.awaiting[sid] {
		go session{c: c, id: sid}.resume()
		return
	}
	if m.ID != 0 {
		if ch := c.pending[key(sid, m.ID)]; ch != nil {
			delete(c.pending, key(sid, m.ID))
			ch <- m
		}
		return
	}
	ch := c.events[sid]
	if ch == nil {
		ch = make(chan message, 4096)
		c.events[sid] = ch
	}
	select {
	case ch <- m:
	default: // nobody reads this many events: drop, never block the reader
	}
}

func key(session string, id int64) string { return fmt.Sprintf("%s/%d", session, id) }

// session is one thread's protocol session: the main thread's ("") or a
// worker's.
type session struct {
	c  *conn
	id string
}

func (s session) eventsCh() chan message {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	ch := s.c.events[s.id]
	if ch == nil {
		ch = make(chan message, 4096)
		s.c.events[s.id] = ch
	}
	return ch
}

// call sends a command and waits for its result.
func (s session) call(ctx context.Context, method string, params, result any) error {
	s.c.mu.Lock()
	s.c.nextID++
	id := s.c.nextID
	ch := make(chan message, 1)
	s.c.pending[key(s.id, id)] = ch
	s.c.mu.Unlock()
	defer func() {
		s.c.mu.Lock()
		delete(s.c.pending, key(s.id, id))
		s.c.mu.Unlock()
	}()

	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if s.id != "" {
		// The command travels inside NodeWorker.sendMessageToWorker, a
		// command of the main session whose own empty reply nobody awaits.
		s.c.mu.Lock()
		s.c.nextID++
		outer := s.c.nextID
		s.c.mu.Unlock()
		b, err = json.Marshal(map[string]any{"id": outer, "method": "NodeWorker.sendMessageToWorker",
			"params": map[string]string{"sessionId": s.id, "message": string(b)}})
		if err != nil {
			return err
		}
	}
	s.c.quickAck()
	if err := s.c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if result != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-s.c.closed:
		return fmt.Errorf("%s: the inspector closed the connection: %w", method, s.c.err)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// enableDebugger turns the session's Debugger domain on, once: V8
// announces every script again on each Debugger.enable.
func (s session) enableDebugger(ctx context.Context) error {
	s.c.mu.Lock()
	on := s.c.debugger[s.id]
	s.c.mu.Unlock()
	if on {
		return nil
	}
	if err := s.call(ctx, "Debugger.enable", nil, nil); err != nil {
		return err
	}
	s.c.mu.Lock()
	if s.c.debugger == nil {
		s.c.debugger = map[string]bool{}
	}
	s.c.debugger[s.id] = true
	s.c.mu.Unlock()
	return nil
}

// resume resumes the session's thread, best effort.
func (s session) resume() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.call(ctx, "Debugger.resume", nil, nil)
}

// await marks the session's next Debugger.paused as awaited (on) or not.
func (s session) await(on bool) {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if s.c.awaiting == nil {
		s.c.awaiting = map[string]bool{}
	}
	s.c.awaiting[s.id] = on
}

// drain drops the session's queued events, resuming the thread when one
// of them is a pause nobody took: a sample waits for the pause it asks
// for, and a thread must never stay paused after one.
func (s session) drain() {
	ch := s.eventsCh()
	paused := false
	for {
		select {
		case m := <-ch:
			switch m.Method {
			case "Debugger.paused":
				paused = true
			case "Debugger.resumed":
				paused = false
			}
		default:
			if paused {
				s.resume()
			}
			return
		}
	}
}

// script is one of the session's scripts, nil when unknown.
func (s session) script(id string) *script {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return s.c.scripts[s.id][id]
}

// waitEvent waits for the session's next event named method.
func (s session) waitEvent(ctx context.Context, method string) (message, error) {
	s.c.quickAck()
	ch := s.eventsCh()
	for {
		select {
		case m := <-ch:
			if m.Method == method {
				return m, nil
			}
		case <-s.c.closed:
			return message{}, errors.New("the inspector closed the connection")
		case <-ctx.Done():
			return message{}, ctx.Err()
		}
	}
}
