//go:build !amd64 && !arm64

package stuck

// syscallNames is empty where strobe has no table: every syscall then
// reads as running, and only the CPU and the stacks decide.
var syscallNames = map[int]string{}
