package gtest

// Bins and FixtureRoot let the runner-level tests (package gtest_test,
// which imports the runner, and through it adapters/all and this package)
// build and find the fixture.
var (
	Bins        = bins
	FixtureRoot = fixtureRoot
)
