package bank

import (
	"sync"
	"testing"
)

func TestTransfer(t *testing.T) {
	a, b := &Account{Balance: 10}, &Account{Balance: 10}
	var ready sync.WaitGroup
	ready.Add(1)
	Transfer(a, b, 5, &ready)
	if a.Balance != 5 || b.Balance != 15 {
		t.Errorf("balances %d and %d, want 5 and 15", a.Balance, b.Balance)
	}
}

// TestOppositeTransfers hangs: each transfer holds one lock and waits for
// the other's. strobe names it, says why, and shows both stacks.
func TestOppositeTransfers(t *testing.T) {
	a, b := &Account{Balance: 10}, &Account{Balance: 10}
	var ready, done sync.WaitGroup
	ready.Add(2)
	done.Add(2)
	go func() { defer done.Done(); Transfer(a, b, 1, &ready) }()
	go func() { defer done.Done(); Transfer(b, a, 2, &ready) }()
	done.Wait()
}
