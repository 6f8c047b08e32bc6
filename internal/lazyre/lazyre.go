// Package lazyre holds regular expressions compiled on first use.
//
// strobe's adapters read output with about 180 regular expressions. As
// package-level regexp.MustCompile calls they were all compiled at every
// start of the binary (4 to 5 ms and 2 MB of the CLI's start), though a
// `strobe test` client uses none of them and a run uses one adapter's.
// A Regexp here is compiled the first time it is used; Check compiles
// every one made so far, so a test still catches a bad expression.
package lazyre

import (
	"fmt"
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Its methods are
// those of regexp.Regexp that strobe uses; Re gives the rest.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns src as a Regexp, compiled on first use. An invalid
// expression panics then, as regexp.MustCompile would have at start;
// Check finds it sooner.
func New(src string) *Regexp {
	r := &Regexp{src: src}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// Re is the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// Check compiles every Regexp made so far and reports the first that does
// not compile: a test of a package that makes them calls it.
func Check() error {
	mu.Lock()
	rs := append([]*Regexp(nil), all...)
	mu.Unlock()
	for _, r := range rs {
		if _, err := regexp.Compile(r.src); err != nil {
			return fmt.Errorf("lazyre: %w", err)
		}
	}
	return nil
}

// String is the source text of the expression.
func (r *Regexp) String() string { return r.src }

func (r *Regexp) MatchString(s string) bool                  { return r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                        { return r.Re().Match(b) }
func (r *Regexp) FindStringSubmatch(s string) []string       { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte             { return r.Re().FindSubmatch(b) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int     { return r.Re().FindStringSubmatchIndex(s) }
func (r *Regexp) FindStringIndex(s string) []int             { return r.Re().FindStringIndex(s) }
func (r *Regexp) ReplaceAllString(src, repl string) string   { return r.Re().ReplaceAllString(src, repl) }
func (r *Regexp) ReplaceAll(src, repl []byte) []byte         { return r.Re().ReplaceAll(src, repl) }
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte { return r.Re().FindAllSubmatch(b, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) SubexpIndex(name string) int { return r.Re().SubexpIndex(name) }
