package ctest

import "testing"

// TestCatch2Listed reads a test case's place from Catch2 v2.13's
// `--list-tests -v high` listing, which wraps a long name and a long
// path at 80 columns (a real binary's, its directory renamed at the same
// length).
func TestCatch2Listed(t *testing.T) {
	for _, tc := range []struct {
		name, out, file string
		line            int
	}{
		{"short", "Matching test cases:\n  gives up early\n    /src/project/catch_test.cpp:17\n    (NO DESCRIPTION)\n1 matching test case\n\n",
			"/src/project/catch_test.cpp", 17},
		{"wrapped", "Matching test cases:\n" +
			"  a test case with a very long name that goes on and on past the console width\n" +
			"    of eighty\n" +
			"    /home/src/a-rather-long-directory-name-for-testing/with-another-long-\n" +
			"    component-inside/and-more/long_test_file_name.cpp:2\n" +
			"    (NO DESCRIPTION)\n" +
			"1 matching test case\n",
			"/home/src/a-rather-long-directory-name-for-testing/with-another-long-component-inside/and-more/long_test_file_name.cpp", 2},
		{"none", "Matching test cases:\n0 matching test cases\n", "", 0},
	} {
		if file, line := catch2Listed(tc.out); file != tc.file || line != tc.line {
			t.Errorf("%s: %s:%d, want %s:%d", tc.name, file, line, tc.file, tc.line)
		}
	}
}
