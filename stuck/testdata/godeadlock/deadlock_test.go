// Package godeadlock holds Go tests that hang or pass slowly, for the stuck
// detector's tests. Which one runs is chosen with -run.
package godeadlock

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// marker writes a timestamped line when a test starts to block or spin (to
// $STROBE_MARK_FILE when set, else stdout), so benchmarks can time the
// verdict from there.
func marker(what string) {
	now := time.Now()
	line := fmt.Sprintf("STROBE-MARK %s %d.%09d\n", what, now.Unix(), now.Nanosecond())
	if path := os.Getenv("STROBE_MARK_FILE"); path != "" {
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			f.WriteString(line)
			f.Close()
			return
		}
	}
	fmt.Print(line)
}

var a, b sync.Mutex

func lockAThenB(wg *sync.WaitGroup) {
	defer wg.Done()
	a.Lock()
	time.Sleep(100 * time.Millisecond)
	marker("blocked")
	b.Lock()
}

func lockBThenA(wg *sync.WaitGroup) {
	defer wg.Done()
	b.Lock()
	time.Sleep(100 * time.Millisecond)
	a.Lock()
}

// TestDeadlock: two goroutines take two mutexes in opposite order while a
// ticker goroutine keeps the runtime from declaring the deadlock itself.
func TestDeadlock(t *testing.T) {
	go func() {
		for range time.Tick(20 * time.Millisecond) {
		}
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	go lockAThenB(&wg)
	go lockBThenA(&wg)
	wg.Wait()
}

// TestMain spins before any test runs when STROBE_SPIN_IN_MAIN is set: a
// test binary stuck before its first test prints nothing at all.
func TestMain(m *testing.M) {
	if os.Getenv("STROBE_SPIN_IN_MAIN") != "" {
		marker("spinning")
		spin(1)
	}
	os.Exit(m.Run())
}

func spin(n uint64) uint64 {
	for {
		n = n*6364136223846793005 + 1442695040888963407
		if n == 0 {
			return n
		}
	}
}

// TestBusyLoop spins forever in one function.
func TestBusyLoop(t *testing.T) {
	marker("spinning")
	spin(1)
}

// walk visits a comma-separated list from its right end, the way
// go-chi/chi's walkXFF does, with a bug: the cut keeps the comma, so the
// list never gets shorter. Each turn calls the standard library
// (strings.LastIndexByte, strings.TrimSpace), whose frames a sample
// catches or not.
func walk(list string, visit func(string) bool) {
	for list != "" {
		var v string
		if i := strings.LastIndexByte(list, ','); i >= 0 {
			v, list = list[i+1:], list[:i+1]
		} else {
			v, list = list, ""
		}
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if visit(v) {
			return
		}
	}
}

// TestBusyLoopCallingLibrary spins in walk, whose loop calls the standard
// library on every turn.
func TestBusyLoopCallingLibrary(t *testing.T) {
	marker("spinning")
	walk("8.8.8.8, 198.51.100.1", func(string) bool { return false })
}

// TestSleepThenPass sleeps nine silent seconds, then passes.
func TestSleepThenPass(t *testing.T) {
	time.Sleep(9 * time.Second)
}

// TestQuick passes at once.
func TestQuick(t *testing.T) {}

// TestParallelOneSlow runs parallel subtests: the quick ones finish, one
// works silently for 9 s, then passes.
func TestParallelOneSlow(t *testing.T) {
	for i := 0; i < 4; i++ {
		t.Run(fmt.Sprint("case", i), func(t *testing.T) {
			t.Parallel()
			if i == 3 {
				time.Sleep(9 * time.Second)
				return
			}
			time.Sleep(time.Duration(i*100) * time.Millisecond)
		})
	}
}

// TestPollTicker polls a condition on a ticker, as testify's Eventually
// does, for 5 silent seconds, then passes.
func TestPollTicker(t *testing.T) {
	done := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		if time.Now().After(done) {
			return
		}
	}
}
