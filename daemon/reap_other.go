//go:build !linux

package daemon

// startReaper does nothing: without a parent-death signal (Pdeathsig is
// Linux's) the reaper would not learn that the daemon died. The next daemon
// still reaps what a dead one left (reapOrphans), where /proc lets it, and
// each run's guard ends its processes if the daemon dies first.
func startReaper() (bool, error) { return false, nil }
