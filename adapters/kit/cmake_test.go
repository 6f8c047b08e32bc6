package kit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// thisHost and otherHost are cmake's ${hostSystemName} here and elsewhere.
var thisHost, otherHost = map[string]string{"linux": "Linux", "darwin": "Darwin"}[runtime.GOOS], "Windows"

func TestCMakeBuildCommand(t *testing.T) {
	presets := `{"version": 3, "configurePresets": [
		{"name": "base", "hidden": true, "binaryDir": "${sourceDir}/out/${presetName}"},
		{"name": "dev", "binaryDir": "${sourceDir}/out/${presetName}"}]%s}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		trees []string
		want  string
	}{
		{"nothing built", map[string]string{"CMakeLists.txt": ""}, nil, "cmake -S . -B build && cmake --build build"},
		{"empty build tree", map[string]string{"CMakeLists.txt": ""}, []string{"cmake-build-debug/"},
			"cmake -S . -B cmake-build-debug && cmake --build cmake-build-debug"},
		{"configured tree", map[string]string{"CMakeLists.txt": "", "build/CMakeCache.txt": ""}, []string{"build/"}, "cmake --build build"},
		{"build preset", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": fmt.Sprintf(presets,
			`, "buildPresets": [{"name": "dev-build", "configurePreset": "dev"}]`)}, nil, "cmake --preset dev && cmake --build --preset dev-build"},
		{"configure preset only", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": fmt.Sprintf(presets, "")}, nil,
			"cmake --preset dev && cmake --build out/dev"},
		{"sources one level down", map[string]string{"cpp/CMakeLists.txt": "", "cpp/tests/CMakeLists.txt": ""}, nil,
			"cmake -S cpp -B build && cmake --build build"},
		// GSL's presets: the first visible ones inherit a condition that
		// the host is Windows; cmake refuses them here.
		{"presets for another host", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": `{"version": 3, "configurePresets": [
			{"name": "msvc", "hidden": true, "binaryDir": "${sourceDir}/build/${presetName}",
			 "condition": {"type": "equals", "lhs": "${hostSystemName}", "rhs": "` + otherHost + `"}},
			{"name": "msvc-14-debug", "inherits": "msvc"},
			{"name": "here", "inherits": ["msvc-like"], "condition": {"type": "inList", "string": "${hostSystemName}", "list": ["` + thisHost + `", "Nope"]}},
			{"name": "msvc-like", "hidden": true, "binaryDir": "${sourceDir}/out/${presetName}"}],
			"buildPresets": [{"name": "msvc-14-debug", "configurePreset": "msvc-14-debug"}]}`}, nil,
			"cmake --preset here && cmake --build out/here"},
		{"a build preset for another host", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": fmt.Sprintf(presets,
			`, "buildPresets": [{"name": "win", "inherits": "base-win"}, {"name": "base-win", "hidden": true, "configurePreset": "dev",
			"condition": {"type": "not", "condition": {"type": "const", "value": true}}}]`)}, nil, "cmake --preset dev && cmake --build out/dev"},
		{"a condition strobe cannot read", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": `{"version": 3, "configurePresets": [
			{"name": "odd", "binaryDir": "${sourceDir}/odd", "condition": {"type": "equals", "lhs": "$vendor{x}", "rhs": "y"}}]}`}, nil,
			"cmake -S . -B build && cmake --build build"},
		{"allOf and matches", map[string]string{"CMakeLists.txt": "", "CMakePresets.json": `{"version": 3, "configurePresets": [
			{"name": "ok", "binaryDir": "${sourceDir}/ok", "condition": {"type": "allOf", "conditions": [
				{"type": "matches", "string": "${presetName}", "regex": "^o"}, {"type": "notEquals", "lhs": "a", "rhs": "b"}]}}]}`}, nil,
			"cmake --preset ok && cmake --build ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			if got := CMakeBuildCommand(root, tc.trees); got != tc.want {
				t.Errorf("CMakeBuildCommand = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCMakeMentionsOwnTreeOnly: a CMakeLists.txt in installed packages
// (node_modules) or in cargo's build output is not the project's; one in a
// directory that merely shares cargo's name is.
func TestCMakeMentionsOwnTreeOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"own", map[string]string{"cpp/CMakeLists.txt": "find_package(GTest)"}, true},
		{"node_modules", map[string]string{"node_modules/addon/CMakeLists.txt": "find_package(GTest)", "package.json": "{}"}, false},
		{"cargo target", map[string]string{"target/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55",
			"target/debug/deps/CMakeLists.txt": "find_package(GTest)", "Cargo.toml": ""}, false},
		{"a target of its own", map[string]string{"target/CMakeLists.txt": "find_package(GTest)"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			if got := CMakeMentions(root, "find_package(GTest"); got != tc.want {
				t.Errorf("CMakeMentions = %v, want %v", got, tc.want)
			}
		})
	}
}

// writeTree writes files (path → body) into a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
