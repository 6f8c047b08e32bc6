package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// otherUIDClient connects to socket as uid 65534 (nobody) and sends a hello;
// it prints the daemon's answer or the connect error.
const otherUIDClient = `
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("connect:", e.strerror); sys.exit(0)
try:
    s.sendall(b'{"strobe":1,"version":"x","build":"x","pid":1,"env":["STOLEN=1"]}\n')
except OSError:
    pass  # the daemon may refuse and close before reading the hello
print("answer:", s.makefile().readline().strip())
`

func TestOtherUserRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client under another uid")
	}
	// The system's python3: one under root's home (pyenv) is closed to nobody.
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found: .ci/run must install python3", py)
		}
		t.Skipf("%s not found", py)
	}
	home := strobeHome(t)
	r := strobe(t, true, "test", t.TempDir(), "--command", "echo ok 1 - x") // starts the daemon
	if r.code != 0 {
		t.Fatalf("%s %s", r.stdout, r.stderr)
	}
	sock := homePaths(t, home).Socket
	asNobody := func() string {
		cmd := exec.Command(py, "-c", otherUIDClient, sock)
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("client as uid 65534: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The modes keep another user out before the daemon even sees him.
	if out := asNobody(); !strings.Contains(out, "Permission denied") {
		t.Errorf("with STROBE_HOME 0700: %s, want permission denied", out)
	}
	// Opened by mistake, the daemon still refuses by peer credentials.
	os.Chmod(home, 0o711)
	os.Chmod(sock, 0o666)
	if out := asNobody(); !strings.Contains(out, "access denied") || !strings.Contains(out, "65534") {
		t.Errorf("with the socket open to all: %s, want the daemon's refusal", out)
	}
	os.Chmod(home, 0o700)
	// The daemon goes on serving its user.
	r = strobe(t, true, "test", t.TempDir(), "--command", "echo ok 1 - x")
	wantStatus(t, r, "passed", 0)
}
