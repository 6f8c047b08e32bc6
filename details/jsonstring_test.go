package details

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"strobe/report"
)

// jsonStringCases are strings whose escaping differs from a plain copy:
// every byte alone, the HTML characters, invalid and cut UTF-8, the two
// separators encoding/json escapes, and a long stream.
func jsonStringCases() []string {
	cases := []string{"", "plain", `a "quoted" \path\`, "<a href='x'>&amp;</a>", "tab\there\r\nnext\bback\fform",
		"\u2028line\u2029para", "é ü 日本 🙂", "\xff\xfe bad", "cut \xe6\x97", "\xed\xa0\x80 surrogate", "\ufffd already",
		"\x7f del", strings.Repeat("test m00::t_000 ... ok\n{\"type\":\"test\",\"event\":\"ok\"}\n", 5000)}
	for b := range 256 {
		cases = append(cases, string([]byte{byte(b)}), "x"+string([]byte{byte(b)})+"y")
	}
	return cases
}

// TestWriteStringAsEncodingJSON: the details file's streams are escaped
// byte for byte as json.Marshal escapes them.
func TestWriteStringAsEncodingJSON(t *testing.T) {
	for _, s := range jsonStringCases() {
		checkWriteString(t, s)
	}
}

func FuzzWriteString(f *testing.F) {
	for _, s := range jsonStringCases() {
		f.Add(s)
	}
	f.Fuzz(checkWriteString)
}

func checkWriteString(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	w := bufio.NewWriterSize(&got, 16) // a small buffer: writes that span flushes
	if err := writeString(w, s); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("writeString(%q) = %s, json.Marshal gives %s", clip(s), clip(got.String()), clip(string(want)))
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// testCases are tests of every shape appendTest writes or hands over.
func testCases() []report.Test {
	return []report.Test{
		{Name: "m00::t_000", Suite: "strobe_bench (lib)", Status: report.TestPassed},
		{Name: "TestA/sub_<1>&\"x\"", Status: report.TestFailed, DurationMS: 12345},
		{Name: "skip", Suite: "s", Status: report.TestSkipped, DurationMS: -1, Output: "line 1\n\tline\u2028 2\xff\n"},
		{Name: "long", Status: report.TestRunning, Output: strings.Repeat("out ", 10000), OutputTruncated: true},
		{Name: "flaky", Status: report.TestPassed, Flaky: true, Failure: &report.Failure{Name: "flaky", Message: "boom"},
			Attempts: []report.Attempt{{Status: "failed"}, {Status: "passed"}}},
		{Name: "failed", Status: report.TestFailed, Failure: &report.Failure{Name: "failed", File: "a.go", Line: 3, Message: "want 1, got 2"}},
		{Name: "flaky, without its failure", Status: report.TestPassed, Flaky: true},
		{Name: "", Status: ""},
	}
}

// TestWriteTestsAsEncodingJSON: the details file's tests are written byte
// for byte as json.Marshal writes them.
func TestWriteTestsAsEncodingJSON(t *testing.T) {
	for _, tests := range [][]report.Test{nil, {}, testCases(), testCases()[:1]} {
		checkWriteTests(t, tests)
	}
	many := make([]report.Test, 3000) // several flushes of the scratch buffer
	for i := range many {
		many[i] = testCases()[i%len(testCases())]
	}
	checkWriteTests(t, many)
}

// TestAppendTestFields: appendTest writes report.Test's fields by name, so
// a field added to report.Test must be added there too (and here).
func TestAppendTestFields(t *testing.T) {
	known := []string{"Name", "Suite", "Status", "DurationMS", "Output", "OutputTruncated", "Failure", "Flaky", "Attempts"}
	var fields []string
	for f := range reflect.TypeFor[report.Test]().Fields() {
		fields = append(fields, f.Name)
	}
	if !slices.Equal(fields, known) {
		t.Fatalf("report.Test has fields %v, appendTest writes %v: write the new ones in appendTest (details.go)", fields, known)
	}
}

func FuzzAppendTest(f *testing.F) {
	for _, c := range testCases() {
		f.Add(c.Name, c.Suite, string(c.Status), c.DurationMS, c.Output, c.OutputTruncated, c.Flaky)
	}
	f.Fuzz(func(t *testing.T, name, suite, status string, d int64, out string, trunc, flaky bool) {
		checkWriteTests(t, []report.Test{{Name: name, Suite: suite, Status: report.TestStatus(status), DurationMS: d,
			Output: out, OutputTruncated: trunc, Flaky: flaky}})
	})
}

func checkWriteTests(t *testing.T, tests []report.Test) {
	want, err := json.Marshal(tests)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	w := bufio.NewWriterSize(&got, 64)
	if err := writeTests(w, tests); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("writeTests wrote\n%s\njson.Marshal writes\n%s", clip(got.String()), clip(string(want)))
	}
}
