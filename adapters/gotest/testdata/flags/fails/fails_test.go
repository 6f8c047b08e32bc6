// Package fails fails its first test (go test -failfast stops there).
package fails

import "testing"

func TestFails(t *testing.T) { t.Fatal("fails") }

func TestNotRun(t *testing.T) {}
