// Package bank is strobe's hang demo: a transfer that locks two accounts in
// the order it is given them, so two opposite transfers deadlock.
package bank

import "sync"

// Account is a balance behind a lock.
type Account struct {
	mu      sync.Mutex
	Balance int
}

// Transfer moves n from one account to the other. The bug: it takes the
// locks in argument order, not in a fixed order.
func Transfer(from, to *Account, n int, ready *sync.WaitGroup) {
	from.mu.Lock()
	defer from.mu.Unlock()
	ready.Done()
	ready.Wait() // both transfers now hold their first lock
	to.mu.Lock()
	defer to.mu.Unlock()
	from.Balance -= n
	to.Balance += n
}
