// Package details owns the details file: the full JSON record of one run
// (every test with its output, the raw output tails, the exit and crash
// classification, timings), the per-user directory it lives in, atomic
// writes, retention, and reading records back.
package details

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"strobe/report"
	"strobe/trace"
)

// Retention: the newest keepRuns runs, none older than keepFor, and no
// more than keepBytes in all (a run that floods its output leaves a record
// of 20 MiB). Runs prune only when something may be due (prunegate.go):
// up to keepRuns+pruneSlack records, and records past keepFor for up to
// pruneEvery, may be there between two prunes.
const (
	keepRuns  = 200
	keepFor   = 7 * 24 * time.Hour
	keepBytes = 512 << 20
)

// Record is one run's details file. Fields are only ever added.
type Record struct {
	Response    report.Response   `json:"response"`
	ProjectRoot string            `json:"project_root"`
	Adapter     string            `json:"adapter"`
	Level       string            `json:"level,omitempty"`
	Test        string            `json:"test,omitempty"`
	Argv        []string          `json:"argv,omitempty"`
	Dir         string            `json:"dir,omitempty"`
	Env         map[string]string `json:"env,omitempty"` // the request's overrides only
	TimeoutMS   int64             `json:"timeout_ms"`
	Started     time.Time         `json:"started"`
	TestsBegan  *time.Time        `json:"tests_began,omitempty"`
	Finished    time.Time         `json:"finished"`
	Exit        *report.Exit      `json:"exit,omitempty"`
	Tests       []report.Test     `json:"tests"`
	// Indicators name what the adapter noticed about the output itself:
	// unreadable_test_events when the framework's totals count tests
	// whose lines could not be read.
	Indicators []string `json:"indicators,omitempty"`
	Stdout     Stream   `json:"stdout"`
	Stderr     Stream   `json:"stderr"`
	// Commit is the project's git commit (git rev-parse HEAD), when it is
	// a git repository; Command the request's command line. strobe merge
	// refuses shards that differ in them.
	Commit  string `json:"commit,omitempty"`
	Command string `json:"command,omitempty"`
}

// Stream is the kept tail of one output stream.
type Stream struct {
	Text      string `json:"text"`
	Bytes     int64  `json:"bytes"` // everything the stream carried
	Truncated bool   `json:"truncated"`
}

// Dir is the default directory of details files:
// ${TMPDIR:-/tmp}/strobe-<uid>/tests.
func Dir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("strobe-%d", os.Getuid()), "tests")
}

// Path is where the record of runID lives in dir.
func Path(dir, runID string) string { return filepath.Join(dir, runID+".json") }

// JUnitPath is where the JUnit report of runID lives in dir, beside its
// record; it goes when the record is pruned.
func JUnitPath(dir, runID string) string { return filepath.Join(dir, runID+".junit.xml") }

// EnsureDir creates dir as Write does, for a file written beside a record
// before it.
func EnsureDir(dir string) error { return ensureDir(dir) }

// ensureDir creates dir and its parent 0700, or checks that they are real
// directories owned by us and closed to others. In a shared /tmp, another
// user could plant a symlink or a directory to read or redirect our files.
func ensureDir(dir string) error {
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("creating details directory: %w", err)
		}
		fi, err := os.Lstat(d)
		if err != nil {
			return fmt.Errorf("checking details directory: %w", err)
		}
		if !fi.IsDir() || fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("details directory %s is not a directory (a symlink?): remove it", d)
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
			return fmt.Errorf("details directory %s belongs to uid %d, not to you: remove it or set TMPDIR", d, st.Uid)
		}
		if fi.Mode()&os.ModeSticky != 0 {
			// A shared directory (/tmp itself): never closed to others.
			return fmt.Errorf("details directory %s is a shared directory (sticky, like /tmp): give a directory of your own", d)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(d, 0o700); err != nil {
				return fmt.Errorf("closing details directory %s to others: %w", d, err)
			}
		}
	}
	return nil
}

// writerPool keeps Write's buffer from run to run (the daemon writes a
// record for every run).
var writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// Write stores rec in dir as <runId>.json atomically (temp file, rename),
// then prunes old records. It returns the file's path. There is no fsync:
// the rename alone keeps readers from a half-written file, and a record in
// a temporary directory need not outlive a power cut, while an fsync costs
// every answer milliseconds, tens of them on a busy disk.
func Write(dir string, rec *Record) (string, error) {
	if err := ensureDir(dir); err != nil {
		return "", err
	}
	path := Path(dir, rec.Response.RunID)
	rec.Response.Details = path
	f, err := os.CreateTemp(dir, ".tmp-*.json")
	if err != nil {
		return "", fmt.Errorf("writing details: %w", err)
	}
	defer os.Remove(f.Name()) // after a successful rename this fails harmlessly
	w := writerPool.Get().(*bufio.Writer)
	w.Reset(f)
	defer func() { w.Reset(nil); writerPool.Put(w) }()
	if err := encode(w, rec); err != nil {
		f.Close()
		return "", fmt.Errorf("writing details: %w", err)
	}
	size, _ := f.Seek(0, io.SeekCurrent)
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("writing details: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return "", fmt.Errorf("writing details: %w", err)
	}
	if now := time.Now(); needPrune(dir, size, now) {
		// Marked first: a record written while this one prunes counts
		// towards the next prune.
		markPruned(dir, now)
		prune(dir, now)
	}
	return path, nil
}

