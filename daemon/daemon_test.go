package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/report"
)

// TestInProcess runs a daemon in this process (so -race sees it) with
// clients running suites at once, then stops it and checks that every
// goroutine it started is gone.
func TestInProcess(t *testing.T) {
	before := runtime.NumGoroutine()
	home, err := os.MkdirTemp("/tmp", "sdt")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	p, err := PathsIn(home)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, Options{Paths: p, Version: "test", noReaper: true}) }()

	h := NewHello("test")
	var c *Conn
	for deadline := time.Now().Add(5 * time.Second); ; {
		if c, err = Dial(p, h); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.Close()

	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Dial(p, h)
			if err != nil {
				t.Error(err)
				return
			}
			var mu sync.Mutex
			notes := 0
			cs, err := NewClient("test", &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
				mu.Lock()
				notes++
				mu.Unlock()
			}}).Connect(context.Background(), c.Transport(), nil)
			if err != nil {
				t.Error(err)
				return
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "debug_test", Arguments: TestArgs{ProjectRoot: t.TempDir(), Command: fmt.Sprintf("echo 'ok 1 - a%d'; sleep 0.3; echo 'ok 2 - b'", i)}}
			params.SetProgressToken(i)
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				t.Error(err)
				return
			}
			var resp report.Response
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &resp)
			if resp.Status != report.Passed || resp.Summary.Passed != 2 {
				t.Errorf("client %d: %s", i, b)
			}
			mu.Lock()
			if notes == 0 {
				t.Errorf("client %d: no progress", i)
			}
			mu.Unlock()
			st, err := mcp.CallCustomMethod[*StatusParams, *Status](context.Background(), cs, MethodStatus, &StatusParams{})
			if err != nil || st.PID != os.Getpid() || len(st.Runs) == 0 {
				t.Errorf("status: %+v %v", st, err)
			}
		}()
	}
	wg.Wait()

	// A run going at shutdown is cancelled and reaped.
	c, err = Dial(p, h)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("test", nil).Connect(context.Background(), c.Transport(), nil)
	if err != nil {
		t.Fatal(err)
	}
	zero := int64(0)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "debug_test", Arguments: TestArgs{ProjectRoot: t.TempDir(), Command: "sleep 30", WaitMs: &zero}}); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("daemon did not stop")
	}
	cs.Close()
	if _, err := os.Stat(p.Socket); !os.IsNotExist(err) {
		t.Errorf("socket left: %v", err)
	}
	// Leak check: what the daemon started has ended (the registry's
	// retention timers are not goroutines).
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
