package format

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// JestReport is the part strobe reads of the JSON report jest writes with
// --json (every version's, jasmine2's and circus's) and vitest with
// --reporter=json, which copies its shape: the jest and vitest adapters'
// fallback when their own reporter cannot run.
type JestReport struct {
	TestResults []JestFile `json:"testResults"`
}

// JestFile is a test file's results.
type JestFile struct {
	Name   string `json:"name"` // the file's absolute path
	Status string `json:"status"`
	// Message is the file's failure (an import error, a syntax error) when
	// it ran no tests.
	Message          string          `json:"message"`
	AssertionResults []JestAssertion `json:"assertionResults"`
}

// JestAssertion is one test's result.
type JestAssertion struct {
	AncestorTitles  []string      `json:"ancestorTitles"`
	Title           string        `json:"title"`
	Status          string        `json:"status"`
	Duration        float64       `json:"duration"` // milliseconds
	FailureMessages []string      `json:"failureMessages"`
	Location        *JestLocation `json:"location"` // with --testLocationInResults or vitest's includeTaskLocation
}

// JestLocation is where a test is declared; Column counts from 0 in jest
// and from 1 in vitest.
type JestLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// DecodeJestReport reads a whole report. It is read once, at the end of a
// run, so encoding/json's speed is not a concern here.
func DecodeJestReport(r io.Reader) (JestReport, error) {
	var rep JestReport
	err := json.NewDecoder(r).Decode(&rep)
	return rep, err
}

// UnmarshalJSON reads the titles as jest prints them. Before jest 27
// (jasmine2) a title is written as it was given, so test([2010, 6], fn)
// has the title [2010,6], which jest prints and -t matches as
// JavaScript's String() of it, "2010,6" (dayjs has such tests).
func (a *JestAssertion) UnmarshalJSON(b []byte) error {
	type plain JestAssertion
	var raw struct {
		plain
		Title          json.RawMessage   `json:"title"`
		AncestorTitles []json.RawMessage `json:"ancestorTitles"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*a = JestAssertion(raw.plain)
	a.Title = jsText(raw.Title)
	a.AncestorTitles = nil
	for _, t := range raw.AncestorTitles {
		a.AncestorTitles = append(a.AncestorTitles, jsText(t))
	}
	return nil
}

// jsText is JavaScript's String() of a JSON value.
func jsText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s // every title but jest 22's odd ones
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if len(raw) == 0 || d.Decode(&v) != nil {
		return ""
	}
	return jsString(v)
}

func jsString(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			if e != nil { // [null] prints as ""
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// Name is the test's full name: its describe blocks' titles and its own,
// joined with sep (the adapter's separator, which its reruns match).
func (a JestAssertion) Name(sep string) string {
	return strings.Join(append(append([]string(nil), a.AncestorTitles...), a.Title), sep)
}
