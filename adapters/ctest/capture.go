package ctest

import (
	"path/filepath"

	"strobe/adapters"
)

// IsTestProcess: CTest runs each test in a process of its own and only
// waits for it, so every process under ctest is a test's (the test
// binary, or the script add_test named and what it starts); ctest itself
// is not judged.
func (ctest) IsTestProcess(p adapters.Proc) bool {
	return !isCTest(p.Name) && !isCTest(filepath.Base(p.Exe))
}
