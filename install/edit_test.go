package install

import (
	"errors"
	"testing"
)

var tomlEntry = []field{{"command", "/bin/strobe"}, {"args", []string{"mcp"}}, {"tool_timeout_sec", 300}}

func TestTOMLEdits(t *testing.T) {
	path := []string{"mcp_servers", "strobe"}
	for _, tc := range []struct {
		name, in, want string
		roundTrip      bool // uninstall gives back in
	}{
		{name: "empty", in: "", want: "[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n", roundTrip: true},
		{name: "no final newline", in: "model = \"o3\"",
			want: "model = \"o3\"\n\n[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n"},
		{name: "quoted header, keys missing, at the end without newline",
			in:   "[mcp_servers.\"strobe\"]\ncommand = \"/old\" # was here",
			want: "[mcp_servers.\"strobe\"]\ncommand = \"/bin/strobe\" # was here\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n"},
		{name: "before its sub-table",
			in:   "[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\n\n[mcp_servers.strobe.env]\nA = \"1\"\n",
			want: "[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n\n[mcp_servers.strobe.env]\nA = \"1\"\n"},
		{name: "after other servers, before other tables",
			in:   "[mcp_servers.a]\ncommand = \"a\"\n# about b\n[profiles.b]\nx = 1\n",
			want: "[mcp_servers.a]\ncommand = \"a\"\n\n[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n# about b\n[profiles.b]\nx = 1\n", roundTrip: true},
		{name: "multi-line array kept", in: "[mcp_servers.x]\nargs = [\n  \"a\", # one\n  \"b\",\n]\n",
			want: "[mcp_servers.x]\nargs = [\n  \"a\", # one\n  \"b\",\n]\n\n[mcp_servers.strobe]\ncommand = \"/bin/strobe\"\nargs = [\"mcp\"]\ntool_timeout_sec = 300\n", roundTrip: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tomlSet("f", []byte(tc.in), path, tomlEntry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if err := verify(config{toml: true, path: path, entry: tomlEntry}, "f", []byte(tc.in), got, false); err != nil {
				t.Error(err)
			}
			back, err := tomlRemove("f", got, path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.roundTrip && string(back) != tc.in {
				t.Errorf("uninstall:\n%q\nwant:\n%q", back, tc.in)
			}
		})
	}
	for _, in := range []string{
		"mcp_servers = { strobe = { command = \"x\" } }\n",
		"[mcp_servers]\nstrobe.command = \"x\"\n",
		"[[mcp_servers]]\nname = \"x\"\n",
	} {
		if _, err := tomlSet("f", []byte(in), path, tomlEntry); !errors.Is(err, errNotEditable) {
			t.Errorf("%q: %v, want not editable", in, err)
		}
	}
}

var jsonEntry = []field{{"command", "/bin/strobe"}, {"args", []string{"mcp"}}}

func TestJSONEdits(t *testing.T) {
	path := []string{"mcpServers", "strobe"}
	for _, tc := range []struct {
		name, in, want string
		roundTrip      bool
	}{
		{name: "empty object", in: "{}", want: "{\n  \"mcpServers\": {\n    \"strobe\": {\n      \"command\": \"/bin/strobe\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}", roundTrip: true},
		{name: "empty container with a comment", in: "{\"mcpServers\": {\n  // none yet\n}}\n",
			want: "{\"mcpServers\": {\n  // none yet\n  \"strobe\": {\n    \"command\": \"/bin/strobe\",\n    \"args\": [\"mcp\"]\n  }\n}}\n", roundTrip: true},
		{name: "tabs and trailing commas", in: "{\n\t\"mcpServers\": {\n\t\t\"a\": 1,\n\t},\n}\n",
			want: "{\n\t\"mcpServers\": {\n\t\t\"a\": 1,\n\t\t\"strobe\": {\n\t\t\t\"command\": \"/bin/strobe\",\n\t\t\t\"args\": [\"mcp\"]\n\t\t},\n\t},\n}\n", roundTrip: true},
		{name: "comment after the last member", in: "{\n  \"mcpServers\": {\n    \"a\": 1 // mine\n  }\n}\n",
			want: "{\n  \"mcpServers\": {\n    \"a\": 1, // mine\n    \"strobe\": {\n      \"command\": \"/bin/strobe\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n", roundTrip: true},
		{name: "strobe first of several", in: "{\"mcpServers\": {\"strobe\": {\"command\": \"/old\", \"env\": {\"A\": \"1\"}}, \"b\": 2}}",
			want: "{\"mcpServers\": {\"strobe\": {\"command\": \"/bin/strobe\", \"env\": {\"A\": \"1\"}, \"args\": [\"mcp\"]}, \"b\": 2}}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsonSet("f", []byte(tc.in), path, jsonEntry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if err := verify(config{path: path, entry: jsonEntry}, "f", []byte(tc.in), got, false); err != nil {
				t.Error(err)
			}
			back, err := jsonRemove("f", got, path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.roundTrip && string(back) != tc.in {
				t.Errorf("uninstall:\n%q\nwant:\n%q", back, tc.in)
			}
		})
	}
}
