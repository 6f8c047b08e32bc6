package format

import (
	"slices"
	"testing"
)

func TestJavaTestFrame(t *testing.T) {
	for _, tc := range []struct {
		name, trace, class, file string
		line                     int
	}{
		{"junit5 past the assertion's frames",
			"org.opentest4j.AssertionFailedError: expected: <1> but was: <2>\n" +
				"\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)\n" +
				"\tat com.x.FooTest.bar(FooTest.java:11)\n",
			"com.x.FooTest", "FooTest.java", 11},
		{"kotlin backquoted name",
			"java.lang.AssertionError: this test has failed\n" +
				"\tat org.junit.Assert.fail(Assert.java:89)\n" +
				"\tat org.test.sample.SampleTestSuite.a test that fails(SampleTestSuite.kt:16)\n",
			"org.test.sample.SampleTestSuite", "SampleTestSuite.kt", 16},
		{"gradle's app// loader and a nested class",
			"\tat app//com.x.FooTest$Inner.lambda$bar$0(FooTest.java:27)\n",
			"com.x.FooTest", "FooTest.java", 27},
		{"module prefix",
			"\tat java.base@17/java.util.Optional.get(Optional.java:143)\n\tat com.x.FooTest.bar(FooTest.java:3)\n",
			"com.x.FooTest", "FooTest.java", 3},
		{"no frame in the class",
			"\tat com.x.Other.m(Other.java:3)\n\tat com.x.FooTest.bar(Native Method)\n",
			"com.x.FooTest", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, line := JavaTestFrame(tc.trace, tc.class)
			if file != tc.file || line != tc.line {
				t.Errorf("JavaTestFrame = %s:%d, want %s:%d", file, line, tc.file, tc.line)
			}
		})
	}
}

// TestJavaInvokedFrame: a test the class inherits fails in its base
// class's file, where JavaTestFrame finds no frame of the test class;
// the frame JUnit called is the test.
func TestJavaInvokedFrame(t *testing.T) {
	for _, tc := range []struct {
		name, trace, class, file string
		line                     int
	}{
		{"surefire's trimmed trace (java 17)",
			"org.opentest4j.AssertionFailedError: expected: <base> but was: <GnuTest>\n" +
				"\tat com.x.AbstractBase.inherited(AbstractBase.java:69)\n" +
				"\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)\n" +
				"\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)\n",
			"com.x.AbstractBase", "AbstractBase.java", 69},
		{"the whole trace, past the assertion's frames (java 17)",
			"org.opentest4j.AssertionFailedError: expected: <1> but was: <2>\n" +
				"\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)\n" +
				"\tat com.x.Contract.holds(Contract.java:12)\n" +
				"\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n" +
				"\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke(NativeMethodAccessorImpl.java:77)\n" +
				"\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)\n",
			"com.x.Contract", "Contract.java", 12},
		{"java 21's accessor",
			"\tat com.x.Base.m(Base.java:5)\n" +
				"\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)\n",
			"com.x.Base", "Base.java", 5},
		{"java 8",
			"\tat com.x.Base.m(Base.java:7)\n\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n",
			"com.x.Base", "Base.java", 7},
		{"no reflective call",
			"\tat com.x.Base.m(Base.java:7)\n\tat com.x.Runner.run(Runner.java:3)\n", "", "", 0},
		{"a native frame above it",
			"\tat com.x.Native.m(Native Method)\n\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)\n", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			class, file, line := JavaInvokedFrame(tc.trace)
			if class != tc.class || file != tc.file || line != tc.line {
				t.Errorf("JavaInvokedFrame = %s %s:%d, want %s %s:%d", class, file, line, tc.class, tc.file, tc.line)
			}
		})
	}
}

// TestJavaTestMethodFrame: an assertion that failed in a helper of the
// test class is placed at the test method's own line, the helpers named
// after it (commons-csv's LexerTest: Surefire's testSpaces:443->
// assertNextToken:57->assertContent:47). The first frame in the class,
// assertContent:47, is shared by dozens of assertions.
func TestJavaTestMethodFrame(t *testing.T) {
	trace := `org.opentest4j.AssertionFailedError: expected: <a> but was: <b>
	at org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1145)
	at org.apache.commons.csv.LexerTest.assertContent(LexerTest.java:47)
	at org.apache.commons.csv.LexerTest.assertNextToken(LexerTest.java:57)
	at org.apache.commons.csv.LexerTest.testSurroundingSpacesAreDeleted(LexerTest.java:443)
	at java.base/java.lang.reflect.Method.invoke(Method.java:569)
`
	const class = "org.apache.commons.csv.LexerTest"
	for _, tc := range []struct {
		method  string
		file    string
		line    int
		helpers []string
	}{
		{"testSurroundingSpacesAreDeleted", "LexerTest.java", 443, []string{"assertNextToken:57", "assertContent:47"}},
		{"testSurroundingSpacesAreDeleted(String)[2]", "LexerTest.java", 443, []string{"assertNextToken:57", "assertContent:47"}},
		{"otherTest", "", 0, nil}, // its frame is not in the trace
	} {
		file, line, helpers := JavaTestMethodFrame(trace, class, tc.method)
		if file != tc.file || line != tc.line || !slices.Equal(helpers, tc.helpers) {
			t.Errorf("%s: %s:%d %q, want %s:%d %q", tc.method, file, line, helpers, tc.file, tc.line, tc.helpers)
		}
	}
	// The assertion in the test itself: nothing to add.
	direct := "java.lang.AssertionError\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat com.x.FooTest.adds(FooTest.java:12)\n"
	if file, _, _ := JavaTestMethodFrame(direct, "com.x.FooTest", "adds"); file != "" {
		t.Errorf("an assertion in the test itself: %q, want none", file)
	}
}
