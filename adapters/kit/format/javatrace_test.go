package format

import "testing"

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
