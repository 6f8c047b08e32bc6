package install

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"strobe/internal/lazyre"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// TOML (Codex's config.toml) is edited by splicing bytes at the ranges
// go-toml's unstable parser reports for each top-level expression, so every
// byte outside strobe's table stays as it was: comments, blank lines, key
// order, quoting, CRLF. go-toml's document API (Marshal) would rewrite the
// whole file, and no maintained Go TOML library edits a document in place,
// so the splice is small and checked: the result is decoded again and must
// equal the original everywhere but strobe's table.

type tomlExpr struct {
	header     bool // [table] or [[array]]
	array      bool
	path       []string // a header's key, or a key/value's full key (table + own key)
	key        []string // a key/value's own key
	start, end int      // from the start of its first line to after its last line's newline
	valStart   int      // a key/value: where its "key = value" starts and ends
	valEnd     int
}

func decodeTOML(path string, src []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(src, &doc); err != nil {
		pe := &ParseError{Path: path, Msg: err.Error()}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			pe.Pos = fmt.Sprintf("line %d, column %d", line, col)
			pe.Msg = strings.TrimPrefix(de.Error(), "toml: ")
		}
		return nil, pe
	}
	return doc, nil
}

func scanTOML(src []byte) ([]tomlExpr, error) {
	var p unstable.Parser
	p.Reset(src)
	var table []string
	var out []tomlExpr
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, first, lastEnd := keyOf(e.Key())
			table = keys
			out = append(out, tomlExpr{header: true, array: e.Kind == unstable.ArrayTable, path: keys,
				start: lineStart(src, first), end: lineEnd(src, lastEnd)})
		case unstable.KeyValue:
			keys, _, _ := keyOf(e.Key())
			s, t := int(e.Raw.Offset), int(e.Raw.Offset+e.Raw.Length)
			out = append(out, tomlExpr{path: append(slices.Clone(table), keys...), key: keys,
				start: lineStart(src, s), end: lineEnd(src, t), valStart: s, valEnd: t})
		}
	}
	return out, p.Error()
}

func keyOf(it unstable.Iterator) (keys []string, first, lastEnd int) {
	first = -1
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		if first < 0 {
			first = int(n.Raw.Offset)
		}
		lastEnd = int(n.Raw.Offset + n.Raw.Length)
	}
	return keys, first, lastEnd
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// section is a table header and the key/values under it.
type section struct {
	header int // index in exprs
	last   int // index of its last expression
}

func sections(exprs []tomlExpr) []section {
	var out []section
	for i, e := range exprs {
		if e.header {
			out = append(out, section{header: i, last: i})
		} else if len(out) > 0 {
			out[len(out)-1].last = i
		}
	}
	return out
}

type edit struct {
	from, to int
	text     string
}

func applyEdits(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	for _, e := range edits {
		src = splice(src, e.from, e.to, e.text)
	}
	return src
}

