package jest

import (
	"path/filepath"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// IsTestProcess for jest: its workers (jest-worker's processChild.js) run
// the test files when jest runs several at once; in band (-i, or a run
// jest judged small) its main process runs them itself. The main process
// is a test process only while it has no worker: beside workers it only
// waits for them, and its waits say nothing about the tests.
func (jest) IsTestProcess(p adapters.Proc) bool {
	if isWorker(p.Args) {
		return true
	}
	if !isJestMain(p.Args) {
		return p.Name != "npm" && p.Name != "npx" && p.Name != "sh"
	}
	return !kit.HasChild(p.PID, isWorker)
}

func isWorker(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "jest-worker") && strings.Contains(filepath.Base(a), "processChild") {
			return true
		}
	}
	return false
}

// isJestMain recognises jest's own process: node running
// node_modules/.bin/jest (or jest's and jest-cli's bin/jest.js).
func isJestMain(args []string) bool {
	for i, a := range args {
		if i > 1 {
			break
		}
		if b := filepath.Base(a); b == "jest" || (b == "jest.js" && strings.Contains(a, "jest")) {
			return true
		}
	}
	return false
}
