package details

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/report"
)

func record(id string) *Record {
	return &Record{
		Response:    report.Response{Status: report.Failed, RunID: id, Framework: "go", Summary: &report.Summary{Passed: 2, Failed: 1}},
		ProjectRoot: "/p", Adapter: "go",
		Tests:  []report.Test{{Name: "TestA", Status: report.TestFailed, Output: "boom\n"}},
		Stdout: Stream{Text: strings.Repeat("x", 1000), Bytes: 1000},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "strobe-test", "tests")
	path, err := Write(dir, record("abc123"))
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "abc123.json") {
		t.Errorf("path = %s", path)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, err %v; want 0700", d, fi.Mode().Perm(), err)
		}
	}
	rec, err := Read(dir, "abc") // a unique prefix
	if err != nil {
		t.Fatal(err)
	}
	if rec.Response.Details != path || rec.Tests[0].Output != "boom\n" {
		t.Errorf("read back %+v", rec)
	}
	s, err := ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Response.RunID != "abc123" || s.Adapter != "go" || s.ProjectRoot != "/p" || s.Response.Summary.Failed != 1 {
		t.Errorf("summary = %+v", s)
	}
	if _, err := Read(dir, "zzz"); err == nil || !strings.Contains(err.Error(), "strobe runs") {
		t.Errorf("unknown id: err = %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(matches) > 0 {
		t.Errorf("temp files left: %v", matches)
	}
}

// TestStreamsRoundTrip checks the hand-streamed output texts: escapes,
// multi-byte characters across chunk boundaries, invalid UTF-8.
func TestStreamsRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	rec := record("streams")
	big := strings.Repeat("héllo \"wörld\"\n\t<tag> ", 20000) // > one 64 KiB chunk, runes straddle its edges
	rec.Stdout = Stream{Text: big, Bytes: 1 << 30, Truncated: true}
	rec.Stderr = Stream{Text: "bad \xff byte"}
	path, err := Write(dir, rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir, path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stdout.Text != big || got.Stdout.Bytes != 1<<30 || !got.Stdout.Truncated {
		t.Errorf("stdout did not round-trip (%d bytes, want %d)", len(got.Stdout.Text), len(big))
	}
	if got.Stderr.Text != "bad \ufffd byte" {
		t.Errorf("stderr = %q, want the invalid byte replaced", got.Stderr.Text)
	}
	if got.Response.RunID != "streams" || len(got.Tests) != 1 {
		t.Errorf("head lost: %+v", got.Response)
	}
}

func TestRefusesPlantedSymlink(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "elsewhere")
	os.Mkdir(target, 0o777)
	parent := filepath.Join(base, "strobe-test")
	if err := os.Symlink(target, parent); err != nil {
		t.Fatal(err)
	}
	_, err := Write(filepath.Join(parent, "tests"), record("x"))
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("err = %v, want a refusal to follow the symlink", err)
	}
	if entries, _ := os.ReadDir(target); len(entries) > 0 {
		t.Errorf("wrote through the symlink: %v", entries)
	}
}

func TestClosesOpenDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "strobe-test", "tests")
	os.MkdirAll(dir, 0o777)
	os.Chmod(dir, 0o777)
	if _, err := Write(dir, record("x")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
}

// A details directory whose parent is shared (sticky, as /tmp is) is
// refused, and the parent left as it was: it is never closed to others.
func TestNeverClosesASharedDirectory(t *testing.T) {
	shared := t.TempDir()
	os.Chmod(shared, 0o777|os.ModeSticky)
	if _, err := Write(filepath.Join(shared, "tests"), record("x")); err == nil || !strings.Contains(err.Error(), "shared directory") {
		t.Errorf("err = %v, want a refusal of the shared parent", err)
	}
	if fi, _ := os.Stat(shared); fi.Mode()&os.ModeSticky == 0 || fi.Mode().Perm() != 0o777 {
		t.Errorf("the shared parent is now %v, want it untouched", fi.Mode())
	}
}

func TestPrune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s", "tests")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := 0; i < keepRuns+10; i++ {
		p := filepath.Join(dir, "run"+strings.Repeat("0", 3)+string(rune('a'+i%26))+time.Duration(i).String()+".json")
		os.WriteFile(p, []byte("{}"), 0o600)
		os.Chtimes(p, now, now.Add(-time.Duration(i)*time.Minute))
	}
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte("{}"), 0o600)
	os.Chtimes(old, now, now.Add(-8*24*time.Hour))
	prune(dir, now).Wait()
	entries, _ := List(dir)
	if len(entries) != keepRuns {
		t.Errorf("%d records left, want %d", len(entries), keepRuns)
	}
	if _, err := os.Stat(old); err == nil {
		t.Errorf("a record older than %v survived", keepFor)
	}
	// The newest are the ones kept, and the total size is capped.
	huge := filepath.Join(dir, "huge.json")
	os.WriteFile(huge, make([]byte, keepBytes), 0o600)
	os.Chtimes(huge, now, now.Add(-time.Hour))
	prune(dir, now).Wait()
	if _, err := os.Stat(huge); err == nil {
		t.Errorf("records over %d bytes in all survived", keepBytes)
	}
	entries, _ = List(dir)
	if entries[0].ModTime.Before(entries[len(entries)-1].ModTime) {
		t.Errorf("List is not newest first")
	}
}

// TestPassedDurations reads the passed tests' durations, and stops before
// the streams: a record whose stdout is not even valid JSON still reads.
func TestPassedDurations(t *testing.T) {
	dir := t.TempDir()
	rec := &Record{Response: report.Response{RunID: "r1", Status: report.Failed},
		Tests: []report.Test{{Name: "TestSlow", Status: report.TestPassed, DurationMS: 5200},
			{Name: "TestBroken", Status: report.TestFailed, DurationMS: 10}}}
	path, err := Write(dir, rec)
	if err != nil {
		t.Fatal(err)
	}
	took, slowest, err := PassedDurations(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(took) != 1 || took["TestSlow"] != 5200*time.Millisecond || slowest != 5200*time.Millisecond {
		t.Errorf("durations %v, slowest %v: want TestSlow's 5.2s alone, and as the slowest", took, slowest)
	}
	// A failed test's time counts among the slowest; a stuck one's is how
	// long strobe waited.
	slow := &Record{Response: report.Response{RunID: "r2", Status: report.Stuck},
		Tests: []report.Test{{Name: "TestSlowFail", Status: report.TestFailed, DurationMS: 7000},
			{Name: "TestHung", Status: report.TestStuck, DurationMS: 600000}}}
	slowPath, err := Write(dir, slow)
	if err != nil {
		t.Fatal(err)
	}
	if took, slowest, err := PassedDurations(slowPath); err != nil || len(took) != 0 || slowest != 7*time.Second {
		t.Errorf("durations %v, slowest %v, %v: want none passed and the failed test's 7s", took, slowest, err)
	}
	b, _ := os.ReadFile(path)
	i := strings.Index(string(b), `,"stdout":`)
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, append(b[:i:i], `,"stdout":{"text":"never read`...), 0o600)
	if took, _, err := PassedDurations(cut); err != nil || took["TestSlow"] != 5200*time.Millisecond {
		t.Errorf("a record cut in its streams: %v, %v; want the tests read", took, err)
	}
}
