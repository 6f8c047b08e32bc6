package gotest

import (
	"path/filepath"
	"strings"
	"strobe/adapters"
)

// IsTestProcess for go test: the package test binaries (pkg.test), not
// the go command nor the compiler and linker it runs.
func (gotest) IsTestProcess(p adapters.Proc) bool {
	return strings.HasSuffix(filepath.Base(p.Exe), ".test") || strings.HasSuffix(p.Name, ".test")
}
