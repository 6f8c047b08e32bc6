package adapters

import "context"

// DeadlockReporter is implemented by an adapter whose test runtime finds
// its own deadlocks (the JVM's cycle detection, through jstack), where
// /proc cannot: HotSpot parks a thread blocked on a monitor with a timed
// park, which reads as a wait that ends by itself. The stuck detector asks
// it while a test process has been silent at low CPU; it answers the
// runtime's one-line account of the cycle, "" when there is none (or it
// could not tell), and the tests whose frames the deadlocked threads show
// (a runner that names only the class running, as Surefire does, learns
// the test from them).
type DeadlockReporter interface {
	RuntimeDeadlock(ctx context.Context, p Proc) (cycle string, tests []string)
}
