package trace

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A session is a traced run's events, stored beside its details file so
// that a query works after the daemon restarts:
//
//	<dir>/<runId>.trace/spec.json     the Spec the tracers read
//	<dir>/<runId>.trace/out/          the tracers' event files
//	<dir>/<runId>.trace/session.jsonl one Header line, then the events
//
// The session id is the run id. Ingest merges the event files into
// session.jsonl and removes them.

// MaxSessionBytes bounds a session file; the earliest events are kept.
const MaxSessionBytes = 64 << 20

const (
	sessionFile = "session.jsonl"
	indexFile   = "index.gob"
	specFile    = "spec.json"
	outDir      = "out"
)

// Dir is the directory of session id in dir (the details directory).
func Dir(dir, id string) string { return filepath.Join(dir, id+".trace") }

// SpecPath is where the runner writes the session's Spec.
func SpecPath(dir, id string) string { return filepath.Join(Dir(dir, id), specFile) }

// OutDir is the Spec.Out of session id.
func OutDir(dir, id string) string { return filepath.Join(Dir(dir, id), outDir) }

// Header is the first line of a session file: the merged Meta of every
// event file, and what ingesting dropped.
type Header struct {
	Type        string `json:"type"` // "session"
	ID          string `json:"id"`
	ProjectRoot string `json:"projectRoot,omitempty"`
	// Start is the run's start in Unix ns; events' T count from it.
	Start   int64    `json:"start"`
	Tracer  string   `json:"tracer,omitempty"`
	Events  int      `json:"events"`
	Dropped int64    `json:"dropped,omitempty"`
	Matched []string `json:"matched,omitempty"`
	// Killed counts the event files whose tracer did not end (no meta
	// line): their process was killed, a hung test's with its run.
	Killed    int              `json:"killed,omitempty"`
	Unmatched []Unmatched      `json:"unmatched,omitempty"`
	Calls     map[string]int64 `json:"calls,omitempty"`
	Refused   string           `json:"refused,omitempty"`
	Warnings  []string         `json:"warnings,omitempty"`
}

