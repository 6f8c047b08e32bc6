package nodeinspect

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// IsNode says whether a process is a node runtime, from its executable
// (jest and vitest name their workers' titles, not their executables).
func IsNode(exe, name string) bool {
	base := filepath.Base(exe)
	if exe == "" {
		base = name
	}
	return base == "node" || base == "nodejs" || strings.HasPrefix(base, "node-") || strings.HasPrefix(base, "node2") || strings.HasPrefix(base, "node1")
}

// PortOption is what a run's NODE_OPTIONS gets so that every node process
// of the run opens its inspector, when asked to, on a port of its own:
// SIGUSR1 opens it on 127.0.0.1:9229 by default, which concurrent runs and
// a user's debugger would share.
const PortOption = "--inspect-port=0"

// WithPortOption returns NODE_OPTIONS with PortOption appended, or
// unchanged when the user chose an inspector port or host themselves
// (theirs wins; strobe then only uses an inspector already open).
func WithPortOption(nodeOptions string) string {
	for _, f := range strings.Fields(nodeOptions) {
		if strings.HasPrefix(f, "--inspect") || strings.HasPrefix(f, "--debug-port") {
			return nodeOptions
		}
	}
	return strings.TrimSpace(nodeOptions + " " + PortOption)
}

// privatePort says whether pid was started with PortOption, so that
// SIGUSR1 opens its inspector on a port of its own.
func privatePort(pid int) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("NODE_OPTIONS=")); ok {
			opts := strings.Fields(string(v))
			return len(opts) > 0 && containsLast(opts, PortOption)
		}
	}
	return false
}

// containsLast says whether the last --inspect-port option is want.
func containsLast(opts []string, want string) bool {
	last := ""
	for _, o := range opts {
		if strings.HasPrefix(o, "--inspect-port") {
			last = o
		}
	}
	return last == want
}

// listenPorts are the loopback TCP ports pid listens on: with
// --inspect-port=0 the inspector's port is known only from its socket (or
// the line node prints to stderr, which an adapter's reporter may not
// pass on). A test's own server is there too; /json/list tells them apart.
func listenPorts(pid int) []int {
	inodes := socketInodes(pid)
	if len(inodes) == 0 {
		return nil
	}
	var ports []int
	for _, table := range []string{"tcp", "tcp6"} {
		ports = append(ports, listenersIn("/proc/"+strconv.Itoa(pid)+"/net/"+table, inodes)...)
	}
	return ports
}

// socketInodes are the inodes of pid's open sockets.
func socketInodes(pid int) map[string]bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, e := range ents {
		link, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(link, "socket:["); ok {
			out[strings.TrimSuffix(ino, "]")] = true
		}
	}
	return out
}

// listenersIn reads a /proc/net/tcp table for loopback listeners (state
// 0A) whose inodes are among pid's sockets.
func listenersIn(path string, inodes map[string]bool) []int {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var ports []int
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
			continue
		}
		addr, portHex, ok := strings.Cut(fields[1], ":")
		if !ok || !loopback(addr) {
			continue
		}
		if port, err := strconv.ParseUint(portHex, 16, 16); err == nil {
			ports = append(ports, int(port))
		}
	}
	return ports
}

// loopback says whether a /proc/net/tcp address (hex, host byte order)
// is 127.0.0.1 or ::1.
func loopback(hex string) bool {
	return hex == "0100007F" || hex == "00000000000000000000000001000000"
}

// startTime is pid's start time (/proc/PID/stat's 22nd field), "" when
// unreadable: with the pid it names one process, a reused pid another.
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name, in parentheses, may hold spaces.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 {
		if f := strings.Fields(string(b[i+1:])); len(f) > 19 {
			return f[19]
		}
	}
	return ""
}

// age is how long ago a process started, from its start (startTime) and
// the system's uptime, both in clock ticks of 1/100 s (Linux's USER_HZ).
func age(startTicks string) (time.Duration, bool) {
	start, err := strconv.ParseInt(startTicks, 10, 64)
	if err != nil {
		return 0, false
	}
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(up*float64(time.Second)) - time.Duration(start)*10*time.Millisecond, true
}
