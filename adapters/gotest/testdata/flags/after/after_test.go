// Package after is never started after fails under -failfast -p 1.
package after

import "testing"

func TestAfter(t *testing.T) {}
