package format

import (
	"slices"
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

// JavaFrame is one frame of a JVM stack trace: its class, source file
// and line.
type JavaFrame struct {
	Class, File string
	Line        int
}

// JavaFramesBefore is the frames of a stack trace, reading down, above
// the first frame in class or a class nested in it: what the test called
// that threw (a library's code, the JDK's, an assertion library's),
// innermost first. Nil when no frame is in class.
func JavaFramesBefore(trace, class string) []JavaFrame {
	var out []JavaFrame
	for _, l := range strings.Split(trace, "\n") {
		m := javaFrame.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] == class || strings.HasPrefix(m[1], class+"$") {
			return out
		}
		n, _ := strconv.Atoi(m[4])
		out = append(out, JavaFrame{Class: m[1], File: m[3], Line: n})
	}
	return nil
}

// JavaTestMethodFrame is where a test failed in its own method, when its
// trace passes through a helper of its class first
// (`testSpaces:443->assertNextToken:57->assertContent:47`, as Surefire
// sums it up): the file and line of the test method's frame, and the
// helpers' frames below it ("assertNextToken:57", "assertContent:47",
// outermost first). The first frame in the class (JavaTestFrame) is the
// helper's line, shared by every assertion that calls it, which says
// nothing of the one that failed. "" when the test method's frame is not
// in the trace, or no helper is.
func JavaTestMethodFrame(trace, class, method string) (file string, line int, helpers []string) {
	if i := strings.IndexAny(method, "([{"); i >= 0 {
		method = method[:i] // a parameterized case: testX(String)[1]
	}
	if method == "" {
		return "", 0, nil
	}
	var seen []string
	for _, l := range strings.Split(trace, "\n") {
		m := javaFrame.FindStringSubmatch(l)
		if m == nil || m[1] != class && !strings.HasPrefix(m[1], class+"$") {
			continue
		}
		if m[2] == method && m[1] == class {
			if len(seen) == 0 {
				return "", 0, nil
			}
			slices.Reverse(seen)
			n, _ := strconv.Atoi(m[4])
			return m[3], n, seen
		}
		if strings.HasPrefix(m[2], "lambda$") {
			return "", 0, nil // a lambda of the test (assertThrows): its own line is the one
		}
		seen = append(seen, m[2]+":"+m[4])
	}
	return "", 0, nil
}

// JavaInvokedFrame is the class, file and line of the frame the test
// framework called reflectively (the frame just above the first
// reflection frame): the test method itself, or its @BeforeEach, where
// JavaTestFrame finds no frame because the method is declared elsewhere
// (an abstract base class's @Test that the test class inherits, an
// interface's default test method). "" when the trace has no
// reflective call under a frame with a line.
func JavaInvokedFrame(trace string) (class, file string, line int) {
	var last []string
	for _, l := range strings.Split(trace, "\n") {
		if reflective(l) {
			if last == nil {
				return "", "", 0
			}
			n, _ := strconv.Atoi(last[4])
			return last[1], last[3], n
		}
		if m := javaFrame.FindStringSubmatch(l); m != nil {
			last = m
		} else if strings.HasPrefix(strings.TrimSpace(l), "at ") {
			last = nil // a frame without a line (Native Method) is not the test's
		}
	}
	return "", "", 0
}

// reflective says whether a stack trace line is a reflective call's
// frame: Method.invoke and the accessors under it (`Native Method` on
// Java 17, DirectMethodHandleAccessor on 21, sun.reflect on 8).
func reflective(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "at ") && (strings.Contains(l, "jdk.internal.reflect.") ||
		strings.Contains(l, "/java.lang.reflect.Method.invoke(") || strings.Contains(l, " java.lang.reflect.Method.invoke(") ||
		strings.Contains(l, " sun.reflect."))
}

// JavaSuppressed is one exception a JVM stack trace lists as suppressed by
// the one it is of (its `Suppressed: ` block, one tab in): Type and
// Message as its first lines say them, and Trace, its block.
type JavaSuppressed struct {
	Type, Message, Trace string
}

// JavaSuppressedOf is the exceptions a stack trace's exception suppressed,
// in order: JUnit 5's assertAll throws a MultipleFailuresError that
// suppresses each failure it lists, each with its own frames.
func JavaSuppressedOf(trace string) []JavaSuppressed {
	var out []JavaSuppressed
	var cur *JavaSuppressed
	var msg, block []string
	inMsg := false
	end := func() {
		if cur != nil {
			cur.Message = strings.Join(msg, "\n")
			cur.Trace = strings.Join(block, "\n")
			out = append(out, *cur)
		}
		cur, msg, block, inMsg = nil, nil, nil, false
	}
	for _, l := range strings.Split(trace, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if rest, ok := strings.CutPrefix(l, "\tSuppressed: "); ok {
			end()
			typ, text, _ := strings.Cut(rest, ": ")
			cur, msg, inMsg = &JavaSuppressed{Type: strings.TrimSpace(typ)}, []string{text}, true
			block = []string{l}
			continue
		}
		if cur == nil {
			continue
		}
		if !strings.HasPrefix(l, "\t\t") && strings.TrimSpace(l) != "" && !inMsg {
			end() // back at the outer trace's indentation
			continue
		}
		block = append(block, l)
		if inMsg {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "... ") || strings.HasPrefix(t, "Caused by: ") || strings.HasPrefix(t, "Suppressed: ") {
				inMsg = false
			} else {
				msg = append(msg, l)
			}
		}
	}
	end()
	return out
}