// recordHead is a record without its tests and streams: their fields
// shadow the embedded ones of the same JSON name and, nil and omitempty,
// leave them out.
type recordHead struct {
	*Record
	Tests  *[]report.Test `json:"tests,omitempty"`
	Stdout *Stream        `json:"stdout,omitempty"`
	Stderr *Stream        `json:"stderr,omitempty"`
}

// Warm builds encoding/json's encoders for a record, once a process: a
// run calls it when its command starts, so that a new process (strobe test
// --no-daemon) does not build them after the command has ended, on the
// answer's path (0.3 ms of a 6 ms noop run).
func Warm() { warmOnce.Do(func() { json.Marshal(recordHead{Record: &Record{}}) }) }

var warmOnce sync.Once

// encode writes rec as compact JSON without ever holding the whole document:
// the tests and the output streams, up to 10 MiB each, are escaped straight
// into w, so writing a record costs little more memory than the record
// itself.
func encode(w *bufio.Writer, rec *Record) error {
	head, err := json.Marshal(recordHead{Record: rec})
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-1]) // without its closing brace
	w.WriteString(`,"tests":`)
	if err := writeTests(w, rec.Tests); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		s    *Stream
	}{{"stdout", &rec.Stdout}, {"stderr", &rec.Stderr}} {
		fmt.Fprintf(w, `,%q:{"text":`, s.name)
		if err := writeString(w, s.s.Text); err != nil {
			return err
		}
		fmt.Fprintf(w, `,"bytes":%d,"truncated":%t}`, s.s.Bytes, s.s.Truncated)
	}
	w.WriteString("}\n")
	return w.Flush()
}

