module strobe

go 1.26.0

require (
	github.com/google/uuid v1.6.0
	golang.org/x/term v0.47.0
)

require (
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/shirou/gopsutil/v4 v4.26.10 // indirect
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f // indirect
	golang.org/x/sys v0.49.0 // indirect
)
