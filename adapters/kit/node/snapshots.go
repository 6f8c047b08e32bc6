package node

import "cmp"

// SnapshotFailures are the tests of a jest or vitest run whose snapshot
// failed: one that did not match, and one that was new where the run
// writes none (jest's --ci, vitest under CI); each kind with its first
// test's rerun with -u, which updates the snapshot when that is what is
// wanted.
type SnapshotFailures struct {
	Mismatched, Unwritten       []string
	MismatchedCmd, UnwrittenCmd string
}

// Add records a test's snapshot failure: new (not written), or not
// matching; one whose snapshot file could not be read is said of its file
// instead, not here.
func (s *SnapshotFailures) Add(isNew, unreadable bool, name, update string) {
	switch {
	case unreadable:
	case isNew:
		s.Unwritten = append(s.Unwritten, name)
		s.UnwrittenCmd = cmp.Or(s.UnwrittenCmd, update)
	default:
		s.Mismatched = append(s.Mismatched, name)
		s.MismatchedCmd = cmp.Or(s.MismatchedCmd, update)
	}
}
