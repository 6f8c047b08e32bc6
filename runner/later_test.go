package runner

import (
	"strings"
	"testing"

	"strobe/adapters/kit"
	"strobe/report"
)

// TestListFailuresLater: the answer's failure names its later failures
// in its message, whole however long its first message, and leaves the
// list to the details file.
func TestListFailuresLater(t *testing.T) {
	f := report.Failure{Name: "TestMany", File: "m_test.go", Line: 6, Message: strings.Repeat("first ", 300)}
	for range 9 {
		kit.AddFailure(&f, "m_test.go", 7, "second")
	}
	var resp report.Response
	listFailures(&resp, []report.Failure{f})
	got := resp.Failures[0]
	if got.Later != nil || got.LaterOmitted != 0 {
		t.Errorf("answer's later failures %+v, want none: the details file has them", got.Later)
	}
	if !strings.HasPrefix(got.Message, "first first") || !strings.Contains(got.Message, trimmed+"\nand 9 more failures in this test:\nm_test.go:7: second\n") ||
		!strings.HasSuffix(got.Message, "\n(4 more: the details file's later_failures)") || len(got.Message) > maxMessage+len(trimmed) {
		t.Errorf("answer's message (%d bytes):\n%s", len(got.Message), got.Message)
	}
	if len(f.Later) != 9 {
		t.Errorf("the failure kept %d later failures, want 9", len(f.Later))
	}
}
