package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installCmd runs `strobe install` with HOME at home and no agent on PATH.
func installCmd(t *testing.T, home string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(strobeBin, append([]string{"install"}, args...)...)
	cmd.Env = []string{"HOME=" + home, "PATH=" + t.TempDir()}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestInstallThroughTheBinary(t *testing.T) {
	home := t.TempDir()
	out, code := installCmd(t, home)
	if code != exitOK || !strings.Contains(out, "No coding agent found") || !strings.Contains(out, strobeBin+" mcp") {
		t.Fatalf("no agents: exit %d\n%s", code, out)
	}

	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	settings := filepath.Join(home, ".gemini", "settings.json")
	os.WriteFile(settings, []byte("{\n  \"theme\": \"GitHub\"\n}\n"), 0o600)

	out, code = installCmd(t, home, "--dry-run")
	if code != exitOK || !strings.Contains(out, "+++ b/~/.gemini/settings.json") || !strings.Contains(out, "gemini    would change") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(settings); strings.Contains(string(b), "strobe") {
		t.Fatalf("dry run wrote the file")
	}

	out, code = installCmd(t, home)
	if code != exitOK || !strings.Contains(out, "gemini    installed") || !strings.Contains(out, "check: gemini mcp list") {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), `"command": "`+strobeBin+`"`) {
		t.Fatalf("the registered command is not this binary:\n%s", b)
	}

	out, code = installCmd(t, home)
	if code != exitOK || !strings.Contains(out, "gemini    already current") {
		t.Fatalf("second run: exit %d\n%s", code, out)
	}

	out, code = installCmd(t, home, "--uninstall")
	if b, _ := os.ReadFile(settings); code != exitOK || string(b) != "{\n  \"theme\": \"GitHub\"\n}\n" {
		t.Fatalf("uninstall: exit %d\n%s\n%s", code, out, b)
	}

	os.WriteFile(settings, []byte("{\n  \"theme\": \"GitHub\",,\n}\n"), 0o600)
	out, code = installCmd(t, home)
	if code != exitFailed || !strings.Contains(out, "~/.gemini/settings.json does not parse (line 2, column 21") {
		t.Fatalf("unparseable: exit %d\n%s", code, out)
	}

	if out, code = installCmd(t, home, "--agent", "vim"); code != exitUsage || !strings.Contains(out, "unknown agent") {
		t.Fatalf("unknown agent: exit %d\n%s", code, out)
	}
}
