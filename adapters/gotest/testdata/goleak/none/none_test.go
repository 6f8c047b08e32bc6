// Package none leaks a goroutine in TestLeaks that goleak.VerifyNone finds there and in TestFine after it.
package none

import (
	"testing"

	"go.uber.org/goleak"
)

func serve(stop chan struct{}) { <-stop }

func TestLeaks(t *testing.T) {
	defer goleak.VerifyNone(t)
	stop := make(chan struct{})
	go serve(stop)
}

func TestFine(t *testing.T) {
	defer goleak.VerifyNone(t)
}
