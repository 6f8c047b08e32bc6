package trace

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Query limits.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// Filter selects a session's events; every field set must hold. The zero
// Filter is the first DefaultLimit events.
type Filter struct {
	// Function: the qualified name equals FunctionEquals, contains
	// FunctionContains, matches the regular expression FunctionMatches.
	FunctionEquals   string `json:"functionEquals,omitempty"`
	FunctionContains string `json:"functionContains,omitempty"`
	FunctionMatches  string `json:"functionMatches,omitempty"`
	// File is a file name or the end of a path (parser.rs, src/parser.rs).
	File string `json:"file,omitempty"`
	// EventType is enter, exit, watch, stdout, stderr or crash.
	EventType string `json:"eventType,omitempty"`
	Thread    string `json:"thread,omitempty"`
	// ReturnEquals, ReturnIsNull and ReturnIsError select exits by their
	// return values.
	ReturnEquals  *string `json:"returnEquals,omitempty"`
	ReturnIsNull  bool    `json:"returnIsNull,omitempty"`
	ReturnIsError bool    `json:"returnIsError,omitempty"`
	// MinDurationMS selects exits that took at least this long.
	MinDurationMS float64 `json:"minDurationMs,omitempty"`
	// FromNS and ToNS bound the time since the run started, inclusive;
	// ToNS 0 is no bound.
	FromNS int64 `json:"fromNs,omitempty"`
	ToNS   int64 `json:"toNs,omitempty"`
	// Limit is how many events to answer: DefaultLimit when 0 is not
	// given explicitly (see LimitSet), at most MaxLimit.
	Limit    int  `json:"limit,omitempty"`
	LimitSet bool `json:"-"`
	// AfterEventID is the cursor: answer events after this id.
	AfterEventID uint64 `json:"afterEventId,omitempty"`
	Verbose      bool   `json:"verbose,omitempty"`
}

// Page is a query's answer.
type Page struct {
	SessionID string `json:"sessionId"`
	// Lines are the events, one compact line each (not verbose).
	Lines []string `json:"lines,omitempty"`
	// Events are the events whole (verbose).
	Events []Event `json:"events,omitempty"`
	// NextCursor is the afterEventId that reads on, 0 when no more events
	// match.
	NextCursor uint64 `json:"nextCursor,omitempty"`
	// Total is the session's event count; Dropped the events it lost.
	Total   int   `json:"total"`
	Dropped int64 `json:"dropped,omitempty"`
	// Hint says why nothing matched when the filter names a function the
	// session does not have, and what to give instead.
	Hint string `json:"hint,omitempty"`
}

var eventTypes = []string{Enter, Exit, Watchd, Stdout, Stderr, Crash}

// exitType is Exit's number in an index.
const exitType = 2

// compiled is a checked Filter.
type compiled struct {
	Filter
	re       *regexp.Regexp
	minDurNS int64
}

