// Package daemon is strobe's per-user daemon and its clients: the Unix
// socket server and its lifecycle (one daemon per user through a flock, idle
// shutdown, signals), the registry of runs, the MCP tools through the
// official Go SDK, the auto-starting dialer the CLI and `strobe mcp` use,
// and the stdio bridge of `strobe mcp`.
package daemon

import _ "github.com/modelcontextprotocol/go-sdk/mcp"