// Sampled are the functions called more than FullCalls times, most called
// first, with their true counts.
func (h *Header) Sampled(full int) []FunctionCalls {
	var out []FunctionCalls
	for f, n := range h.Calls {
		if n > int64(full) {
			out = append(out, FunctionCalls{f, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Calls > out[j].Calls || out[i].Calls == out[j].Calls && out[i].Function < out[j].Function
	})
	return out
}

// FunctionCalls is a function's true call count.
type FunctionCalls struct {
	Function string
	Calls    int64
}

// Ingest merges the event files under out (events-*.jsonl) and the extra
// events the runner recorded itself (output lines, a crash) into one
// session file in sdir: events in time order, renumbered from 1 with their
// parents remapped, T made nanoseconds since start, bounded to maxEvents
// and maxBytes keeping the earliest. The event files are removed once the
// session is written.
func Ingest(sdir, id, projectRoot string, start int64, out string, extra []Event, maxEvents int, maxBytes int64) (*Header, error) {
	h := &Header{Type: "session", ID: id, ProjectRoot: projectRoot, Start: start}
	files, _ := filepath.Glob(filepath.Join(out, "events-*.jsonl"))
	sort.Strings(files)
	var all []keyed
	var metas []Meta
	var called []string // by the tracers that did not end
	bad := 0
	for i, f := range files {
		evs, meta, nbad, err := readEventFile(f)
		if err != nil {
			h.Warnings = append(h.Warnings, fmt.Sprintf("cannot read %s: %v", filepath.Base(f), err))
			continue
		}
		bad += nbad
		if meta != nil {
			metas = append(metas, *meta)
		} else if len(evs) > 0 {
			// Killed with its process (a hung test that strobe stopped):
			// what it matched is known by the calls it recorded.
			h.Warnings = append(h.Warnings, fmt.Sprintf("%s has no meta line: its tracer did not end (killed?): its matched functions are only those called", filepath.Base(f)))
			h.Killed++
			for _, e := range evs {
				if e.Type == Enter && e.Function != "" {
					called = append(called, e.Function)
				}
			}
		}
		for _, e := range evs {
			all = append(all, keyed{e: e, file: i})
		}
	}
	for _, e := range extra {
		all = append(all, keyed{e: e, file: -1})
	}
	if bad > 0 {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%d unreadable event lines skipped", bad))
	}
	mergeMetas(h, metas)
	if len(called) > 0 {
		h.Matched = append(h.Matched, called...)
		slices.Sort(h.Matched)
		h.Matched = slices.Compact(h.Matched)
	}
	// Stable: within one file, events keep the tracer's order on ties.
	sort.SliceStable(all, func(i, j int) bool { return all[i].e.T < all[j].e.T })

	renum := make(map[[2]uint64]uint64, len(all))
	ix := newIndex()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	body := &bytes.Buffer{}
	var kept int
	for _, k := range all {
		e := k.e
		if kept >= maxEvents {
			h.Dropped++
			continue
		}
		key := [2]uint64{uint64(k.file + 1), e.ID}
		id := uint64(kept + 1)
		if e.Parent != 0 {
			e.Parent = renum[[2]uint64{uint64(k.file + 1), e.Parent}] // 0 when the parent was dropped
		}
		e.ID = id
		e.T -= start
		buf.Reset()
		if err := enc.Encode(e); err != nil {
			h.Dropped++
			continue
		}
		if int64(body.Len()+buf.Len()) > maxBytes {
			h.Dropped++
			maxEvents = kept // nothing later may come in after a gap
			continue
		}
		if k.file >= 0 && e.ID != 0 {
			renum[key] = id
		}
		ix.add(&e, int64(body.Len()))
		body.Write(buf.Bytes())
		kept++
	}
	h.Events = kept
	h.Warnings = append(h.Warnings, unreadableWatches(all)...)
	if w := neverCalled(h, all); w != "" {
		h.Warnings = append(h.Warnings, w)
	}
	ix.end(int64(body.Len()))
	if err := writeSession(sdir, h, body.Bytes(), ix); err != nil {
		return h, err
	}
	for _, f := range files {
		os.Remove(f)
	}
	os.Remove(out)
	return h, nil
}

// unreadableWatches are a warning for each watch no read of which had a
// value (a variable the program does not have, a misspelt name), with the
// tracer's reason: once in the answer, where each event only repeats it.
func unreadableWatches(all []keyed) []string {
	type reads struct {
		n, ok int
		why   string
	}
	by := map[string]*reads{}
	var names []string
	for _, k := range all {
		for _, w := range k.e.Watches {
			r := by[w.Name]
			if r == nil {
				r = &reads{}
				by[w.Name] = r
				names = append(names, w.Name)
			}
			r.n++
			if w.Unavailable == "" {
				r.ok++
			} else if r.why == "" {
				r.why = w.Unavailable
			}
		}
	}
	var out []string
	for _, name := range names {
		if r := by[name]; r.ok == 0 {
			out = append(out, fmt.Sprintf("watch %s: unavailable at all %d reads (%s): check its name, or watch an argument or a global of the functions it is on", name, r.n, clip(strings.Join(strings.Fields(r.why), " "), 120)))
		}
	}
	return out
}

// neverCalled is a warning naming the matched functions the tests that
// ran never called, "" when each was: a pattern that names the right
// function of a test that does not reach it reads like a trace of calls
// that returned nothing. Those left uncalled beside called ones are
// named only when they are few (a wildcard matches many a test does not
// call); none called at all is said whatever their number.
func neverCalled(h *Header, all []keyed) string {
	if h.Refused != "" || len(h.Matched) == 0 {
		return ""
	}
	called := map[string]bool{}
	for f, n := range h.Calls {
		called[f] = n > 0
	}
	for _, k := range all {
		if k.e.Type == Enter {
			called[k.e.Function] = true
		}
	}
	var never []string
	for _, f := range h.Matched {
		if !called[f] {
			never = append(never, f)
		}
	}
	switch {
	case len(never) == len(h.Matched):
		return fmt.Sprintf("no matched function was called (%s): the tests that ran do not reach them; trace what the failing test calls (its suggested_traces), or run the test that calls them", clip(strings.Join(never, ", "), 200))
	case len(never) > 0 && len(never) <= 5:
		return fmt.Sprintf("matched and never called by the tests that ran: %s", strings.Join(never, ", "))
	}
	return ""
}

type keyed struct {
	e    Event
	file int // index of the event file, -1 for the runner's own events
}

// readEventFile reads one tracer's file. A line that is not an event (a
// line cut by a killed tracer) is counted, not fatal.
func readEventFile(path string) ([]Event, *Meta, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	var evs []Event
	var meta *Meta
	bad := 0
	r := bufio.NewReaderSize(f, 256<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if bytes.Contains(line, []byte(`"type":"meta"`)) || bytes.Contains(line, []byte(`"type": "meta"`)) {
				var m Meta
				if json.Unmarshal(line, &m) == nil && m.Type == MetaType {
					meta = &m
					continue
				}
			}
			var e Event
			if json.Unmarshal(line, &e) != nil || e.Type == "" {
				bad++
			} else {
				evs = append(evs, e)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return evs, meta, bad, err
		}
	}
	return evs, meta, bad, nil
}

// nearestOfAll ranks the nearest names every process gave for a pattern:
// each test binary has its own functions, and the first one's list (a
// cargo lib's unit tests, without the function) may hold nothing close,
// as semver::eval::matches_tlide's "semver::main" did. Names are ordered
// by nearestScore, ties in the processes' own order (project names first).
func nearestOfAll(raw string, names []string) []string {
	var uniq []string
	for _, name := range names {
		if !slices.Contains(uniq, name) {
			uniq = append(uniq, name)
		}
	}
	if len(uniq) == 0 {
		return nil
	}
	if p, err := Compile(raw); err == nil {
		want := strings.ToLower(lastWord(p))
		score := func(name string) int { return nearestScore(want, name) }
		slices.SortStableFunc(uniq, func(a, b string) int { return score(a) - score(b) })
		if best := score(uniq[0]); best <= max(2, len(want)/2) {
			uniq = slices.DeleteFunc(uniq, func(n string) bool { return score(n) > max(2, len(want)/2) })
		}
	}
	return uniq[:min(len(uniq), 5)]
}

// mergeMetas folds the Meta lines of all event files into h: one tracer,
// every matched function, patterns no file matched, summed counts.
func mergeMetas(h *Header, metas []Meta) {
	unmatched := map[string]int{}
	nearest := map[string][]string{}
	for _, m := range metas {
		if h.Tracer == "" {
			h.Tracer = m.Tracer
		}
		h.Matched = append(h.Matched, m.Matched...)
		for _, u := range m.Unmatched {
			unmatched[u.Pattern]++
			nearest[u.Pattern] = append(nearest[u.Pattern], u.Nearest...)
		}
		for f, n := range m.Calls {
			if h.Calls == nil {
				h.Calls = map[string]int64{}
			}
			h.Calls[f] += n
		}
		h.Dropped += m.Dropped
		if h.Refused == "" {
			h.Refused = m.Refused
		}
		h.Warnings = append(h.Warnings, m.Warnings...)
	}
	slices.Sort(h.Matched)
	h.Matched = slices.Compact(h.Matched)
	slices.Sort(h.Warnings)
	h.Warnings = slices.Compact(h.Warnings)
	// A worker process may match what another did not: a pattern is
	// unmatched only when every file says so.
	for p, n := range unmatched {
		if n == len(metas) {
			h.Unmatched = append(h.Unmatched, Unmatched{Pattern: p, Nearest: nearestOfAll(p, nearest[p])})
		}
	}
	sort.Slice(h.Unmatched, func(i, j int) bool { return h.Unmatched[i].Pattern < h.Unmatched[j].Pattern })
}

// writeSession writes the session file atomically.
// The index is written first: a session file is only ever read beside
// the index of its own events.
func writeSession(sdir string, h *Header, body []byte, ix *index) error {
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		return fmt.Errorf("writing the trace session: %w", err)
	}
	head, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("writing the trace session: %w", err)
	}
	ix.Base = int64(len(head) + 1)
	if err := writeAtomic(sdir, indexFile, func(w io.Writer) error { return gob.NewEncoder(w).Encode(ix) }); err != nil {
		return err
	}
	return writeAtomic(sdir, sessionFile, func(w io.Writer) error {
		w.Write(head)
		w.Write([]byte{'\n'})
		_, err := w.Write(body)
		return err
	})
}

