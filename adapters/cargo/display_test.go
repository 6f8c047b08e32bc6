package cargo

import (
	"testing"

	"strobe/adapters"
)

// TestDisplay: the stdout of a traced semver run (cargo test
// --message-format=json, one failed test) as its session shows it. cargo's
// messages were the session's first 80 events.
func TestDisplay(t *testing.T) {
	var p any = &cargoParser{}
	d, ok := p.(adapters.Displayer)
	if !ok {
		t.Fatal("the cargo parser is no adapters.Displayer: a session shows cargo's JSON")
	}
	for _, tc := range []struct{ line, want string }{
		{`{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#quote@1.0.47","manifest_path":"/r/quote-1.0.47/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"quote","src_path":"/r/quote-1.0.47/src/lib.rs"},"profile":{"test":false},"fresh":true}`, ""},
		{`{"reason":"build-script-executed","package_id":"registry+https://github.com/rust-lang/crates.io-index#quote@1.0.47","linked_libs":[],"linked_paths":[],"cfgs":[],"env":[],"out_dir":"/t/out"}`, ""},
		{`{"reason":"build-finished","success":true}`, ""},
		{`{ "type": "suite", "event": "started", "test_count": 1 }`, "running 1 tests"},
		{`{ "type": "test", "event": "started", "name": "test_tilde" }`, ""},
		{`{ "type": "test", "name": "test_tilde", "event": "failed", "stdout": "\nthread 'test_tilde' panicked at tests/util/mod.rs:10:9:\ndid not match 1.2.4\n" }`,
			"test test_tilde ... failed\n\nthread 'test_tilde' panicked at tests/util/mod.rs:10:9:\ndid not match 1.2.4"},
		{`{ "type": "suite", "event": "failed", "passed": 0, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.00109 }`, "test result: failed. 0 passed; 1 failed; 0 ignored"},
		{`{"level":"info","msg":"a test's own JSON log"}`, `{"level":"info","msg":"a test's own JSON log"}`},
		{`running 1 test`, `running 1 test`},
	} {
		got, keep := d.Display(adapters.Stdout, []byte(tc.line))
		if tc.want == "" && keep || tc.want != "" && (!keep || string(got) != tc.want) {
			t.Errorf("Display(%s) = %q, %v; want %q", tc.line, got, keep, tc.want)
		}
	}
}
