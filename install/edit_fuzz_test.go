package install

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets below edit arbitrary config text that parses, as
// install and uninstall do: neither may panic, every edit must pass the
// check install makes before it writes (verify), and uninstall after
// install must give back the original bytes when the file held no entry of
// strobe's. Plain `go test` runs them on their seeds (the golden configs
// under testdata, with and without strobe's entry); `make fuzz` mutates
// them.

// fuzzConfigs reads the golden configs of one format for seeds, each also
// without strobe's entry (a config as the user had it).
func fuzzConfigs(f *testing.F, ext string, remove func([]byte, []string) ([]byte, error), paths [][]string) [][]byte {
	f.Helper()
	var seeds [][]byte
	err := filepath.WalkDir("testdata/golden", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(filepath.Ext(path), ext) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seeds = append(seeds, b)
		for _, p := range paths {
			if without, err := remove(b, p); err == nil && !bytes.Equal(without, b) {
				seeds = append(seeds, without)
			}
		}
		return nil
	})
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no %s seeds in testdata/golden: %v", ext, err)
	}
	return seeds
}

// jsonPaths are where the agents keep strobe's entry in JSON.
var jsonPaths = [][]string{{"mcpServers", "strobe"}, {"mcp", "strobe"}}

func FuzzJSONEdit(f *testing.F) {
	remove := func(b []byte, path []string) ([]byte, error) { return jsonRemove("f", b, path) }
	for _, s := range fuzzConfigs(f, ".json", remove, jsonPaths) {
		f.Add(s, "/usr/local/bin/strobe", false)
		f.Add(s, `C:\strobe "x".exe`, true)
	}
	for _, s := range []string{"", "{}", "{\n\t\"mcpServers\": {\n\t\t\"a\": 1,\n\t},\n}\n", "{\"mcp\": {\"servers\": {}}} // c\r\n"} {
		f.Add([]byte(s), "/bin/strobe", false)
	}
	f.Fuzz(func(t *testing.T, src []byte, binary string, opencode bool) {
		c := config{path: jsonPaths[0], entry: []field{{"command", binary}, {"args", []string{"mcp"}}}}
		if opencode {
			c = config{path: jsonPaths[1], entry: []field{{"type", "local"}, {"command", []string{binary, "mcp"}}}}
		}
		var had bool
		if len(bytes.TrimSpace(src)) > 0 {
			_, doc, err := parseJSON("f", src)
			if err != nil {
				return // install leaves a file that does not parse alone
			}
			_, had = lookup(doc, c.path)
			// An empty object on strobe's path ({"mcp": {}}) is one that
			// uninstall prunes, as it prunes the ones install made: it
			// cannot tell them apart. Its bytes do not come back either.
			for i := 1; i < len(c.path) && !had; i++ {
				v, ok := lookup(doc, c.path[:i])
				m, isObj := v.(map[string]any)
				had = ok && isObj && len(m) == 0
			}
		}
		fuzzRoundTrip(t, c, src, src, had,
			func(b []byte) ([]byte, error) { return jsonSet("f", b, c.path, c.entry) },
			func(b []byte) ([]byte, error) { return jsonRemove("f", b, c.path) })
	})
}

func FuzzTOMLEdit(f *testing.F) {
	path := []string{"mcp_servers", "strobe"}
	remove := func(b []byte, path []string) ([]byte, error) { return tomlRemove("f", b, path) }
	for _, s := range fuzzConfigs(f, ".toml", remove, [][]string{path}) {
		f.Add(s, "/usr/local/bin/strobe")
	}
	for _, s := range []string{"", "model = \"o3\"\n", "[mcp_servers.a]\ncommand = \"a\"\n# about b\n[profiles.b]\nx = 1\n",
		"[mcp_servers.x]\nargs = [\n  \"a\", # one\n  \"b\",\n]\n", "[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\n\n[mcp_servers.strobe.env]\nA = \"1\"\n"} {
		f.Add([]byte(s), "/bin/strobe")
	}
	f.Fuzz(func(t *testing.T, src []byte, binary string) {
		c := config{toml: true, path: path, entry: []field{{"command", binary}, {"args", []string{"mcp"}}, {"tool_timeout_sec", CodexToolTimeoutSec}}}
		doc, err := decodeTOML("f", src)
		if err != nil {
			return // install leaves a file that does not parse alone
		}
		_, had := lookup(doc, c.path)
		// A table starts on a line of its own: a file that did not end
		// with a newline keeps the one install gave its last line
		// (uninstall cannot tell it from one the file had).
		want := src
		if len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
			want = append(bytes.Clone(src), newline(src)...)
		}
		fuzzRoundTrip(t, c, src, want, had,
			func(b []byte) ([]byte, error) { return tomlSet("f", b, c.path, c.entry) },
			func(b []byte) ([]byte, error) { return tomlRemove("f", b, c.path) })
	})
}

// fuzzRoundTrip installs into src and uninstalls again, checking each edit
// as install does before it writes, and that uninstall gives back want;
// had says src already held an entry of strobe's, whose bytes uninstall
// cannot give back.
func fuzzRoundTrip(t *testing.T, c config, src, want []byte, had bool, set, remove func([]byte) ([]byte, error)) {
	t.Helper()
	installed, err := set(src)
	if errors.Is(err, errNotEditable) {
		return // reported to the user, file untouched
	}
	if err != nil {
		t.Fatalf("install into a valid config: %v\n%q", err, src)
	}
	if err := verify(c, "f", src, installed, false); err != nil {
		t.Fatalf("install: %v\nbefore: %q\nafter:  %q", err, src, installed)
	}
	again, err := set(installed)
	if err != nil || !bytes.Equal(again, installed) {
		t.Fatalf("a second install changed the file (%v):\nonce:  %q\ntwice: %q", err, installed, again)
	}
	back, err := remove(installed)
	if err != nil {
		t.Fatalf("uninstall: %v\n%q", err, installed)
	}
	if err := verify(c, "f", installed, back, true); err != nil {
		t.Fatalf("uninstall: %v\nbefore: %q\nafter:  %q", err, installed, back)
	}
	if had {
		return
	}
	if len(bytes.TrimSpace(src)) == 0 {
		if !emptyFile(c, back) {
			t.Errorf("uninstall from a file install made left %q, not an empty file to remove", back)
		}
		return
	}
	if !bytes.Equal(back, want) {
		t.Errorf("uninstall did not give back the original bytes:\noriginal:    %q\ninstalled:   %q\nuninstalled: %q", src, installed, back)
	}
}