// writeAtomic writes dir/name through a temporary file and a rename.
func writeAtomic(dir, name string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing the trace session: %w", err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 256<<10)
	if err := write(w); err != nil {
		f.Close()
		return fmt.Errorf("writing the trace session: %w", err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing the trace session: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the trace session: %w", err)
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("writing the trace session: %w", err)
	}
	return nil
}

// Session is an opened session: its header and the index of its events;
// an event itself is read from the file when a query answers it.
type Session struct {
	Header Header
	path   string
	ix     *index
}

// Len is the number of events; their ids run from 1 to Len.
func (s *Session) Len() int { return len(s.ix.T) }

// Events reads the events of ids (ascending) from the session file.
func (s *Session) Events(ids []uint64) ([]Event, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, fmt.Errorf("reading trace session: %w", err)
	}
	defer f.Close()
	out := make([]Event, 0, len(ids))
	var buf []byte
	for _, id := range ids {
		i := int(id) - 1
		off, end := s.ix.Base+s.ix.Offsets[i], s.ix.Base+s.ix.Offsets[i+1]
		buf = slices.Grow(buf[:0], int(end-off))[:end-off]
		if _, err := f.ReadAt(buf, off); err != nil {
			return nil, fmt.Errorf("trace session %s is damaged (event %d): rerun the test with tracePatterns", s.path, id)
		}
		var e Event
		if err := json.Unmarshal(buf, &e); err != nil || e.ID != id {
			return nil, fmt.Errorf("trace session %s is damaged (event %d): rerun the test with tracePatterns", s.path, id)
		}
		out = append(out, e)
	}
	return out, nil
}

