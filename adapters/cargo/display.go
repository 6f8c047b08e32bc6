package cargo

import (
	"fmt"
	"strings"

	"strobe/adapters"
)

// Display shows a traced run's stdout as a person reads cargo's: cargo's
// own JSON messages (compiler-artifact, build-script-executed, one per
// crate built, some 80 for semver) are dropped, libtest's events read as
// its human lines ("test parser::unary ... FAILED" with the test's
// output), and any other line as it is. Without it a session began with
// the build's JSON, hiding the test's lines.
func (p *cargoParser) Display(s adapters.Stream, line []byte) ([]byte, bool) {
	if s == adapters.Stderr || len(line) == 0 || line[0] != '{' {
		return line, true
	}
	var m cargoMessage
	if decodeMessage(line, &m) != nil {
		return line, true
	}
	var text string
	switch {
	case m.Reason != "":
		return nil, false
	case m.Type == "suite" && m.Event == "started":
		text = fmt.Sprintf("running %d tests", m.TestCount)
	case m.Type == "suite":
		text = fmt.Sprintf("test result: %s. %d passed; %d failed; %d ignored", m.Event, m.Passed, m.Failed, m.Ignored)
	case m.Type == "test" && m.Event == "started":
		return nil, false
	case m.Type == "test":
		text = fmt.Sprintf("test %s ... %s", m.Name, m.Event)
		if out := strings.TrimRight(m.Stdout+m.Stderr, "\n"); out != "" {
			text += "\n" + out
		}
	default:
		return line, true // JSON a test printed
	}
	return []byte(text), true
}
