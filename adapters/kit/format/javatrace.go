package format

import (
	"strconv"
	"strings"
	"strobe/internal/lazyre"
)

// javaFrame is a JVM stack frame: `at com.x.FooTest.bar(FooTest.java:16)`,
// with an optional class loader or module before the class (`java.base/`,
// `java.base@17/`, Gradle's `app//`). The method may hold spaces: Kotlin's
// backquoted test names (`a test that fails`) are method names as they are.
var javaFrame = lazyre.New(`^\s*at (?:[\w.$@-]*//?)?([\w.$<>]+)\.([^()]+)\(([^:()]+):(\d+)\)`)

// JavaTestFrame is the file and line of the first frame, reading down a
// JVM stack trace, in class or a class nested in it: where the test
// failed, past the assertion library's own frames. "" when no frame is.
func JavaTestFrame(trace, class string) (string, int) {
	for _, l := range strings.Split(trace, "\n") {
		m := javaFrame.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] == class || strings.HasPrefix(m[1], class+"$") {
			n, _ := strconv.Atoi(m[4])
			return m[3], n
		}
	}
	return "", 0
}
