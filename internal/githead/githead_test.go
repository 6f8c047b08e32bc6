package githead

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/internal/testutil"
)

// git runs git in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// revParse is what `git rev-parse HEAD` says in dir, "" when it fails.
func revParse(dir string) string {
	cmd := exec.Command("git", "rev-parse", "--verify", "-q", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// same checks that the files give what git gives, without falling back.
func same(t *testing.T, dir, what string) string {
	t.Helper()
	want := revParse(dir)
	got, err := fromFiles(dir)
	if err != nil {
		t.Fatalf("%s: fromFiles(%s): %v (git says %q)", what, dir, err, want)
	}
	if got != want {
		t.Fatalf("%s: fromFiles(%s) = %q, git rev-parse HEAD = %q", what, dir, got, want)
	}
	if c, ok := Read(dir, os.Environ()); !ok || c != want {
		t.Fatalf("%s: Read = %q, %v, want %q", what, c, ok, want)
	}
	return got
}

func TestAgreesWithGit(t *testing.T) {
	testutil.RequireTool(t, "git")
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, "sub", "deep"), 0o755)
	git(t, repo, "init", "-q", "-b", "main")
	if c := same(t, repo, "unborn branch"); c != "" {
		t.Fatalf("unborn branch: %q, want empty", c)
	}
	os.WriteFile(filepath.Join(repo, "a"), []byte("1"), 0o644)
	git(t, repo, "add", "a")
	git(t, repo, "commit", "-q", "-m", "one")
	first := same(t, repo, "loose ref")
	if !isHash(first) {
		t.Fatalf("loose ref: %q is not a commit", first)
	}
	same(t, filepath.Join(repo, "sub", "deep"), "a subdirectory")

	git(t, repo, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(repo, ".git", "refs", "heads", "main")); err == nil {
		t.Fatal("pack-refs left the loose ref")
	}
	if c := same(t, repo, "packed ref"); c != first {
		t.Fatalf("packed ref: %q, want %q", c, first)
	}

	os.WriteFile(filepath.Join(repo, "a"), []byte("2"), 0o644)
	git(t, repo, "commit", "-q", "-am", "two")
	second := same(t, repo, "loose ref over a packed one")
	if second == first {
		t.Fatal("the second commit was not read")
	}

	git(t, repo, "checkout", "-q", "--detach", first)
	if c := same(t, repo, "detached HEAD"); c != first {
		t.Fatalf("detached HEAD: %q, want %q", c, first)
	}
	git(t, repo, "checkout", "-q", "main")

	wt := filepath.Join(root, "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "side", wt, first)
	if c := same(t, wt, "linked worktree"); c != first {
		t.Fatalf("linked worktree: %q, want %q", c, first)
	}
	git(t, wt, "symbolic-ref", "HEAD", "refs/heads/main")
	if c := same(t, wt, "linked worktree on the main branch"); c != second {
		t.Fatalf("linked worktree on main: %q, want %q", c, second)
	}

	if c := same(t, root, "no repository"); c != "" {
		t.Fatalf("no repository: %q", c)
	}
}

func TestGitEnvironmentIsLeftToGit(t *testing.T) {
	testutil.RequireTool(t, "git")
	a := t.TempDir()
	git(t, a, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(a, "f"), []byte("a"), 0o644)
	git(t, a, "add", "f")
	git(t, a, "commit", "-q", "-m", "a")
	if _, ok := Read(a, os.Environ()); !ok {
		t.Fatal("the files of a plain repository were not read")
	}
	for _, v := range []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_COMMON_DIR=", "GIT_CEILING_DIRECTORIES="} {
		if c, ok := Read(a, append(os.Environ(), v+t.TempDir())); ok {
			t.Errorf("with %s set: Read = %q, ok; want git asked", v, c)
		}
	}
}

func TestUnreadableFilesAskGit(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("garbage\n"), 0o644)
	if _, err := fromFiles(dir); err != errAsk {
		t.Fatalf("a HEAD that is neither a ref nor a hash: %v, want errAsk", err)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git", "reftable"), 0o755)
	if _, err := fromFiles(dir); err != errAsk {
		t.Fatalf("a reftable repository: %v, want errAsk", err)
	}
}
