package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// TestBridgeAnswersBeforeEOF pipes a whole session into `strobe mcp` at
// once, as a script does (`printf … | strobe mcp`): stdin ends before the
// daemon answers, and the last message has no newline. Every call must
// still be answered before the bridge returns.
func TestBridgeAnswersBeforeEOF(t *testing.T) {
	p := startInProcess(t, Options{})
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	var out lockedBuffer
	dial := func(context.Context) (*Conn, error) { return Dial(p, NewHello("test")) }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := Bridge(ctx, io.NopCloser(bytes.NewReader([]byte(in))), &out, dial); err != nil {
		t.Fatalf("bridge: %v", err)
	}
	answered := map[float64]bool{}
	for l := range bytes.Lines(out.Bytes()) {
		var m struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(l, &m); err != nil || m.Result == nil {
			t.Errorf("answer %q is not a result: %v", l, err)
			continue
		}
		answered[m.ID] = true
	}
	if !answered[1] || !answered[2] {
		t.Errorf("answered %v, want initialize (1) and tools/list (2); output:\n%s", answered, out.Bytes())
	}
}
