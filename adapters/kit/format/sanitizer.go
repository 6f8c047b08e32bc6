package format

import (
	"path/filepath"
	"strconv"
	"strings"

	"strobe/internal/lazyre"
	"strobe/report"
)

// SanitizerReport is one report of a sanitizer (ASan, UBSan, TSan, LSan,
// MSan) read from a native binary's stderr.
type SanitizerReport struct {
	Kind    string   // AddressSanitizer, UndefinedBehaviorSanitizer, ...
	Lines   []string // the report's lines, the first sanitizerMaxLines of them
	Summary string   // "AddressSanitizer: heap-use-after-free …", "" until read
}

// sanitizerMaxLines bounds the lines kept of one report: a LeakSanitizer
// report lists every leaked allocation's stack.
const sanitizerMaxLines = 400

var (
	sanitizerHead    = lazyre.New(`^(?:==\d+==\s*)?(?:ERROR|WARNING): (AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer|UndefinedBehaviorSanitizer)\b`)
	sanitizerSummary = lazyre.New(`^SUMMARY: (\w+Sanitizer): (.*)$`)
	ubsanRuntime     = lazyre.New(`^(.+?):(\d+):(\d+): runtime error: (.*)$`)
	sanitizerFrame   = lazyre.New(`^\s+#\d+ 0x[0-9a-f]+ in (.+?) (\S+?):(\d+)(?::\d+)?$`)
)

// SanitizerStart names the sanitizer whose report a line begins, "" when
// it begins none. A UBSan runtime error ("file:line:col: runtime error:
// …") is a report of its own; with -fno-sanitize-recover an ERROR line
// and a SUMMARY follow it.
func SanitizerStart(line string) string {
	if m := sanitizerHead.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	if ubsanRuntime.MatchString(line) {
		return "UndefinedBehaviorSanitizer"
	}
	return ""
}

// SanitizerReader follows the sanitizer reports on a stream, a line at a
// time. The caller feeds it stderr lines; a line that belongs to no
// report is left to the caller.
type SanitizerReader struct {
	open *SanitizerReport
	// frames is a UBSan runtime error that may go on with its stack
	// (UBSAN_OPTIONS=print_stacktrace=1): frame lines join it.
	frames *SanitizerReport
}

var sanitizerFrameLine = lazyre.New(`^\s+#\d+ 0x[0-9a-f]+ `)

// Line takes a line of stderr and answers the report it belongs to (nil
// when none) and whether the report began with it.
func (r *SanitizerReader) Line(line string) (rep *SanitizerReport, began bool) {
	if r.open == nil && r.frames != nil {
		if rep = r.frames; sanitizerFrameLine.MatchString(line) {
			if len(rep.Lines) < sanitizerMaxLines {
				rep.Lines = append(rep.Lines, line)
			}
			return rep, false
		}
		r.frames = nil
	}
	if r.open == nil {
		kind := SanitizerStart(line)
		if kind == "" {
			return nil, false
		}
		r.open, began = &SanitizerReport{Kind: kind}, true
	}
	rep = r.open
	if len(rep.Lines) < sanitizerMaxLines {
		rep.Lines = append(rep.Lines, line)
	}
	if m := sanitizerSummary.FindStringSubmatch(line); m != nil {
		rep.Summary = m[1] + ": " + m[2]
		r.open = nil
		return rep, began
	}
	if len(rep.Lines) == 1 && !sanitizerHead.MatchString(line) {
		// A UBSan runtime error that goes on: the one line is the report.
		m := ubsanRuntime.FindStringSubmatch(line)
		rep.Summary = "UndefinedBehaviorSanitizer: " + m[4] + " at " + m[1] + ":" + m[2]
		r.open, r.frames = nil, rep
	}
	return rep, began
}

// Open says whether a report has begun and not yet ended.
func (r *SanitizerReader) Open() bool { return r.open != nil }

// gtestTestBody is the frame of a GoogleTest test's body: TEST(Suite,
// Name) is the class Suite_Name_Test (TEST_P's and TYPED_TEST's too, the
// latter with its template arguments).
var gtestTestBody = lazyre.New(`\bin (?:[\w:]*::)?(\w+)_Test(?:<.*>)?::TestBody\(\)`)

