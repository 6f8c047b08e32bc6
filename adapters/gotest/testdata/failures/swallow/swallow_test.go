// Package swallow's TestMain ignores m.Run's result: go test says ok,
// but TestSwallowed failed (go test -v prints its --- FAIL).
package swallow

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	m.Run()
	os.Exit(0)
}

func TestSwallowed(t *testing.T) {
	t.Errorf("a failure TestMain swallows")
}

func TestFine(t *testing.T) {}
