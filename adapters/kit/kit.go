// Package kit holds what adapters share: clipping messages, naming a
// signal and its crash type, paths inside the project, the commands an
// adapter runs itself. An adapter imports it; the contract (package
// adapters) does not.
package kit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"strobe/adapters"
	"strobe/internal/shell"
	"time"
)

// WalkLimited calls fn for the files under root down to depth levels,
// skipping hidden directories and those skip says to.
func WalkLimited(root string, depth int, fn func(string, fs.DirEntry), skip func(string) bool) {
	visited := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		visited++
		if visited > 20000 {
			return fs.SkipAll
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if strings.HasPrefix(d.Name(), ".") || strings.Count(rel, string(filepath.Separator)) >= depth || (skip != nil && skip(d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		fn(path, d)
		return nil
	})
}

// Within says whether file is dir or lies under it.
func Within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// FileExists says whether path is a file (not a directory).
func FileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// ToolCommand is exec.CommandContext for a program an adapter runs itself
// (a probe, cargo metadata): found on env's PATH and run with env, the
// client's, not the daemon's. A nil env means this process's.
func ToolCommand(ctx context.Context, env []string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if env != nil {
		if p, err := shell.LookPath(argv[0], env); err == nil {
			cmd.Path, cmd.Err = p, nil
		}
		cmd.Env = env
	}
	return cmd
}

// EnvValue is the last value of key in env, or this process's when env is nil.
func EnvValue(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	val := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			val = v
		}
	}
	return val
}

// DurationOf converts fractional seconds, as test frameworks print them.
func DurationOf(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)) }

// Usagef is a *adapters.UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &adapters.UsageError{Msg: fmt.Sprintf(format, args...)}
}
