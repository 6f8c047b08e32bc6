package jest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// jest -u with -t, as a pasted rerun runs it, deletes the snapshots of the
// tests it skips in that file when a hint names them: jest keeps a skipped
// test's keys `NAME 1`, `NAME 2` but not `NAME: hint 1`
// (toMatchSnapshot('hint'), which babel-plugin-tester gives every
// snapshot), and -u removes every key it did not keep. strobe's setup
// file keeps them (select.cjs, keepSnapshots): where the test's snapshot
// file holds such keys of other tests, the update goes through strobe.

// snapKey is a key of a snapshot file: exports[`KEY`] = ...
var snapKey = lazyre.New("^exports\\[`(.*)`\\] = ")

// keyCount is the count jest ends a key with.
var keyCount = lazyre.New(` \d+$`)

// snapTests reads the snapshot file beside test file (jest's default
// place: __snapshots__/FILE.snap) and returns the tests its keys name,
// their counts cut off (`NAME: hint`, `NAME`); nil when there is none,
// or another resolver put it elsewhere (jest -u keeps what it cannot
// see).
func snapTests(file string) []string {
	f, err := os.Open(filepath.Join(filepath.Dir(file), "__snapshots__", filepath.Base(file)+".snap"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if m := snapKey.FindStringSubmatch(sc.Text()); m != nil {
			keys = append(keys, keyCount.ReplaceAllString(strings.ReplaceAll(m[1], "\\`", "`"), ""))
		}
	}
	return keys
}

// othersHinted says whether keys (snapTests') name with a hint a test
// other than full (its blocks and title joined by spaces).
func othersHinted(keys []string, full string) bool {
	for _, k := range keys {
		if k != full && strings.Contains(k, ": ") && !strings.HasPrefix(k, full+": ") {
			return true
		}
	}
	return false
}

// strobeUpdate is the command that updates one test's snapshots through
// strobe, which keeps the others': the test named by its file (relative
// to the package, where reruns run) and name, jest's command with -u.
func strobeUpdate(prefix []string, file, name string) string {
	return shell.Join([]string{"strobe", "test", "--test", file + sep + name, "--command", shell.Join(append(prefix, "-u"))})
}
