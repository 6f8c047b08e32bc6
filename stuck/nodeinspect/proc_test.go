package nodeinspect

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListenersIn reads a /proc/net/tcp table as the kernel writes it:
// only loopback listeners among the process's own sockets count.
func TestListenersIn(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 651 1 000000000cc88469 100 0 0 10 0
   1: 0100007F:AAC9 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 848032 1 00000000b6497bfa 100 0 0 10 0
   2: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 900001 1 00000000b6497bfa 100 0 0 10 0
   3: 0100007F:AACA 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 848033 1 00000000b6497bfa 100 0 0 10 0
`
	path := filepath.Join(t.TempDir(), "tcp")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	// 651 listens on every address, 900001 is another process's, 848033
	// is a connection.
	got := listenersIn(path, map[string]bool{"651": true, "848032": true, "848033": true})
	if want := []int{0xAAC9}; !slices.Equal(got, want) {
		t.Errorf("listenersIn = %v, want %v", got, want)
	}
}

func TestIsNode(t *testing.T) {
	for _, tc := range []struct {
		exe, name string
		want      bool
	}{
		{"/usr/bin/node", "node", true},
		{"/home/u/.nvm/versions/node/v20.11.0/bin/node", "jest-worker", true},
		{"/usr/bin/nodejs", "nodejs", true},
		{"", "node", true},
		{"/usr/bin/python3", "python3", false},
		{"/usr/local/bin/bun", "bun", false},
		{"/usr/bin/nodemon", "nodemon", false},
	} {
		if got := IsNode(tc.exe, tc.name); got != tc.want {
			t.Errorf("IsNode(%q, %q) = %v, want %v", tc.exe, tc.name, got, tc.want)
		}
	}
}

func TestWithPortOption(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "--inspect-port=0",
		"--max-old-space-size=4096":     "--max-old-space-size=4096 --inspect-port=0",
		"--inspect-port=9333":           "--inspect-port=9333",
		"--inspect=127.0.0.1:0 --trace": "--inspect=127.0.0.1:0 --trace",
	} {
		if got := WithPortOption(in); got != want {
			t.Errorf("WithPortOption(%q) = %q, want %q", in, got, want)
		}
	}
}
