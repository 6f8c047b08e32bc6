package gotest

import (
	"context"
	"fmt"
	"net"
	"net/rpc"
	"net/rpc/jsonrpc"
	"os"
	"time"
)

// The few types of Delve's JSON-RPC 2 API (github.com/go-delve/delve
// service/api and service/rpc2, v1.27.2) the tracer uses, copied with only
// the fields it reads or sets: importing Delve would pull its whole
// debugger into strobe's module for a dozen structs.

type dlvLoadConfig struct {
	FollowPointers     bool
	MaxVariableRecurse int
	MaxStringLen       int
	MaxArrayValues     int
	MaxStructFields    int
}

type dlvBreakpoint struct {
	ID           int            `json:"id"`
	Addr         uint64         `json:"addr"`
	File         string         `json:"file"`
	Line         int            `json:"line"`
	FunctionName string         `json:"functionName,omitempty"`
	HitCond      string         `json:"HitCond,omitempty"`
	Tracepoint   bool           `json:"continue"`
	TraceReturn  bool           `json:"traceReturn"`
	LoadArgs     *dlvLoadConfig `json:"LoadArgs,omitempty"`
	// TotalHitCount counts every hit, HitCond or not.
	TotalHitCount uint64 `json:"totalHitCount"`
}

// dlvVariable is api.Variable: Kind is reflect.Kind's number.
type dlvVariable struct {
	Name       string        `json:"name"`
	Addr       uint64        `json:"addr"`
	Type       string        `json:"type"`
	RealType   string        `json:"realType"`
	Flags      uint16        `json:"flags"`
	Kind       int           `json:"kind"`
	Value      string        `json:"value"`
	Len        int64         `json:"len"`
	Cap        int64         `json:"cap"`
	Children   []dlvVariable `json:"children"`
	Base       uint64        `json:"base"`
	Unreadable string        `json:"unreadable"`
}

// dlvReturnArgument is api.VariableReturnArgument: the variable is a
// function's result.
const dlvReturnArgument = 1 << 4

type dlvFunction struct {
	Name string `json:"name"`
}

type dlvLocation struct {
	PC       uint64       `json:"pc"`
	File     string       `json:"file"`
	Line     int          `json:"line"`
	Function *dlvFunction `json:"function,omitempty"`
}

type dlvStackframe struct {
	dlvLocation
}

type dlvBreakpointInfo struct {
	Arguments []dlvVariable `json:"arguments,omitempty"`
}

type dlvThread struct {
	ID             int                `json:"id"`
	File           string             `json:"file"`
	Line           int                `json:"line"`
	Function       *dlvFunction       `json:"function,omitempty"`
	GoroutineID    int64              `json:"goroutineID"`
	Breakpoint     *dlvBreakpoint     `json:"breakPoint,omitempty"`
	BreakpointInfo *dlvBreakpointInfo `json:"breakPointInfo,omitempty"`
	ReturnValues   []dlvVariable
}

type dlvState struct {
	Pid        int
	Running    bool
	Threads    []*dlvThread
	Exited     bool `json:"exited"`
	ExitStatus int  `json:"exitStatus"`
}

type dlvGoroutine struct {
	ID         int64       `json:"id"`
	CurrentLoc dlvLocation `json:"currentLoc"`
	UserLoc    dlvLocation `json:"userCurrentLoc"`
	Status     uint64      `json:"status"`
	WaitReason int64       `json:"waitReason"`
}

type dlvEvalScope struct {
	GoroutineID int64
	Frame       int
}

// dlvClient talks to one headless dlv.
type dlvClient struct {
	conn net.Conn
	rpc  *rpc.Client
}

// dialDelve connects to dlv's unix socket, waiting for it to appear (dlv
// creates it once it has loaded the binary) until ctx ends or done says
// the run for it is over.
func dialDelve(ctx context.Context, sock string, done func() bool) (*dlvClient, error) {
	for {
		if _, err := os.Stat(sock); err == nil {
			conn, err := net.Dial("unix", sock)
			if err == nil {
				return &dlvClient{conn: conn, rpc: jsonrpc.NewClient(conn)}, nil
			}
		}
		if done() {
			return nil, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (c *dlvClient) call(method string, in, out any) error {
	if err := c.rpc.Call("RPCServer."+method, in, out); err != nil {
		return fmt.Errorf("delve %s: %w", method, err)
	}
	return nil
}

func (c *dlvClient) Close() error { return c.rpc.Close() }

func (c *dlvClient) functions() ([]string, error) {
	var out struct{ Funcs []string }
	err := c.call("ListFunctions", struct {
		Filter      string
		FollowCalls int
	}{}, &out)
	return out.Funcs, err
}

func (c *dlvClient) createBreakpoint(bp dlvBreakpoint) (dlvBreakpoint, error) {
	var out struct{ Breakpoint dlvBreakpoint }
	err := c.call("CreateBreakpoint", struct{ Breakpoint dlvBreakpoint }{bp}, &out)
	return out.Breakpoint, err
}

func (c *dlvClient) amendBreakpoint(bp dlvBreakpoint) error {
	return c.call("AmendBreakpoint", struct{ Breakpoint dlvBreakpoint }{bp}, &struct{}{})
}

func (c *dlvClient) clearBreakpoint(id int) error {
	return c.call("ClearBreakpoint", struct {
		Id   int
		Name string
	}{Id: id}, &struct{}{})
}

func (c *dlvClient) breakpoints() ([]dlvBreakpoint, error) {
	var out struct{ Breakpoints []dlvBreakpoint }
	err := c.call("ListBreakpoints", struct{ All bool }{}, &out)
	return out.Breakpoints, err
}

func (c *dlvClient) returnLocations(fn string) ([]uint64, error) {
	var out struct{ Addrs []uint64 }
	err := c.call("FunctionReturnLocations", struct{ FnName string }{fn}, &out)
	return out.Addrs, err
}

// command runs continue or halt; continue returns at the next stop.
func (c *dlvClient) command(name string) (dlvState, error) {
	var out struct{ State dlvState }
	err := c.call("Command", struct {
		Name string `json:"name"`
	}{name}, &out)
	return out.State, err
}

func (c *dlvClient) eval(scope dlvEvalScope, expr string, cfg dlvLoadConfig) (dlvVariable, error) {
	var out struct{ Variable *dlvVariable }
	err := c.call("Eval", struct {
		Scope dlvEvalScope
		Expr  string
		Cfg   *dlvLoadConfig
	}{scope, expr, &cfg}, &out)
	if err != nil || out.Variable == nil {
		return dlvVariable{}, err
	}
	return *out.Variable, nil
}

func (c *dlvClient) goroutines(max int) ([]dlvGoroutine, error) {
	var out struct{ Goroutines []dlvGoroutine }
	err := c.call("ListGoroutines", struct {
		Start int
		Count int
	}{0, max}, &out)
	return out.Goroutines, err
}

func (c *dlvClient) stacktrace(goroutine int64, depth int) ([]dlvStackframe, error) {
	var out struct{ Locations []dlvStackframe }
	err := c.call("Stacktrace", struct {
		Id    int64
		Depth int
	}{goroutine, depth}, &out)
	return out.Locations, err
}

// detach ends the session; kill ends the target with it.
func (c *dlvClient) detach(kill bool) error {
	return c.call("Detach", struct{ Kill bool }{kill}, &struct{}{})
}
