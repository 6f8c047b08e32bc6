package adapterstest

import (
	"strobe/adapters"
	"strobe/report"
)

// Result is what a golden file holds: the recorded tests and the outcome.
type Result struct {
	Tests   []report.Test
	Outcome adapters.Outcome
}

// TestByName finds a test by name.
func TestByName(tests []report.Test, name string) (report.Test, bool) {
	for _, t := range tests {
		if t.Name == name {
			return t, true
		}
	}
	return report.Test{}, false
}
