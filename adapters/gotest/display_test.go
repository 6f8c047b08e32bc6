package gotest

import "testing"

func TestDisplay(t *testing.T) {
	p := &goParser{}
	for _, tc := range []struct {
		line, want string
		keep       bool
	}{
		{`{"Action":"output","Package":"m/shop","Test":"TestTotal","Output":"=== RUN   TestTotal\n"}`, "=== RUN   TestTotal", true},
		{`{"Action":"output","Package":"m/shop","Output":"    shop_test.go:8: Total = -41\r\n"}`, "    shop_test.go:8: Total = -41", true},
		{`{"Action":"run","Package":"m/shop","Test":"TestTotal"}`, "", false},
		{`{"Action":"fail","Package":"m/shop","Elapsed":0.2}`, "", false},
		{`# m/shop`, "# m/shop", true},
		{`{not json`, "{not json", true},
		{``, "", true},
	} {
		got, keep := p.Display(0, []byte(tc.line))
		if string(got) != tc.want || keep != tc.keep {
			t.Errorf("Display(%s) = %q, %v; want %q, %v", tc.line, got, keep, tc.want, tc.keep)
		}
	}
}