// GTestClass is the class of the GoogleTest test whose body is in the
// report's stack ("Suite_Name_Test"), "" when none is: a report names its
// test this way even when stderr and stdout were read out of step.
func (r *SanitizerReport) GTestClass() string {
	for _, l := range r.Lines {
		if m := gtestTestBody.FindStringSubmatch(l); m != nil {
			return m[1] + "_Test"
		}
	}
	return ""
}

// Location is where a report points in the project: the location of a
// UBSan runtime error, else the first stack frame whose file lies under
// root; failing both, the first frame outside the system (/usr/), the
// sanitizer's runtime, a path above the build directory (../) and the
// files framework says are the test framework's own. The file is as the
// report prints it (the caller makes it project-relative).
func (r *SanitizerReport) Location(root string, framework func(file string) bool) (string, int) {
	var fallback string
	var fallbackLine int
	for _, l := range r.Lines {
		if m := ubsanRuntime.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			return m[1], n
		}
		m := sanitizerFrame.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		file := m[2]
		n, _ := strconv.Atoi(m[3])
		if filepath.IsAbs(file) && within(root, file) {
			return file, n
		}
		if fallback == "" && !strings.HasPrefix(file, "/usr/") && !strings.Contains(file, "libsanitizer") &&
			!strings.HasPrefix(file, "../") && (framework == nil || !framework(file)) {
			fallback, fallbackLine = file, n
		}
	}
	return fallback, fallbackLine
}

func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// Gist is the essence of a report, for a failure's message: the error
// line and what it says of the access, then each of its stacks (the
// access, "freed by thread T0 here:", "previously allocated by …", a
// thread's creation) by its first gistFrames frames that name a source
// file outside the sanitizer's runtime and the C library (a test
// framework's frames without a source file, "(binary+0x42786)", say
// nothing), each as "at FUNC FILE:LINE", a file under root relative to
// it; the summary last. Nothing of the
// shadow memory map. A heap-use-after-free reads: READ of size 4 at …;
// at read_freed() asan_test.cpp:8; freed by thread T0 here: at
// read_freed() asan_test.cpp:7; previously allocated …: at … :6.
func (r *SanitizerReport) Gist(root string) []string {
	var out []string
	frames := 0 // kept of the current stack
	for _, l := range r.Lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "Shadow bytes"):
			return r.withSummary(out)
		case strings.HasPrefix(l, "=====") || t == "" || strings.HasPrefix(t, "SUMMARY:"):
			continue
		case strings.HasPrefix(t, "#"):
			if frames >= gistFrames {
				continue
			}
			if m := sanitizerFrame.FindStringSubmatch(l); m != nil && !strings.Contains(m[2], "libsanitizer") &&
				!strings.HasPrefix(m[2], "../") && !strings.HasPrefix(m[2], "/usr/") {
				file := m[2]
				if filepath.IsAbs(file) && within(root, file) {
					file, _ = filepath.Rel(root, file)
				}
				out = append(out, "at "+m[1]+" "+file+":"+m[3])
				frames++
			}
			continue
		}
		frames = 0 // a line between stacks: the next stack's header, or the report's
		out = append(out, t)
		if len(out) >= gistLines {
			break
		}
	}
	return r.withSummary(out)
}

// gistFrames is how many frames of each stack Gist keeps; gistLines bounds
// its lines.
const (
	gistFrames = 3
	gistLines  = 15
)

func (r *SanitizerReport) withSummary(out []string) []string {
	if r.Summary != "" {
		out = append(out, "SUMMARY: "+r.Summary)
	}
	return out
}

// Indicator is the crash indicator naming the report's sanitizer.
func (r *SanitizerReport) Indicator() string {
	switch r.Kind {
	case "AddressSanitizer":
		return "address_sanitizer"
	case "LeakSanitizer":
		return "leak_sanitizer"
	case "ThreadSanitizer":
		return "thread_sanitizer"
	case "MemorySanitizer":
		return "memory_sanitizer"
	}
	return "undefined_behavior_sanitizer"
}

// CrashType is the crash a fatal report describes: a signal the sanitizer
// caught (SEGV, BUS, FPE) by its name, else the sanitizer's own stop (a
// heap-use-after-free was "unknown").
func (r *SanitizerReport) CrashType() report.CrashType {
	switch {
	case strings.Contains(r.Summary, "SEGV"):
		return report.CrashSegmentationFault
	case strings.Contains(r.Summary, "BUS"):
		return report.CrashBusError
	case strings.Contains(r.Summary, "FPE"):
		return report.CrashFloatingPoint
	}
	return report.CrashSanitizer
}