// tomlSet makes src hold entry as the table at path.
func tomlSet(name string, src []byte, path []string, entry []field) ([]byte, error) {
	doc, err := decodeTOML(name, src)
	if err != nil {
		return nil, err
	}
	exprs, err := scanTOML(src)
	if err != nil {
		return nil, &ParseError{Path: name, Pos: "?", Msg: err.Error()}
	}
	nl := newline(src)
	secs := sections(exprs)
	main := -1
	for i, s := range secs {
		if e := exprs[s.header]; !e.array && slices.Equal(e.path, path) {
			main = i
		}
	}
	owned := map[int]bool{} // expressions under [strobe's table] or its sub-tables
	for _, s := range secs {
		if main >= 0 && hasPrefix(exprs[s.header].path, path) {
			for i := s.header; i <= s.last; i++ {
				owned[i] = true
			}
		}
	}
	other := false // strobe's entry written in a form strobe does not edit
	for i, e := range exprs {
		inMain := owned[i]
		switch {
		case e.header && e.array && hasPrefix(e.path, path[:1]) && hasPrefix(path, e.path):
			other = true
		case !e.header && !inMain && (hasPrefix(e.path, path) || hasPrefix(path, e.path)):
			other = true
		}
	}
	if other {
		if entryCurrent(doc, path, entry) {
			return src, nil
		}
		return nil, fmt.Errorf("%s: strobe's entry is not a [%s] table of its own (an inline table or dotted keys): %w",
			name, strings.Join(path, "."), errNotEditable)
	}
	if main >= 0 {
		s := secs[main]
		end := exprs[s.last].end
		var edits []edit
		var add strings.Builder
		for _, f := range entry {
			line := tomlKey(f.key) + " = " + tomlValue(f.val)
			found := false
			for i := s.header + 1; i <= s.last; i++ {
				if e := exprs[i]; slices.Equal(e.key, []string{f.key}) {
					found = true
					if v, _ := lookup(doc, append(slices.Clone(path), f.key)); !sameValue(v, f.val) {
						edits = append(edits, edit{e.valStart, e.valEnd, line})
					}
				}
			}
			if !found {
				add.WriteString(line + nl)
			}
		}
		if add.Len() > 0 {
			text := add.String()
			if end == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
				text = nl + text
			}
			edits = append(edits, edit{end, end, text})
		}
		return applyEdits(src, edits), nil
	}
	if _, ok := lookup(doc, path); ok { // only sub-tables such as [mcp_servers.strobe.env]
		return nil, fmt.Errorf("%s: strobe's entry has no [%s] table of its own: %w", name, strings.Join(path, "."), errNotEditable)
	}
	// a new table, after the last [mcp_servers.*] table or at the end
	var block strings.Builder
	block.WriteString("[" + tomlKeyPath(path) + "]" + nl)
	for _, f := range entry {
		block.WriteString(tomlKey(f.key) + " = " + tomlValue(f.val) + nl)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return append(slices.Clone(src), block.String()...), nil
	}
	at := len(src)
	for _, s := range secs {
		if hasPrefix(exprs[s.header].path, path[:1]) {
			at = exprs[s.last].end
		}
	}
	prefix := nl
	if at == len(src) && src[len(src)-1] != '\n' {
		prefix = nl + nl
	}
	return splice(src, at, at, prefix+block.String()), nil
}

// tomlRemove removes the table at path, its sub-tables, and key/values that
// define it, each with the blank line tomlSet put before a new table.
func tomlRemove(name string, src []byte, path []string) ([]byte, error) {
	doc, err := decodeTOML(name, src)
	if err != nil {
		return nil, err
	}
	if _, ok := lookup(doc, path); !ok {
		return src, nil
	}
	exprs, err := scanTOML(src)
	if err != nil {
		return nil, &ParseError{Path: name, Pos: "?", Msg: err.Error()}
	}
	nl := newline(src)
	var edits []edit
	secs := sections(exprs)
	inStrobe := map[int]bool{}
	for _, s := range secs {
		e := exprs[s.header]
		if !hasPrefix(e.path, path) {
			continue
		}
		for i := s.header; i <= s.last; i++ {
			inStrobe[i] = true
		}
		// The blank line tomlSet put before the table is nl after a line
		// ending, which in a file of mixed endings need not be nl.
		from := e.start
		if before := src[:from]; bytes.HasSuffix(before, []byte(nl)) && bytes.HasSuffix(before[:len(before)-len(nl)], []byte("\n")) {
			from -= len(nl)
		}
		edits = append(edits, edit{from, exprs[s.last].end, ""})
	}
	for i, e := range exprs {
		if e.header || inStrobe[i] {
			continue
		}
		if hasPrefix(e.path, path) {
			edits = append(edits, edit{e.start, e.end, ""})
		} else if hasPrefix(path, e.path) {
			return nil, fmt.Errorf("%s: strobe's entry is inside the inline table %s: %w", name, strings.Join(e.path, "."), errNotEditable)
		}
	}
	return applyEdits(src, edits), nil
}

var bareKey = lazyre.New(`^[A-Za-z0-9_-]+$`)

func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}

func tomlKeyPath(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		parts[i] = tomlKey(k)
	}
	return strings.Join(parts, ".")
}

func tomlValue(val any) string {
	switch v := val.(type) {
	case string:
		return tomlString(v)
	case int:
		return strconv.Itoa(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	panic(fmt.Sprintf("install: no TOML form for %T", val))
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
