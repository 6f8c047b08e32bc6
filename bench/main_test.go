package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"strobe/internal/testutil"
)

// tmp is this run's scratch directory (the strobe binary); removed at exit.
var tmp string

func TestMain(m *testing.M) {
	var err error
	if tmp, err = os.MkdirTemp("", "strobe-bench-run-"); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	code := m.Run()
	printFigures()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// figures are the one-line summaries of the benchmarks, by benchmark name,
// printed together at the end of the run.
var figures struct {
	sync.Mutex
	order []string
	line  map[string]string
}

// record logs a benchmark's summary line and keeps it for the end of the
// run. A benchmark run again (another -count, another -benchtime) replaces
// its line.
func record(b *testing.B, format string, args ...any) {
	b.Helper()
	line := fmt.Sprintf(format, args...)
	b.Log(line)
	figures.Lock()
	defer figures.Unlock()
	if figures.line == nil {
		figures.line = map[string]string{}
	}
	if _, ok := figures.line[b.Name()]; !ok {
		figures.order = append(figures.order, b.Name())
	}
	figures.line[b.Name()] = line
}

func printFigures() {
	figures.Lock()
	defer figures.Unlock()
	if len(figures.order) == 0 {
		return
	}
	fmt.Println()
	fmt.Println("strobe benchmark figures:")
	for _, name := range figures.order {
		fmt.Printf("  %-28s %s\n", name, figures.line[name])
	}
}

// strobe builds cmd/strobe once per run into the scratch directory, so the
// binary measured is the source as it is now, whatever bin/strobe holds.
var strobe = sync.OnceValues(func() (string, error) {
	out := filepath.Join(tmp, "strobe.link")
	cmd := exec.Command("go", "build", "-ldflags", "-X main.version=bench", "-o", out, "./cmd/strobe")
	cmd.Dir = testutil.Root()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build does
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building strobe: %v\n%s", err, msg)
	}
	return settled(out, filepath.Join(tmp, "strobe"))
})

// settled copies the program at src to dst, as make build does, and
// returns dst. Go's linker writes a program through a memory map, and its
// pages stay in the page cache as the linker left them until they are
// evicted: each start of strobe took 0.3 to 0.8 ms longer here (a copy,
// written as files are, starts as fast as a program read back from disk).
// Every program compared (strobe, the peers) runs from a copy, so none
// pays for how recently it was built.
func settled(src, dst string) (string, error) {
	in, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(dst, in, 0o755); err != nil {
		return "", err
	}
	return dst, nil
}

func strobeBin(b *testing.B) string {
	b.Helper()
	p, err := strobe()
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// cacheDir is where generated projects live between runs:
// $TMPDIR/strobe-bench-<uid>/<name>-<hash of the files>. Files are written
// only when missing or different, so their build stays fresh.
func cacheDir(b *testing.B, name string, files map[string]string) string {
	b.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00%s", n, len(files[n]), files[n])
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("strobe-bench-%d", os.Getuid()), name+"-"+hex.EncodeToString(h.Sum(nil))[:12])
	for _, n := range names {
		p := filepath.Join(dir, n)
		if old, err := os.ReadFile(p); err == nil && string(old) == files[n] {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[n]), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// result is one timed run of a command.
type result struct {
	wall time.Duration
	// cpu is user and system time of the process and of the descendants
	// it reaped (wait4's rusage covers both on Linux).
	cpu            time.Duration
	stdout, stderr []byte
	exitCode       int
}

// timed runs argv in dir and measures its wall time, from just before the
// fork to the reaping of the process. Stdout goes to /dev/null unless
// keepStdout (strobe's JSON response is small and must be read); stderr is
// kept, to notice a rebuild.
func timed(dir string, env []string, keepStdout bool, argv ...string) (result, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stderr = &stderr
	if keepStdout {
		cmd.Stdout = &stdout
	} else {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return result{}, err
		}
		defer null.Close()
		cmd.Stdout = null
	}
	start := time.Now()
	err := cmd.Run()
	r := result{wall: time.Since(start), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if cmd.ProcessState != nil {
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exitCode = ee.ExitCode()
	case err != nil:
		return r, err
	}
	return r, nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func medianFloat(fs []float64) float64 {
	s := append([]float64(nil), fs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// loadavg is the first line of /proc/loadavg, to tell a busy machine.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// tail returns the last n bytes of b as a string, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}
