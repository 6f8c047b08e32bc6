package stuck

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestStaleAskLater: a process NodeTimer could not answer for is not asked
// again (not node, no inspector of strobe's), unless the answer was to
// ask later (a node process too young to be signalled), which is asked
// again once the next sample is due.
func TestStaleAskLater(t *testing.T) {
	d := &Detector{}
	now := time.Now()
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("%w: too young", ErrAskLater), true},
		{errors.New("not a node process"), false},
	} {
		lt := loopTimer{at: now.Add(-2 * sampleEvery), limit: now, err: tc.err}
		if got := d.stale(lt, now, now, time.Second); got != tc.want {
			t.Errorf("stale with %v: %v, want %v", tc.err, got, tc.want)
		}
		lt.at = now
		if d.stale(lt, now, now, time.Second) {
			t.Errorf("stale with %v before the next sample is due", tc.err)
		}
	}
}