// ErrNoSession is a session not on disk: never traced, or pruned.
var ErrNoSession = errors.New("no trace session")

// cache keeps the last sessions opened: an agent asks several queries of
// the session it just made. An index is a few bytes an event.
var cache = struct {
	sync.Mutex
	entries []cached
}{}

const cacheSize = 4

type cached struct {
	path string
	mod  int64
	size int64
	s    *Session
}

// Load opens session id (or a unique prefix of it) in dir (the details
// directory), from the cache when its file has not changed.
func Load(dir, id string) (*Session, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return nil, fmt.Errorf("%w %q: give the sessionId of a traced debug_test answer", ErrNoSession, id)
	}
	id, err := resolve(dir, id)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(Dir(dir, id), sessionFile)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w %q in %s (never traced, or pruned with its run): rerun the test with tracePatterns for a new one", ErrNoSession, id, dir)
	}
	cache.Lock()
	for i, c := range cache.entries {
		if c.path == path && c.mod == fi.ModTime().UnixNano() && c.size == fi.Size() {
			cache.entries = append(append([]cached{c}, cache.entries[:i]...), cache.entries[i+1:]...)
			cache.Unlock()
			return c.s, nil
		}
	}
	cache.Unlock()
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	cache.Lock()
	cache.entries = slices.DeleteFunc(cache.entries, func(c cached) bool { return c.path == path })
	cache.entries = append([]cached{{path, fi.ModTime().UnixNano(), fi.Size(), s}}, cache.entries...)
	if len(cache.entries) > cacheSize {
		cache.entries = cache.entries[:cacheSize]
	}
	cache.Unlock()
	return s, nil
}

func open(path string) (*Session, error) {
	damaged := func(what string) error {
		return fmt.Errorf("trace session %s is damaged (%s): rerun the test with tracePatterns", path, what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading trace session: %w", err)
	}
	head, err := bufio.NewReaderSize(f, 64<<10).ReadBytes('\n')
	f.Close()
	s := &Session{path: path}
	if err != nil || json.Unmarshal(head, &s.Header) != nil || s.Header.Type != "session" {
		return nil, damaged("bad header")
	}
	ixf, err := os.Open(filepath.Join(filepath.Dir(path), indexFile))
	if err != nil {
		return nil, damaged("no index")
	}
	defer ixf.Close()
	var ix index
	if err := gob.NewDecoder(bufio.NewReaderSize(ixf, 256<<10)).Decode(&ix); err != nil || !ix.valid(s.Header.Events, int64(len(head))) {
		return nil, damaged("bad index")
	}
	s.ix = &ix
	return s, nil
}

// Remove deletes session id, with whatever a tracer left; the details
// package calls it when it prunes the run's record.
func Remove(dir, id string) error { return os.RemoveAll(Dir(dir, id)) }

// Size is the bytes session id holds on disk, 0 when there is none.
func Size(dir, id string) int64 {
	fi, err := os.Stat(filepath.Join(Dir(dir, id), sessionFile))
	if err != nil {
		return 0
	}
	return fi.Size()
}
