package vitest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"strobe/adapters/kit"
)

// rerunUpdate is a test's rerun with -u: vitest rewrites that test's
// snapshots (an inline one in the test file) and writes its new ones.
func (p *parser) rerunUpdate(file, name, project string) string {
	return p.rerunPattern(file, namePattern(name), project, "-u")
}

// unwritten is the message of a new snapshot vitest did not write, which
// vitest words as a mismatch with nothing to diff ("Snapshot `NAME 1`
// mismatched"): why, and the value the test gave. p.mu is held.
func (p *parser) unwritten(e *testError) string {
	msg := strings.TrimSpace(e.Message) + "\n\nNew snapshot was not written: vitest writes no new snapshot under CI (the environment says CI, and strobe passes it on to vitest)."
	if e.SnapFile != "" {
		snap := p.path(e.SnapFile)
		msg += fmt.Sprintf(" But the snapshot file %s does not parse (%s): vitest read it as empty, so this snapshot counts as new.", snap, e.SnapError)
		if p.badSnaps == nil {
			p.badSnaps = map[string]string{}
		}
		p.badSnaps[snap] = e.SnapError
	}
	if e.Received != "" {
		msg += "\n\nReceived: " + e.Received
	}
	return kit.Clip(msg)
}

// snapshotHints says what the run's snapshots need: how to update one
// deliberately (-u on its rerun, never on the whole suite, whose every
// mismatch it would take), which snapshot files vitest could not read,
// what the run wrote (vitest writes new snapshots outside CI, and all of
// them with -u) and the obsolete ones it left. p.mu is held.
func (p *parser) snapshotHints() string {
	var hints []string
	if s := p.snaps.Mismatched; len(s) > 0 {
		hints = append(hints, fmt.Sprintf("%s did not match what the test gave (%s; the diff is the snapshot, -, against the value received, +): fix the code if the change is not wanted; if it is, update that test's snapshot deliberately by adding -u to its rerun (`%s`: vitest rewrites the test's snapshots, an inline one in the test file), then review the change",
			kit.Plural(len(s), "snapshot"), names(s, len(s)), p.snaps.MismatchedCmd))
	}
	if s := p.snaps.Unwritten; len(s) > 0 {
		hints = append(hints, fmt.Sprintf("%s new and not written (%s): vitest writes no new snapshot under CI (the environment says CI); to write one, add -u to its rerun (`%s`) and review what it wrote",
			kit.Plural(len(s), "snapshot was", "snapshots were"), names(s, len(s)), p.snaps.UnwrittenCmd))
	}
	for _, f := range slices.Sorted(maps.Keys(p.badSnaps)) {
		if p.writable[f] {
			// Outside CI vitest wrote the snapshots its tests took over
			// the file, the rest lost, and those tests passed.
			hints = append(hints, fmt.Sprintf("the snapshot file %s did not parse (%s): vitest read it as empty, so each snapshot its tests took counted as new and was written over it (outside CI), and passed without checking anything; restore it from version control (`git checkout -- %s`), resolve it, and run again", f, p.badSnaps[f], f))
			continue
		}
		hints = append(hints, fmt.Sprintf("the snapshot file %s does not parse (%s): vitest read it as empty, so each of its snapshots counted as new; restore it from version control, or delete it and write its snapshots again with -u", f, p.badSnaps[f]))
	}
	if s := p.snapshots; s != nil {
		var did []string
		for _, c := range []struct {
			n    int
			verb string
		}{{s.Added, "written"}, {s.Updated, "updated"}, {s.Removed, "removed"}} {
			if c.n > 0 {
				did = append(did, fmt.Sprintf("%d %s", c.n, c.verb))
			}
		}
		if len(did) > 0 {
			why := "vitest writes a snapshot the first time a test takes it, unless CI is set, and rewrites them all with -u"
			hints = append(hints, "vitest changed snapshot files ("+strings.Join(did, ", ")+"; "+why+"): a test that wrote its snapshot passed without checking anything; review them before committing")
		}
		if s.ObsoleteCount > 0 {
			var list []string
			for _, o := range s.Obsolete {
				list = append(list, p.path(o.File)+": "+o.Key)
			}
			hints = append(hints, fmt.Sprintf("%s obsolete, which no test took (%s): vitest does not fail the run for them; -u removes them (and rewrites every snapshot that does not match)",
				kit.Plural(s.ObsoleteCount, "snapshot is", "snapshots are"), names(list, s.ObsoleteCount)))
		}
	}
	return kit.Clip(strings.Join(hints, "; "))
}

// names lists a few of total names, and how many more there are.
func names(list []string, total int) string {
	if total <= 3 && len(list) == total {
		return strings.Join(list, ", ")
	}
	list = list[:min(3, len(list))]
	return fmt.Sprintf("%s and %d more", strings.Join(list, ", "), total-len(list))
}
