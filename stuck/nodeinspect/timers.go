package nodeinspect

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// nextTimerJS answers, in milliseconds, when the soonest JavaScript timer
// that may end a test's wait fires, -1 when none is pending; this holds
// the Timeout instances (Runtime.queryObjects). An unref'd interval (an
// http server's check of its connections every 30 s) is left out: it
// keeps nothing alive and repeats for ever, the housekeeping of whatever
// set it. Every other timer counts, an unref'd one-shot too (a socket's
// timeout, AbortSignal.timeout): another handle may keep the loop alive
// until it fires. A timer created and cleared at once gives the event
// loop's clock, in which each timer's start is counted.
const nextTimerJS = `function () {
  const probe = setTimeout(() => {}, 1e9);
  const now = probe._idleStart;
  clearTimeout(probe);
  let next = -1;
  for (const t of this || []) {
    if (!t || t === probe || t._destroyed || !(t._idleTimeout >= 0) || typeof t._onTimeout !== 'function') continue;
    if (t._repeat && typeof t.hasRef === 'function' && !t.hasRef()) continue;
    const due = Math.max(0, t._idleStart + t._idleTimeout - now);
    if (next < 0 || due < next) next = due;
  }
  return next;
}`

// NextTimer tells when the soonest JavaScript timer of pid's threads (the
// main one and its worker threads) that may end a test's wait fires
// (nextTimerJS), ok false when none is pending: its event loops may still
// wake by a timer, but it is node's own (V8's memory reducer schedules
// its tasks about 8 s apart after a suite loads) or an unref'd interval.
// The inspector is opened as for Take, and stays open.
func NextTimer(ctx context.Context, pid int) (in time.Duration, ok bool, err error) {
	target, err := open(ctx, pid)
	if err != nil {
		return 0, false, err
	}
	c, err := dial(ctx, target)
	if err != nil {
		return 0, false, err
	}
	defer c.close()
	next, err := nextTimer(ctx, session{c: c})
	if err != nil {
		return 0, false, err
	}
	for _, w := range workerSessions(ctx, c) {
		ms, err := nextTimer(ctx, session{c: c, id: w.id})
		if err != nil {
			return 0, false, fmt.Errorf("%s: %w", w.name, err)
		}
		if ms >= 0 && (next < 0 || ms < next) {
			next = ms
		}
	}
	if next < 0 {
		return 0, false, nil
	}
	return time.Duration(next * float64(time.Millisecond)), true, nil
}

// nextTimer asks one thread for its soonest timer, in milliseconds, -1
// for none.
func nextTimer(ctx context.Context, s session) (float64, error) {
	var proto struct{ Result remoteObject }
	if err := s.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": "(() => { const t = setTimeout(() => {}, 1e9); clearTimeout(t); return Object.getPrototypeOf(t); })()",
	}, &proto); err != nil {
		return 0, err
	}
	var all struct{ Objects remoteObject }
	if err := s.call(ctx, "Runtime.queryObjects", map[string]any{"prototypeObjectId": proto.Result.ObjectID}, &all); err != nil {
		return 0, err
	}
	if all.Objects.ObjectID == "" {
		return 0, errors.New("Runtime.queryObjects gave no timers")
	}
	var res struct{ Result remoteObject }
	if err := s.call(ctx, "Runtime.callFunctionOn", map[string]any{
		"objectId": all.Objects.ObjectID, "functionDeclaration": nextTimerJS, "returnByValue": true,
	}, &res); err != nil {
		return 0, err
	}
	ms, ok := res.Result.Value.(float64)
	if !ok {
		return 0, errors.New("the timers' probe answered no number")
	}
	return ms, nil
}
