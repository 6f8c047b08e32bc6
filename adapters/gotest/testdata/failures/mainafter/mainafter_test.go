// Package mainafter's tests pass, then its TestMain fails the package
// (a teardown that finds what a test left behind).
package mainafter

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		fmt.Println("teardown: 2 files left behind")
		code = 1
	}
	os.Exit(code)
}

func TestPasses(t *testing.T) {}
