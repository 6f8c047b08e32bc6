package format

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"strobe/internal/lazyre"
	"time"
)

// LibtestEvent is one line of libtest's JSON output (a Rust test binary
// run with -Z unstable-options --format json): a suite's or a test's
// event. cargo test prints it; cargo-nextest's libtest-json output too.
type LibtestEvent struct {
	Type      string `json:"type"`
	Event     string `json:"event"`
	Name      string `json:"name"`
	TestCount int    `json:"test_count"`
	// Passed, Failed and Ignored are a suite's totals, in its last event.
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Ignored int `json:"ignored"`
	// ExecTime is seconds, as a number, or as "0.001s" in older nightlies.
	ExecTime json.RawMessage `json:"exec_time"`
	Stdout   string          `json:"stdout"`
	// Stderr holds the output instead of Stdout in some libtest versions.
	Stderr string `json:"stderr"`
	// Message is a string in libtest events (an ignore reason, a failure
	// without a panic).
	Message json.RawMessage `json:"message"`
}

var (
	// LibtestStart begins every libtest event; found inside a line, it
	// follows text a test printed without a newline under --nocapture.
	LibtestStart    = []byte(`{ "type": "`)
	libtestCutField = lazyre.New(`"(type|event|name)":\s*("(?:[^"\\]|\\.)*")`)
)

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// LenientLibtestEvent reads a libtest event that is not valid JSON. Before
// Rust 1.49 (rust-lang/rust#76151) libtest wrote test names unescaped, so a
// doctest's Windows path made lines such as
//
//	{ "type": "test", "event": "ok", "name": "src\lib.rs - func (line 47)" }
//
// The name is taken literally, every backslash a backslash: read as JSON,
// "src\tests" would turn into a tab. Its end is the quote before the next
// field or the closing brace. The other fields (a test's output) were
// escaped, so they are decoded as JSON.
func LenientLibtestEvent(line []byte) (*LibtestEvent, bool) {
	if !bytes.HasPrefix(line, LibtestStart) {
		return nil, false
	}
	const key = `"name": "`
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return nil, false
	}
	start := i + len(key)
	end := -1
	for _, stop := range [][]byte{[]byte(`", "`), []byte(`" }`)} {
		if j := bytes.Index(line[start:], stop); j >= 0 && (end < 0 || start+j < end) {
			end = start + j
		}
	}
	if end < 0 {
		return nil, false
	}
	name := string(line[start:end])
	fixed := slices.Concat(line[:start], []byte(`"`), line[end+1:])
	m := new(LibtestEvent)
	if json.Unmarshal(fixed, m) != nil || m.Type != "test" && m.Type != "suite" {
		return nil, false
	}
	m.Name = name
	return m, true
}

// RecoverLibtestEvent reads a libtest event from the head of a line the runner
// cut: libtest writes type, name and event before the output, so a test
// that printed hundreds of megabytes is still recorded by name.
func RecoverLibtestEvent(line []byte) (*LibtestEvent, bool) {
	m := new(LibtestEvent)
	for _, f := range libtestCutField.FindAllSubmatch(line[:min(len(line), 64<<10)], 3) {
		var v string
		if json.Unmarshal(f[2], &v) != nil {
			return nil, false
		}
		switch string(f[1]) {
		case "type":
			m.Type = v
		case "event":
			m.Event = v
		case "name":
			m.Name = v
		}
	}
	return m, m.Type == "test" && m.Event != "" && m.Name != ""
}

// jsonNumber says whether b is made of a JSON number's characters only,
// starting as one does: ParseFloat also reads "Inf", hexadecimal and
// underscores, which JSON does not.
func jsonNumber(b []byte) bool {
	if len(b) == 0 || b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

// LibtestOutputEnd decodes what it can of the JSON string that ends a cut
// libtest line (`…\nthread 't' panicked at …\n" }`): the text from the
// first escaped newline on, where a whole line of the output begins.
func LibtestOutputEnd(end []byte) string {
	s := bytes.TrimRight(end, " \t}")
	if !bytes.HasSuffix(s, []byte(`"`)) {
		return ""
	}
	s = s[:len(s)-1]
	for i := 0; ; {
		j := bytes.Index(s[i:], []byte(`\n`))
		if j < 0 {
			return ""
		}
		start := i + j
		var v string
		if json.Unmarshal(append(append([]byte{'"'}, s[start:]...), '"'), &v) == nil {
			return v
		}
		i = start + 2
	}
}

// Duration is the event's exec_time: seconds, as a number, or as
// "0.001s" in older nightlies; 0 when it has none.
func (e *LibtestEvent) Duration() time.Duration {
	raw := e.ExecTime
	// A plain number, as every current libtest writes it, is read
	// directly: json.Unmarshal's reflection cost more than the rest of an
	// event's decoding. JSON's number syntax is within ParseFloat's.
	if jsonNumber(raw) {
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return seconds(f)
		}
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return seconds(f)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if f, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64); err == nil {
			return seconds(f)
		}
	}
	return 0
}
