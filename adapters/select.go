package adapters

import "context"

// TestRef names one test as the Recorder does: its suite (a Go package, a
// cargo test binary, a pytest file) and its name within it. Names alone
// are not enough: two Go packages often have a TestMain or a TestParse.
type TestRef struct {
	Suite string `json:"suite,omitempty"`
	Name  string `json:"name"`
}

// MultiSelector is implemented by an adapter that can run several named
// tests in one process (Request.Tests): cargo's --exact names, go's -run
// alternation, pytest's node ids. The runner gives Request.Tests only to
// such an adapter; others get one test at a time through Request.Test.
type MultiSelector interface {
	SelectsTests()
}

// Lister is implemented by an adapter that can list a selection's tests
// without running them (go test -list, cargo's --list, pytest
// --collect-only), which partitioning across CI machines needs. List honours
// the request's level, test and command as Plan would, and builds what it
// must to list (a test binary); like Plan, it stops when ctx ends.
type Lister interface {
	List(ctx context.Context, req Request) ([]TestRef, error)
}
