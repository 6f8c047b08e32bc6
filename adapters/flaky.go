package adapters

// FlakyTest is a test that failed and then passed when its framework tried
// it again (cargo-nextest's retries): it counts as passed, and the answer
// names it, since a test that passes only sometimes hides a bug.
type FlakyTest struct {
	Suite string `json:"suite,omitempty"`
	Name  string `json:"name"`
	// Attempts is how many times it ran, the passing one included.
	Attempts int `json:"attempts"`
	// File, Line and Message are the first failed attempt's, when the
	// framework showed them.
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message,omitempty"`
}