// writeTests writes tests as a JSON array, as json.Marshal would: a run's
// thousands of tests were most of the details file's encoding, through
// reflection.
func writeTests(w *bufio.Writer, tests []report.Test) error {
	if tests == nil {
		_, err := w.WriteString("null")
		return err
	}
	scratch := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(scratch)
	buf := append((*scratch)[:0], '[')
	for i := range tests {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendTest(buf, &tests[i]); err != nil {
			return err
		}
		if len(buf) >= 16<<10 {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	buf = append(buf, ']')
	_, err := w.Write(buf)
	if cap(buf) <= 1<<20 { // one test's big output is not kept for the next
		*scratch = buf
	}
	return err
}

// appendTest appends t as json.Marshal writes it. A test with a failure
// or attempts, a few in a run, goes through json.Marshal; the rest is
// written here (TestAppendTestFields keeps the two in step).
func appendTest(dst []byte, t *report.Test) ([]byte, error) {
	if t.Failure != nil || len(t.Attempts) > 0 {
		b, err := json.Marshal(t)
		return append(dst, b...), err
	}
	dst = append(dst, `{"name":"`...)
	dst = append(appendEscaped(dst, t.Name), '"')
	if t.Suite != "" {
		dst = append(dst, `,"suite":"`...)
		dst = append(appendEscaped(dst, t.Suite), '"')
	}
	dst = append(dst, `,"status":"`...)
	dst = append(appendEscaped(dst, string(t.Status)), '"')
	dst = append(dst, `,"duration_ms":`...)
	dst = strconv.AppendInt(dst, t.DurationMS, 10)
	if t.Output != "" {
		dst = append(dst, `,"output":"`...)
		dst = append(appendEscaped(dst, t.Output), '"')
	}
	if t.OutputTruncated {
		dst = append(dst, `,"output_truncated":true`...)
	}
	if t.Flaky {
		dst = append(dst, `,"flaky":true`...)
	}
	return append(dst, '}'), nil
}

// writeString writes s as a JSON string into w, escaped byte for byte as
// encoding/json escapes it (HTML characters, U+2028 and U+2029, invalid
// UTF-8 as U+FFFD), a chunk at a time through one scratch buffer: a stream
// of megabytes went through json.Marshal at 290 MB/s, with a copy of each
// chunk. A chunk ends on a rune boundary so no character is split.
func writeString(w *bufio.Writer, s string) error {
	const chunk = 16 << 10
	scratch := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(scratch)
	w.WriteByte('"')
	for len(s) > 0 {
		n := min(chunk, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		*scratch = appendEscaped((*scratch)[:0], s[:n])
		w.Write(*scratch)
		s = s[n:]
	}
	return w.WriteByte('"')
}

// scratchPool holds the buffers writeString and writeTests escape into:
// an escaped chunk is at most six times its length.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 6*(16<<10)+8); return &b }}

// appendEscaped appends s to dst escaped as inside a JSON string, following
// encoding/json's appendString.
func appendEscaped(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if jsonSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes encoding/json writes as they are: from
// the space up, DEL included, but for the quote, the backslash and <, >
// and &.
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		safe[b] = !strings.ContainsRune(`"\\<>&`, b)
	}
	return safe
}()

// Entry is a run listed in the details directory.
type Entry struct {
	RunID   string
	Path    string
	ModTime time.Time
	Size    int64
}

// List returns the runs in dir, newest first.
func List(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // pruned meanwhile
		}
		out = append(out, Entry{RunID: strings.TrimSuffix(name, ".json"), Path: filepath.Join(dir, name), ModTime: fi.ModTime(), Size: fi.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ModTime.After(out[j].ModTime) })
	return out, nil
}

// prune moves the records past the retention limits into the trash
// (trash.go) and empties it in the background; the returned group ends when
// the trash is empty (tests wait for it).
func prune(dir string, now time.Time) *sync.WaitGroup {
	entries, err := List(dir)
	if err != nil {
		return &sync.WaitGroup{}
	}
	leftover := trashLen(dir)
	var total int64
	for i, e := range entries {
		total += e.Size + trace.Size(dir, e.RunID)
		// The newest record always stays, however large.
		if i > 0 && (i >= keepRuns || now.Sub(e.ModTime) > keepFor || total > keepBytes) {
			discard(dir, e.Path)
			discard(dir, JUnitPath(dir, e.RunID))
			discard(dir, trace.Dir(dir, e.RunID)) // a traced run's session goes with it
		}
	}
	wg := emptyTrash(dir)
	if leftover > maxTrash {
		wg.Wait()
	}
	return wg
}

// Read loads a record by run id (a unique prefix is enough) or by path.
func Read(dir, idOrPath string) (*Record, error) {
	path := idOrPath
	if !strings.ContainsRune(idOrPath, filepath.Separator) {
		entries, err := List(dir)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, e := range entries {
			if strings.HasPrefix(e.RunID, idOrPath) {
				found = append(found, e.Path)
			}
		}
		switch len(found) {
		case 0:
			return nil, fmt.Errorf("no run %q in %s: `strobe runs` lists the recent ones", idOrPath, dir)
		case 1:
			path = found[0]
		default:
			return nil, fmt.Errorf("run id %q is ambiguous (%d runs): give more of it", idOrPath, len(found))
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return &rec, nil
}

// Summary is the head of a record: enough to list a run without reading its
// (possibly large) tests and output.
type Summary struct {
	Response    report.Response `json:"response"`
	ProjectRoot string          `json:"project_root"`
	Adapter     string          `json:"adapter"`
	Level       string          `json:"level,omitempty"`
	Test        string          `json:"test,omitempty"`
}

// openRecord opens the record at path for reading field by field: the
// decoder is past the record's opening brace.
func openRecord(path string) (*os.File, *json.Decoder, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(f)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		f.Close()
		return nil, nil, fmt.Errorf("reading %s: not a details file", path)
	}
	return f, dec, nil
}

// ReadSummary reads the head of the record at path. Record's field order
// puts these first, so decoding stops long before the output tails.
func ReadSummary(path string) (*Summary, error) {
	f, dec, err := openRecord(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var s Summary
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		var dst any
		switch t {
		case "response":
			dst = &s.Response
		case "project_root":
			dst = &s.ProjectRoot
		case "adapter":
			dst = &s.Adapter
		case "level":
			dst = &s.Level
		case "test":
			dst = &s.Test
		default:
			return &s, nil // past the head
		}
		if err := dec.Decode(dst); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
	}
	return &s, nil
}

// PassedDurations reads how long each test that passed took in the record
// at path, by name, and the longest any test took that passed or failed
// (a stuck test's time is strobe's wait, not the test's). The tests come
// before the output streams, so reading stops there, however much the run
// printed.
func PassedDurations(path string) (took map[string]time.Duration, slowest time.Duration, err error) {
	f, dec, err := openRecord(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, 0, fmt.Errorf("reading %s: %w", path, err)
		}
		if t != "tests" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, 0, fmt.Errorf("reading %s: %w", path, err)
			}
			continue
		}
		var tests []struct {
			Name       string            `json:"name"`
			Status     report.TestStatus `json:"status"`
			DurationMS int64             `json:"duration_ms"`
		}
		if err := dec.Decode(&tests); err != nil {
			return nil, 0, fmt.Errorf("reading %s: %w", path, err)
		}
		took = map[string]time.Duration{}
		for _, t := range tests {
			d := time.Duration(t.DurationMS) * time.Millisecond
			switch t.Status {
			case report.TestPassed:
				took[t.Name] = d
			case report.TestFailed:
			default:
				continue
			}
			slowest = max(slowest, d)
		}
		return took, slowest, nil
	}
	return nil, 0, nil
}
