package daemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestChecked(t *testing.T) {
	type testCase struct {
		name   string
		in     string
		pass   string // what the SDK gets to read
		answer string // what the peer is told, "" for nothing
	}
	for _, tc := range []testCase{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", ""},
		{"blank lines", "\n  \n" + `{"jsonrpc":"2.0","method":"x"}` + "\r\n", `{"jsonrpc":"2.0","method":"x"}` + "\n", ""},
		{"garbage", "nope\n", "", `"code":-32700`},
		{"cut JSON", `{"jsonrpc":"2.0","id":3,` + "\n", "", `"code":-32700`},
		{"empty batch", "[]\n", "", `"code":-32600`},
		{"not JSON-RPC", `{"id":4,"hello":1}` + "\n", "", `"id":4`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]` + "\n", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]` + "\n", ""},
		{"bad batch member", `[{"jsonrpc":"2.0","id":1,"method":"a"},{"x":1}]` + "\n", "", `"code":-32600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var answers bytes.Buffer
			c := newChecked(bufio.NewReader(strings.NewReader(tc.in)), &answers)
			got, err := io.ReadAll(c)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.pass {
				t.Errorf("passed %q, want %q", got, tc.pass)
			}
			if tc.answer == "" && answers.Len() > 0 || !strings.Contains(answers.String(), tc.answer) {
				t.Errorf("answered %q, want %q", answers.String(), tc.answer)
			}
			if answers.Len() > 0 {
				// A JSON-RPC error response; its id is null when the
				// request's could not be read (the SDK's decoder refuses
				// those, so it cannot check them).
				var m struct {
					Version string `json:"jsonrpc"`
					ID      any    `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(answers.Bytes(), &m); err != nil || m.Version != "2.0" || m.Error.Code == 0 || m.Error.Message == "" {
					t.Errorf("the answer is not a JSON-RPC error: %v %+v", err, m)
				}
				if m.ID != nil {
					if _, err := jsonrpc.DecodeMessage(bytes.TrimSpace(answers.Bytes())); err != nil {
						t.Errorf("the answer is not a JSON-RPC message: %v", err)
					}
				}
			}
		})
	}
}

func TestPaths(t *testing.T) {
	if _, err := PathsIn("/tmp/short"); err != nil {
		t.Errorf("short home: %v", err)
	}
	deep := "/tmp/" + strings.Repeat("x", 100)
	if _, err := PathsIn(deep); err == nil || !strings.Contains(err.Error(), HomeEnv) {
		t.Errorf("deep home: %v, want an error naming %s", err, HomeEnv)
	}
}

func TestDetailsDirFollowsTheClient(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"HOME=/h", "TMPDIR=/var/tmp/x"}, "/var/tmp/x"},
		{[]string{"HOME=/h"}, "/tmp"},
		{[]string{"TMPDIR="}, "/tmp"},
	} {
		if got := detailsDirFor(tc.env); !strings.HasPrefix(got, tc.want+"/strobe-") || !strings.HasSuffix(got, "/tests") {
			t.Errorf("%v: %s, want under %s", tc.env, got, tc.want)
		}
	}
}

func TestSessionNeverUsesTheDaemonsEnvironment(t *testing.T) {
	s := newSession(&Daemon{}, Hello{})
	if s.env == nil {
		t.Fatal("a nil environment makes the runner use the daemon's")
	}
	if len(s.env) != 1 || !strings.HasPrefix(s.env[0], OwnerEnv+"=") {
		t.Errorf("env = %v, want only the owner mark", s.env)
	}
	s = newSession(&Daemon{}, Hello{Env: []string{"A=1", OwnerEnv + "=1", "B=2"}})
	if want := []string{"A=1", "B=2", OwnerEnv + "=" + strconv.Itoa(os.Getpid())}; strings.Join(s.env, " ") != strings.Join(want, " ") {
		t.Errorf("env = %v, want %v", s.env, want)
	}
}

func TestLogIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	r, err := openRotating(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 99) + "\n")
	for range 50 {
		r.Write(line)
	}
	for _, p := range []string{path, path + ".1"} {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > 1000 {
			t.Errorf("%s: %v, size over the bound", p, err)
		}
	}
}

func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("a", 5000)+"\nrest"), 16)
	if l, err := readLine(r, 10000); err != nil || len(l) != 5000 {
		t.Errorf("long line: %d %v", len(l), err)
	}
	r = bufio.NewReaderSize(strings.NewReader(strings.Repeat("a", 5000)+"\n"), 16)
	if _, err := readLine(r, 100); err == nil {
		t.Error("a line over the bound was read")
	}
}

// TestBuildID: the id read from this test binary is the one go reads.
func TestBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); BuildID() != want {
		t.Errorf("BuildID() = %q, want %q", BuildID(), want)
	}
}

// A STROBE_HOME that users share (/tmp itself: sticky, writable by all) is
// refused with what to do, and left as it was: closing it to others once
// broke every other user's programs on the machine. A directory of ours
// open to others is closed.
func TestHomeNeverClosesASharedDirectory(t *testing.T) {
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	err := ensureHome(shared)
	if err == nil || !strings.Contains(err.Error(), "shared directory") || !strings.Contains(err.Error(), HomeEnv) {
		t.Errorf("ensureHome(a sticky 1777 directory) = %v, want a refusal naming %s", err, HomeEnv)
	}
	if fi, _ := os.Stat(shared); fi.Mode()&os.ModeSticky == 0 || fi.Mode().Perm() != 0o777 {
		t.Errorf("its mode is now %v, want it untouched (1777)", fi.Mode())
	}
	open := t.TempDir()
	os.Chmod(open, 0o755)
	if err := ensureHome(open); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o700 {
		t.Errorf("a home of ours open to others is %v, want 0700", fi.Mode().Perm())
	}
}

// TestMismatch: a daemon of another build is named by what differs, never
// "version dev from version dev".
func TestMismatch(t *testing.T) {
	if msg := Mismatch(Welcome{PID: 7, Version: "dev", Build: BuildID()}, "dev"); msg != "" {
		t.Errorf("this build: %q, want nothing", msg)
	}
	for _, c := range []struct{ daemon, cli, want string }{
		{"dev", "dev", "is another build of this strobe's version (dev)"},
		{"0.3.0", "0.4.0", "is a different build (version 0.3.0) from this strobe (version 0.4.0)"},
	} {
		msg := Mismatch(Welcome{PID: 7, Version: c.daemon, Build: "other"}, c.cli)
		if !strings.Contains(msg, "daemon (pid 7) "+c.want) || !strings.Contains(msg, "run `strobe stop`") {
			t.Errorf("daemon %s, strobe %s: %q, want %q", c.daemon, c.cli, msg, c.want)
		}
	}
}