func (f Filter) compile() (*compiled, error) {
	c := &compiled{Filter: f}
	switch {
	case f.Limit < 0 || f.Limit > MaxLimit || f.LimitSet && f.Limit == 0:
		return nil, fmt.Errorf("limit %d is out of range: give 1 to %d, or leave it out for %d", f.Limit, MaxLimit, DefaultLimit)
	case f.Limit == 0:
		c.Limit = DefaultLimit
	}
	if f.EventType != "" && !contains(eventTypes, f.EventType) {
		return nil, fmt.Errorf("unknown eventType %q: use one of %s", f.EventType, strings.Join(eventTypes, ", "))
	}
	if f.FunctionMatches != "" {
		re, err := regexp.Compile(f.FunctionMatches)
		if err != nil {
			return nil, fmt.Errorf("function matches %q is not a regular expression (%v): fix it, or use contains", f.FunctionMatches, oneLine(err))
		}
		c.re = re
	}
	if f.MinDurationMS < 0 {
		return nil, fmt.Errorf("minDurationMs %v is negative: give a positive number of milliseconds", f.MinDurationMS)
	}
	if f.FromNS < 0 || f.ToNS < 0 || f.ToNS != 0 && f.ToNS < f.FromNS {
		return nil, fmt.Errorf("time window %d..%d ns is empty: give 0 <= fromNs <= toNs (ns since the run started)", f.FromNS, f.ToNS)
	}
	if (f.ReturnEquals != nil || f.ReturnIsNull || f.ReturnIsError || f.MinDurationMS > 0) && f.EventType != "" && f.EventType != Exit {
		return nil, fmt.Errorf("returnValue and minDurationMs select exit events: leave eventType out or make it exit")
	}
	// Past what int64 ns hold the conversion would wrap (and select every
	// event): that is the longest duration.
	c.minDurNS = math.MaxInt64
	if ns := f.MinDurationMS * 1e6; ns < math.MaxInt64 {
		c.minDurNS = int64(ns)
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// matcher is a compiled filter bound to one session's index: the string
// filters are decided once per distinct string.
type matcher struct {
	*compiled
	ix       *index
	fn, file []bool // by string id; nil when not filtered
	thread   int64  // string id, -1 when not filtered, -2 when no event has it
	typ      uint8
}

func (c *compiled) bind(ix *index) *matcher {
	m := &matcher{compiled: c, ix: ix, thread: -1}
	if c.FunctionEquals != "" || c.FunctionContains != "" || c.re != nil {
		m.fn = make([]bool, len(ix.Strings))
		for id, f := range ix.Strings {
			m.fn[id] = (c.FunctionEquals == "" || f == c.FunctionEquals) &&
				(c.FunctionContains == "" || strings.Contains(f, c.FunctionContains)) &&
				(c.re == nil || c.re.MatchString(f))
		}
	}
	if c.File != "" {
		want := strings.TrimPrefix(filepath.ToSlash(c.File), "./")
		m.file = make([]bool, len(ix.Strings))
		for id, f := range ix.Strings {
			f = filepath.ToSlash(f)
			m.file[id] = f == want || strings.HasSuffix(f, "/"+want)
		}
	}
	if c.Thread != "" {
		m.thread = -2
		if id, ok := ix.lookup(c.Thread); ok {
			m.thread = int64(id)
		}
	}
	for i, t := range eventTypes {
		if t == c.EventType {
			m.typ = uint8(i + 1)
		}
	}
	return m
}

// match reports whether event i (from 0) passes the filter.
func (m *matcher) match(i int) bool {
	x := m.ix
	if t := x.T[i]; t < m.FromNS || m.ToNS != 0 && t > m.ToNS {
		return false
	}
	if m.typ != 0 && x.Types[i] != m.typ {
		return false
	}
	if m.fn != nil && !m.fn[x.Func[i]] || m.file != nil && !m.file[x.File[i]] {
		return false
	}
	if m.thread != -1 && int64(x.Thread[i]) != m.thread {
		return false
	}
	if m.ReturnEquals != nil || m.ReturnIsNull || m.ReturnIsError || m.minDurNS > 0 {
		if x.Types[i] != exitType {
			return false
		}
		f := x.Flags[i]
		if m.ReturnIsError && f&flagError == 0 || m.ReturnIsNull && f&flagNull == 0 || m.minDurNS > 0 && x.Dur[i] < m.minDurNS {
			return false
		}
		if m.ReturnEquals != nil && !returns(x.Strings[x.Returns[i]], *m.ReturnEquals) {
			return false
		}
	}
	return true
}

// nulls are how the languages render nothing.
var nulls = []string{"", "null", "nil", "<nil>", "None", "nullptr", "0x0", "(nil)", "NULL", "()"}

// isNull: no return value, or every one renders as nothing.
func isNull(vs []Value) bool {
	for _, v := range vs {
		if v.Unavailable != "" || !contains(nulls, v.Value) {
			return false
		}
	}
	return true
}

// returns reports whether one of the return values (joined by NULs) is want.
func returns(joined, want string) bool {
	for _, v := range strings.Split(joined, "\x00") {
		if v == want {
			return true
		}
	}
	return false
}

// Query answers filter f over session id in dir (the details directory).
func Query(dir, id string, f Filter) (*Page, error) {
	c, err := f.compile()
	if err != nil {
		return nil, err
	}
	s, err := Load(dir, id)
	if err != nil {
		return nil, err
	}
	return s.Query(c)
}

// Query runs a checked filter over the session: the index picks the
// events, and only those answered are read.
func (s *Session) Query(c *compiled) (*Page, error) {
	p := &Page{SessionID: s.Header.ID, Total: s.Len(), Dropped: s.Header.Dropped}
	m := c.bind(s.ix)
	var ids []uint64
	// Ids are positions: the cursor skips straight to its place.
	for i := min(int(c.AfterEventID), s.Len()); i < s.Len(); i++ {
		if !m.match(i) {
			continue
		}
		if len(ids) == c.Limit {
			p.NextCursor = ids[len(ids)-1]
			break
		}
		ids = append(ids, uint64(i+1))
	}
	if len(ids) == 0 && c.FunctionEquals != "" {
		p.Hint = s.ix.unknownFunction(c.FunctionEquals)
	}
	evs, err := s.Events(ids)
	if err != nil {
		return nil, err
	}
	if c.Verbose {
		p.Events = evs
		return p, nil
	}
	for i := range evs {
		p.Lines = append(p.Lines, Line(&evs[i], s.Header.ProjectRoot))
	}
	return p, nil
}

// unknownFunction is the hint for function.equals name when no event
// has that name: the session's functions named so after a package or
// module path (the pattern traced, such as shop.Total for
// example.com/shop.Total), else that part or none.
func (x *index) unknownFunction(name string) string {
	seen := map[uint32]bool{}
	var ends, parts, lasts []string
	last := name[strings.LastIndexAny(name, ".:")+1:]
	for _, id := range x.Func {
		if seen[id] || id == 0 {
			continue
		}
		seen[id] = true
		f := x.Strings[id]
		switch {
		case f == name:
			return ""
		case strings.HasSuffix(f, "."+name) || strings.HasSuffix(f, "::"+name) || strings.HasSuffix(f, "/"+name):
			ends = append(ends, f)
		case strings.Contains(f, name):
			parts = append(parts, f)
		case last != "" && (strings.HasSuffix(f, "."+last) || strings.HasSuffix(f, "::"+last)):
			lasts = append(lasts, f)
		}
	}
	for _, l := range [][]string{parts, lasts} {
		if len(ends) == 0 {
			ends = l
		}
	}
	if len(ends) == 0 {
		return fmt.Sprintf("no function of this session is named %s: function.equals (--function) takes a name as the events write it; contains takes a part of one", name)
	}
	slices.Sort(ends)
	more := ""
	if len(ends) > 3 {
		more = fmt.Sprintf(" (and %d more)", len(ends)-3)
		ends = ends[:3]
	}
	return fmt.Sprintf("no function of this session is named %s: function.equals (--function) takes the whole name as the events write it: %s%s", name, strings.Join(ends, ", "), more)
}

// Line renders one event compactly, paths relative to root:
//
//	#12 +3.2ms t1 → calc::parse(input="1+") @src/parser.rs:40
//	#13 +3.6ms t1 ← calc::parse = Err("eof") 0.4ms
func Line(e *Event, root string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d +%s", e.ID, since(e.T))
	if e.Thread != "" {
		b.WriteString(" " + threadLabel(e.Thread))
	}
	b.WriteByte(' ')
	b.WriteString(strings.Repeat("  ", min(e.Depth, 16)))
	switch e.Type {
	case Enter:
		b.WriteString("→ " + e.Function + "(")
		values(&b, e.Args, true)
		b.WriteByte(')')
		if e.File != "" {
			b.WriteString(" @" + relPath(e.File, root))
			if e.Line > 0 {
				b.WriteString(":" + strconv.Itoa(e.Line))
			}
		}
	case Exit:
		b.WriteString("← " + e.Function)
		if len(e.Return) > 0 {
			b.WriteString(" = ")
			values(&b, e.Return, len(e.Return) > 1 && e.Return[0].Name != "")
		}
		if e.Error {
			b.WriteString(" !error")
		}
		if e.DurationNS > 0 {
			b.WriteString(" " + dur(e.DurationNS))
		}
	case Watchd:
		b.WriteString("watch ")
		values(&b, e.Watches, true)
	case Stdout, Stderr, Crash:
		b.WriteString(e.Type + ": " + clip(e.Text, 300))
	default:
		b.WriteString(e.Type + " " + e.Function)
	}
	if len(e.Watches) > 0 && e.Type != Watchd {
		b.WriteString(" [")
		values(&b, e.Watches, true)
		b.WriteByte(']')
	}
	if e.Sampled {
		fmt.Fprintf(&b, " (call %d, sampled)", e.Call)
	}
	return b.String()
}

func values(b *strings.Builder, vs []Value, named bool) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		if named && v.Name != "" {
			b.WriteString(v.Name + "=")
		}
		if v.Unavailable != "" {
			b.WriteString("<unavailable: " + v.Unavailable + ">")
			continue
		}
		b.WriteString(clip(v.Value, MaxValue))
	}
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// threadLabel shortens "goroutine 7" to g7 and "12" to t12.
func threadLabel(t string) string {
	if g, ok := strings.CutPrefix(t, "goroutine "); ok {
		return "g" + g
	}
	if _, err := strconv.Atoi(t); err == nil {
		return "t" + t
	}
	return strings.ReplaceAll(t, " ", "_")
}

func relPath(f, root string) string {
	if root != "" && filepath.IsAbs(f) {
		if r, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return f
}

// since renders ns since the run started: 3.2ms, 1.25s.
func since(ns int64) string {
	if ns < 0 {
		ns = 0
	}
	return dur(ns)
}

func dur(ns int64) string {
	switch {
	case ns < 1_000:
		return strconv.FormatInt(ns, 10) + "ns"
	case ns < 1_000_000:
		return strconv.FormatFloat(float64(ns)/1e3, 'f', 1, 64) + "µs"
	case ns < 1_000_000_000:
		return strconv.FormatFloat(float64(ns)/1e6, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(float64(ns)/1e9, 'f', 2, 64) + "s"
}
