package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// HomeEnv names the variable that moves strobe's per-user directory.
const HomeEnv = "STROBE_HOME"

// Paths are the files of one STROBE_HOME.
type Paths struct {
	Home   string
	Socket string // strobe.sock, 0600
	Lock   string // strobe.lock: flock, one daemon per user; holds the daemon's pid
	Log    string // daemon.log, zap JSON
}

// maxSocketPath is the longest path bind(2) takes: sun_path is 108 bytes on
// Linux and 104 on the BSDs and macOS, NUL included.
func maxSocketPath() int {
	if runtime.GOOS == "linux" {
		return 107
	}
	return 103
}

// Home is $STROBE_HOME, or ~/.strobe.
func Home() (string, error) {
	if h := os.Getenv(HomeEnv); h != "" {
		return filepath.Abs(h)
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding strobe's directory: %w: set %s or HOME", err, HomeEnv)
	}
	return filepath.Join(u, ".strobe"), nil
}

// PathsIn returns the files of home. A socket path the kernel would
// truncate is an error naming the remedy, never a truncated bind.
func PathsIn(home string) (Paths, error) {
	p := Paths{
		Home:   home,
		Socket: filepath.Join(home, "strobe.sock"),
		Lock:   filepath.Join(home, "strobe.lock"),
		Log:    filepath.Join(home, "daemon.log"),
	}
	if n := len(p.Socket); n > maxSocketPath() {
		return p, fmt.Errorf("socket path %s is %d bytes, longer than the %d a Unix socket allows: set %s to a shorter directory", p.Socket, n, maxSocketPath(), HomeEnv)
	}
	return p, nil
}

// DefaultPaths is PathsIn(Home()).
func DefaultPaths() (Paths, error) {
	h, err := Home()
	if err != nil {
		return Paths{}, err
	}
	return PathsIn(h)
}

// ensureHome creates home 0700, or checks that it is a real directory owned
// by us and closes it to others: the socket inside it is the daemon's door.
func ensureHome(home string) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", home, err)
	}
	fi, err := os.Lstat(home)
	if err != nil {
		return fmt.Errorf("checking %s: %w", home, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (a symlink?): remove it or set %s", home, HomeEnv)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d): set %s to a directory of yours", home, st.Uid, os.Getuid(), HomeEnv)
	}
	if shared(fi.Mode()) {
		// /tmp itself, or the like: closing it would break every other
		// user's programs, and anyone may plant files in it.
		return fmt.Errorf("%s is a shared directory (writable by everyone): set %s to a directory of your own, such as %s", home, HomeEnv, filepath.Join(home, fmt.Sprintf("strobe-%d", os.Getuid())))
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(home, 0o700); err != nil {
			return fmt.Errorf("closing %s to others: %w", home, err)
		}
	}
	return nil
}

// shared says whether a directory is one that users share (/tmp: sticky,
// or writable by everyone), which strobe must neither use as its own nor
// close to others.
func shared(m os.FileMode) bool { return m&os.ModeSticky != 0 || m.Perm()&0o002 != 0 }

// checkSocketOwner refuses a socket file that is not ours: someone else's
// daemon must never receive our environment.
func checkSocketOwner(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s is not a socket: remove it", path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return &AccessError{Msg: fmt.Sprintf("socket %s belongs to uid %d, not to you (uid %d): remove it or set %s", path, st.Uid, os.Getuid(), HomeEnv)}
	}
	return nil
}

// AccessError is a daemon or socket that belongs to someone else.
type AccessError struct{ Msg string }

func (e *AccessError) Error() string { return e.Msg }
