package lazyre

import (
	"strings"
	"testing"
)

func TestCompiledOnFirstUse(t *testing.T) {
	r := New(`^(\w+)=(\d+)$`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	if m := r.FindStringSubmatch("n=42"); len(m) != 3 || m[1] != "n" || m[2] != "42" {
		t.Errorf("FindStringSubmatch = %q", m)
	}
	if r.re == nil || r.Re() != r.re {
		t.Error("not kept once compiled")
	}
	if r.MatchString("n=x") {
		t.Error("matched n=x")
	}
}

func TestCheckFindsABadExpression(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("Check before a bad one: %v", err)
	}
	bad := New(`a(b`)
	defer func() {
		mu.Lock()
		all = all[:len(all)-1]
		mu.Unlock()
	}()
	err := Check()
	if err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("Check = %v, want the missing parenthesis", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic at its first use")
		}
	}()
	bad.MatchString("ab")
}
