package runner

import (
	"strobe/adapters/kit"
	"strobe/report"
)

// suggestFromSource gives the listed failures whose adapter suggested no
// trace (an assertion in a Rust, C or C++ test's own body: no project
// frame below it) the project functions their failing line calls, read
// from the sources (kit.Sources), so that every failure has patterns to
// rerun it traced with.
func suggestFromSource(root string, failed []report.Failure) {
	var src *kit.Sources
	for i := range failed[:min(len(failed), maxFailures)] {
		f := &failed[i]
		if len(f.SuggestedTraces) > 0 || f.File == "" || f.Line <= 0 {
			continue
		}
		if src == nil {
			src = kit.NewSources(root)
		}
		f.SuggestedTraces = src.Traces(f.File, f.Line)
	}
}
