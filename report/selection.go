package report

// Partition is the part of a suite a run ran when the suite is split
// across CI machines (`--partition hash:M/N`).
type Partition struct {
	// Spec is the partition as asked: "hash:2/3", "slice:1/4".
	Spec  string `json:"spec"`
	Kind  string `json:"kind"`  // hash or slice
	Index int    `json:"index"` // M, from 1
	Total int    `json:"total"` // N
	// Listed counts the tests the listing found, Selected those of this
	// part; ListMS is what listing them cost (a build, a collection).
	Listed   int   `json:"listed"`
	Selected int   `json:"selected"`
	ListMS   int64 `json:"list_ms"`
}

// Rerun says the run reran the failed and stuck tests of an earlier run
// (`onlyFailed`, `strobe test --failed`).
type Rerun struct {
	// Of is the run id whose failures were rerun; Tests counts them.
	Of    string `json:"of"`
	Tests int    `json:"tests"`
}
