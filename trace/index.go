package trace

import "strings"

// index holds what a query filters on for every event of a session, as
// columns, so that a query over 200,000 events reads no event it does not
// answer. Strings (functions, files, threads, return values) are numbered
// in Strings, 0 being "".
type index struct {
	// Base is where the first event's line starts in the session file;
	// event i (from 0) spans Offsets[i] to Offsets[i+1] after it.
	Base    int64
	Offsets []int64
	Types   []uint8 // Type's place in eventTypes, from 1; 0 for another
	Flags   []uint8 // flagError, flagNull
	T       []int64
	Dur     []int64
	Func    []uint32
	File    []uint32
	Thread  []uint32
	Returns []uint32 // the return values, joined by a NUL
	Strings []string

	ids map[string]uint32
}

const (
	flagError = 1 << iota
	flagNull
)

func newIndex() *index {
	return &index{Strings: []string{""}, ids: map[string]uint32{"": 0}}
}

func (x *index) str(s string) uint32 {
	if id, ok := x.ids[s]; ok {
		return id
	}
	id := uint32(len(x.Strings))
	x.Strings = append(x.Strings, s)
	x.ids[s] = id
	return id
}

// add indexes e, whose line starts at off in the body.
func (x *index) add(e *Event, off int64) {
	x.Offsets = append(x.Offsets, off)
	typ := uint8(0)
	for i, t := range eventTypes {
		if t == e.Type {
			typ = uint8(i + 1)
		}
	}
	var flags uint8
	if e.Error {
		flags |= flagError
	}
	if e.Type == Exit && isNull(e.Return) {
		flags |= flagNull
	}
	x.Types = append(x.Types, typ)
	x.Flags = append(x.Flags, flags)
	x.T = append(x.T, e.T)
	x.Dur = append(x.Dur, e.DurationNS)
	x.Func = append(x.Func, x.str(e.Function))
	x.File = append(x.File, x.str(e.File))
	x.Thread = append(x.Thread, x.str(e.Thread))
	var ret uint32
	if e.Type == Exit && len(e.Return) > 0 {
		vals := make([]string, len(e.Return))
		for i, v := range e.Return {
			vals[i] = v.Value
		}
		ret = x.str(strings.Join(vals, "\x00"))
	}
	x.Returns = append(x.Returns, ret)
}

// end closes the offsets with the body's end.
func (x *index) end(off int64) { x.Offsets = append(x.Offsets, off) }

// valid checks that the index is whole: n events, every column as long.
func (x *index) valid(n int, headLen int64) bool {
	if x.Base != headLen || len(x.Offsets) != n+1 {
		return false
	}
	for _, l := range []int{len(x.Types), len(x.Flags), len(x.T), len(x.Dur), len(x.Func), len(x.File), len(x.Thread), len(x.Returns)} {
		if l != n {
			return false
		}
	}
	for _, col := range [][]uint32{x.Func, x.File, x.Thread, x.Returns} {
		for _, id := range col {
			if int(id) >= len(x.Strings) {
				return false
			}
		}
	}
	return true
}

// lookup finds a string's id in a loaded index (whose map is not stored).
func (x *index) lookup(s string) (uint32, bool) {
	for id, v := range x.Strings {
		if v == s {
			return uint32(id), true
		}
	}
	return 0, false
}
