package stuck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A node test awaiting a promise that never settles leaves its main thread
// in its event loop's epoll_pwait. When the wait has a timeout that ends
// before the hard timeout, it rescues the run, as a sleep does. But
// libuv's poll timeout is its soonest timer of any kind: V8's memory
// reducer posts delayed tasks on the loop about 8 s apart for a while
// after a suite loads (a timeout of 7.8 to 8.1 s, then 0.6 s), an http
// server's unref'd check of its connections every 30 s counts too, and
// neither settles anything. The JavaScript timers are known only to the
// inspector (Config.NodeTimer): when none may end the test's wait before
// the run's end, the loop's timed wait is node's own and rescues nothing.

// loopTimer is NodeTimer's answer for one process.
type loopTimer struct {
	at    time.Time // when asked
	limit time.Time // the soonest end of its loops' waits then
	due   time.Time // when the soonest JavaScript timer fires; zero for none
	err   error
}

// loopTimerSlack is how far the end of an event loop's wait may move and
// still be the wait NodeTimer was asked about: the end is estimated from
// the sample that first saw the wait, and the probe itself wakes the loop,
// which waits again until the same timer.
const loopTimerSlack = time.Second

// nodeLoopWait says whether a rescuing thread may be a node event loop's
// timed wait: a thread in epoll. In a node process that is the main
// thread's loop, a worker thread's, or the platform's scheduler of V8's
// delayed tasks (NodeTimer answers whether the process is node).
func nodeLoopWait(v threadView) bool {
	return strings.HasPrefix(v.t.Wait.Call, "epoll")
}

// nodeOwnWaits splits the rescuers, when they are all event loops' timed
// waits, into those a JavaScript timer may end (or whose timers are
// unknown) and those that are node's own: a process none of whose
// threads has a JavaScript timer due before the run's end wakes only for
// node's own timers. Any other rescuer keeps the run alive anyway, and
// then nothing is asked.
func (d *Detector) nodeOwnWaits(ctx context.Context, now time.Time, silence time.Duration, rescuers []threadView) (keep, own []threadView) {
	if d.cfg.NodeTimer == nil || silence < d.cfg.QuietLock {
		return rescuers, nil
	}
	// The soonest end of each process's loop waits.
	limits := map[ProcKey]time.Time{}
	for _, v := range rescuers {
		if !nodeLoopWait(v) {
			return rescuers, nil
		}
		if l, ok := limits[v.proc.ProcKey]; !ok || v.limit.Before(l) {
			limits[v.proc.ProcKey] = v.limit
		}
	}
	var deadline time.Time
	if d.cfg.Deadline != nil {
		deadline = d.cfg.Deadline()
	}
	for _, v := range rescuers {
		k := v.proc.ProcKey
		lt, ok := d.loopTimers[k]
		if !ok || d.stale(lt, limits[k], now, silence) {
			lt = loopTimer{at: now, limit: limits[k]}
			in, pending, err := d.cfg.NodeTimer(ctx, *v.proc)
			switch {
			case err != nil:
				lt.err = err
			case pending:
				lt.due = now.Add(in)
			}
			d.loopTimers[k] = lt
			// The probe's own work (the inspector walks the heap for
			// the timers) is not the test's.
			d.probed = append(d.probed, k)
		}
		switch {
		case lt.err != nil:
			keep = append(keep, v)
		case lt.due.IsZero() || endsTooLate(lt.due, deadline, now):
			own = append(own, v)
		default:
			keep = append(keep, v)
		}
	}
	return keep, own
}

// ErrAskLater is a NodeTimer's answer for a process it may ask later (a
// node process too young to be signalled): asked again at the next
// sample, where another error stands for the run.
var ErrAskLater = errors.New("ask later")

// stale says whether a process's answer no longer holds: its timer fired,
// or its loops' waits end elsewhere (one ran since). Asked again no
// sooner than stack samples are taken; a process that could not answer
// (not node, no inspector of strobe's) is not asked again, and its loops'
// waits count as any other.
func (d *Detector) stale(lt loopTimer, limit, now time.Time, silence time.Duration) bool {
	if now.Sub(lt.at) < sampleSpacing(silence) {
		return false
	}
	if lt.err != nil {
		return errors.Is(lt.err, ErrAskLater)
	}
	if !lt.due.IsZero() {
		return !now.Before(lt.due)
	}
	moved := limit.Sub(lt.limit)
	return moved > loopTimerSlack || moved < -loopTimerSlack
}

// endsTooLate says whether a timer that fires at due cannot save the run:
// it fires after the hard timeout, or in its last seconds, unless within
// moments anyway (as for a timed wait, in update).
func endsTooLate(due, deadline, now time.Time) bool {
	return !deadline.IsZero() && due.After(deadline.Add(-deadlineMargin)) && due.Sub(now) > deadlineMargin
}

// describeOwn adds the event loops whose timed waits are node's own to a
// verdict's evidence ("" for none).
func describeOwn(own []threadView) string {
	if len(own) == 0 {
		return ""
	}
	call := own[0].t.Wait.Call
	if len(own) == 1 {
		return fmt.Sprintf(", its event loop in %s until a timer of node's own (no JavaScript timer due before the run's end)", call)
	}
	return fmt.Sprintf(", %d event loops in %s until timers of node's own (no JavaScript timer due before the run's end)", len(own), call)
}
