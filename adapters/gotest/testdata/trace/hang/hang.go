// Package hang deadlocks on demand.
package hang

import "sync"

var mu sync.Mutex

// Twice takes the lock twice: the second Lock never returns.
func Twice() {
	mu.Lock()
	Inner()
}

// Inner takes the lock again.
func Inner() {
	mu.Lock()
}
