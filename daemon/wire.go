package daemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's newline-delimited transport stops reading at the first frame
// that is not JSON (a json.Decoder cannot resynchronise), which would drop
// the whole session over one bad line. checked sits in front of it: each
// line that is not a JSON-RPC message is answered with a JSON-RPC error on
// w and left out; the SDK sees only well-formed frames.
type checked struct {
	r       *bufio.Reader
	w       io.Writer // where errors go; one Write per error, so they never interleave
	pending []byte
	eof     bool // the input ended, after a last line without newline
}

func newChecked(r *bufio.Reader, w io.Writer) *checked { return &checked{r: r, w: w} }

func (c *checked) Read(p []byte) (int, error) {
	for len(c.pending) == 0 {
		if c.eof {
			return 0, io.EOF
		}
		line, err := readLine(c.r, mcp.DefaultMaxLineLength)
		if err == io.ErrUnexpectedEOF {
			// An agent's last message without its newline (`printf`
			// into strobe mcp) is still a message.
			c.eof, err = true, nil
		}
		if err != nil {
			if !strings.Contains(err.Error(), "longer than") {
				return 0, err
			}
			// A frame past the SDK's own limit: answer it and skip the rest
			// of the line.
			c.answer(jsonrpc.CodeInvalidRequest, nil, fmt.Sprintf("message too long: at most %d bytes", mcp.DefaultMaxLineLength))
			for {
				_, err := c.r.ReadSlice('\n')
				if err == nil {
					break
				}
				if err != bufio.ErrBufferFull {
					return 0, err
				}
			}
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if code, id, msg := check(line); code != 0 {
			c.answer(code, id, msg)
			continue
		}
		c.pending = append(line, '\n')
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// check returns 0 for a line the SDK can read, or the JSON-RPC error code,
// the id to answer (nil when unknown) and the reason.
func check(line []byte) (int, any, string) {
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, nil, "parse error: the message is not valid JSON"
	}
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, nil, "invalid request: an empty batch"
		}
		seen := map[string]bool{}
		for _, m := range batch {
			if code, id, msg := check(m); code != 0 {
				return code, id, msg
			}
			// The SDK ends the whole connection on a batch with an id
			// twice, and counts each notification's missing id as one.
			var head struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(m, &head)
			if seen[string(head.ID)] {
				return jsonrpc.CodeInvalidRequest, nil, "invalid request: a batch holds two messages with the same id (or two notifications): send them apart"
			}
			seen[string(head.ID)] = true
		}
		return 0, nil, ""
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var head struct {
			ID any `json:"id"`
		}
		json.Unmarshal(line, &head)
		switch head.ID.(type) {
		case string, float64:
		default:
			head.ID = nil
		}
		return jsonrpc.CodeInvalidRequest, head.ID, "invalid request: " + err.Error()
	}
	return 0, nil, ""
}

func (c *checked) answer(code int, id any, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	c.w.Write(append(b, '\n'))
}

// readCloser gives a reader the Close of the connection under it.
type readCloser struct {
	io.Reader
	io.Closer
}
