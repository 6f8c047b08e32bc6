package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"strobe/internal/lazyre"

	"github.com/tailscale/hujson"
)

// JSON and JSON with comments (opencode.jsonc) are edited through hujson's
// syntax tree, which keeps every byte it is not asked to change: comments,
// trailing commas, key order, indentation, CRLF line ends. strobe splices
// its entry into the bytes at the offsets hujson reports, in the style of
// the object it joins, and reparses after every change.

type jsonDoc struct {
	src  []byte
	nl   string
	unit string // one level of indentation
}

var hujsonPos = lazyre.New(`^hujson: (line \d+, column \d+): (.*)$`)

func parseJSON(path string, src []byte) (hujson.Value, map[string]any, error) {
	v, err := hujson.Parse(src)
	if err != nil {
		pe := &ParseError{Path: path, Msg: err.Error()}
		if m := hujsonPos.FindStringSubmatch(err.Error()); m != nil {
			pe.Pos, pe.Msg = m[1], m[2]
		}
		return v, nil, pe
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return v, nil, &ParseError{Path: path, Pos: "line 1", Msg: "the top level is not a JSON object"}
	}
	std := v.Clone()
	std.Standardize()
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(std.Pack()))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return v, nil, &ParseError{Path: path, Pos: "line 1", Msg: err.Error()}
	}
	return v, doc, nil
}

func newJSONDoc(src []byte) *jsonDoc {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	return &jsonDoc{src: src, nl: newline(src), unit: indentUnit(src)}
}

// indentUnit guesses one level of indentation from the first indented line.
func indentUnit(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		t := strings.TrimLeft(l, " \t")
		if t == "" || t == "\r" || len(t) == len(l) {
			continue
		}
		ws := l[:len(l)-len(t)]
		if ws[0] == '\t' {
			return "\t"
		}
		return ws
	}
	return "  "
}

// jsonSet makes src hold entry at path (container keys, then strobe's
// name), changing only what differs. It returns the new bytes.
func jsonSet(name string, src []byte, path []string, entry []field) ([]byte, error) {
	d := newJSONDoc(src)
	for range 100 {
		root, _, err := parseJSON(name, d.src)
		if err != nil {
			return nil, err
		}
		changed, err := d.setOnce(&root, path, entry)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if !changed {
			return d.src, nil
		}
	}
	return nil, fmt.Errorf("%s: editing did not settle", name)
}

// setOnce makes at most one change, so offsets stay true until the reparse.
func (d *jsonDoc) setOnce(cur *hujson.Value, path []string, entry []field) (bool, error) {
	for depth, key := range path {
		obj := cur.Value.(*hujson.Object)
		i := findMember(obj, key)
		if i < 0 {
			var val any = entry
			for k := len(path) - 1; k > depth; k-- {
				val = []field{{path[k], val}}
			}
			d.insertMember(cur, key, val)
			return true, nil
		}
		next := &obj.Members[i].Value
		indent := lineIndent(d.src, obj.Members[i].Name.StartOffset)
		if _, ok := next.Value.(*hujson.Object); !ok {
			if depth < len(path)-1 {
				return false, fmt.Errorf("%q is not an object, and strobe will not replace it: %w", key, errNotEditable)
			}
			d.replace(next, d.render(entry, indent))
			return true, nil
		}
		if depth == len(path)-1 {
			eobj := next.Value.(*hujson.Object)
			for _, f := range entry {
				j := findMember(eobj, f.key)
				if j < 0 {
					d.insertMember(next, f.key, f.val)
					return true, nil
				}
				if !sameJSON(eobj.Members[j].Value, f.val) {
					d.replace(&eobj.Members[j].Value, d.render(f.val, lineIndent(d.src, eobj.Members[j].Name.StartOffset)))
					return true, nil
				}
			}
			return false, nil
		}
		cur = next
	}
	return false, nil
}

// jsonRemove removes the entry at path and any container it leaves empty.
func jsonRemove(name string, src []byte, path []string) ([]byte, error) {
	d := newJSONDoc(src)
	removed := false
	for range 100 {
		root, _, err := parseJSON(name, d.src)
		if err != nil {
			return nil, err
		}
		// the chain of objects down to the entry's container
		chain := []*hujson.Value{&root}
		idx := []int{}
		cur := &root
		for _, key := range path {
			obj, ok := cur.Value.(*hujson.Object)
			if !ok {
				break
			}
			i := findMember(obj, key)
			if i < 0 {
				break
			}
			idx = append(idx, i)
			cur = &obj.Members[i].Value
			chain = append(chain, cur)
		}
		if len(idx) == len(path) {
			d.removeMember(chain[len(chain)-2], idx[len(idx)-1])
			removed = true
			continue
		}
		if !removed {
			return src, nil
		}
		// prune the deepest container on the path if it is now empty
		last := len(idx) - 1
		if last < 0 {
			return d.src, nil
		}
		c := chain[last+1]
		obj, ok := c.Value.(*hujson.Object)
		if !ok || len(obj.Members) > 0 || hasComment(d.src[c.StartOffset+1:c.EndOffset-1]) {
			return d.src, nil
		}
		d.removeMember(chain[last], idx[last])
	}
	return nil, fmt.Errorf("%s: editing did not settle", name)
}

func findMember(obj *hujson.Object, key string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == key {
			return i
		}
	}
	return -1
}

func sameJSON(v hujson.Value, want any) bool {
	v = v.Clone()
	v.Standardize()
	var got any
	dec := json.NewDecoder(bytes.NewReader(v.Pack()))
	dec.UseNumber()
	if dec.Decode(&got) != nil {
		return false
	}
	return sameValue(got, want)
}

func lineIndent(b []byte, off int) string {
	ls := lineStart(b, off)
	i := ls
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return string(b[ls:i])
}

// skipExtra skips whitespace and comments from off.
func skipExtra(b []byte, off int) int {
	for off < len(b) {
		switch {
		case b[off] == ' ' || b[off] == '\t' || b[off] == '\r' || b[off] == '\n':
			off++
		case bytes.HasPrefix(b[off:], []byte("//")):
			off = lineEnd(b, off)
		case bytes.HasPrefix(b[off:], []byte("/*")):
			j := bytes.Index(b[off+2:], []byte("*/"))
			if j < 0 {
				return len(b)
			}
			off += 2 + j + 2
		default:
			return off
		}
	}
	return off
}

// commaAfter is the offset of the comma that follows a value, or -1.
func (d *jsonDoc) commaAfter(off int) int {
	if q := skipExtra(d.src, off); q < len(d.src) && d.src[q] == ',' {
		return q
	}
	return -1
}

func hasComment(b []byte) bool {
	return bytes.Contains(b, []byte("//")) || bytes.Contains(b, []byte("/*"))
}

func (d *jsonDoc) replace(v *hujson.Value, text string) {
	d.src = splice(d.src, v.StartOffset, v.EndOffset, text)
}

// insertMember adds key: val as the last member of the object v, in the
// object's own style: one member a line with its indentation, or all on
// one line; with a trailing comma when the last member had one.
func (d *jsonDoc) insertMember(v *hujson.Value, key string, val any) {
	obj := v.Value.(*hujson.Object)
	open, close := v.StartOffset, v.EndOffset-1
	objIndent := lineIndent(d.src, open)
	if len(obj.Members) == 0 {
		inner := objIndent + d.unit
		text := d.nl + inner + d.member(key, val, inner) + d.nl + objIndent
		interior := d.src[open+1 : close]
		if hasComment(interior) {
			text = strings.TrimRight(string(interior), " \t\r\n") + text
			d.src = splice(d.src, open+1, close, text)
			return
		}
		// White space alone ("{ }", "{\n}") stays, after the member, so
		// that removeMember gives it back.
		d.src = splice(d.src, open+1, open+1, text)
		return
	}
	last := obj.Members[len(obj.Members)-1]
	trailing := d.commaAfter(last.Value.EndOffset) >= 0
	if !blankBefore(d.src, last.Name.StartOffset) { // all on one line
		d.src = splice(d.src, last.Value.EndOffset, last.Value.EndOffset, ", "+d.compact(key, val))
		return
	}
	inner := lineIndent(d.src, last.Name.StartOffset)
	text := inner + d.member(key, val, inner)
	if trailing {
		text += ","
	}
	if blankBefore(d.src, close) {
		ls := lineStart(d.src, close)
		d.src = splice(d.src, ls, ls, text+d.nl)
	} else {
		// The brace closes on the last member's line ("a": 1 }): so it
		// does on the new one's, which goes right after the last member
		// (and its comma), before whatever stood between it and the brace;
		// removeMember takes the member back with the line break before it
		// and leaves that as it was.
		at := last.Value.EndOffset
		if trailing {
			at = d.commaAfter(at) + 1
		}
		d.src = splice(d.src, at, at, d.nl+text)
	}
	if !trailing {
		d.src = splice(d.src, last.Value.EndOffset, last.Value.EndOffset, ",")
	}
}

// removeMember undoes insertMember: the member's own lines go, and the
// comma insertMember added after the member before it.
func (d *jsonDoc) removeMember(v *hujson.Value, i int) {
	obj := v.Value.(*hujson.Object)
	n := len(obj.Members)
	m := obj.Members[i]
	open, close := v.StartOffset, v.EndOffset-1
	end := m.Value.EndOffset
	own := d.commaAfter(end)
	if own >= 0 {
		end = own + 1
	}
	owned := blankBefore(d.src, m.Name.StartOffset) && blankAfter(d.src, end)
	switch {
	case n == 1 && !hasComment(d.src[open+1:close]):
		// insertMember's member line and the line break after it go; the
		// white space the object held before stays.
		after := d.nl + lineIndent(d.src, open)
		if bytes.HasPrefix(d.src[end:close], []byte(after)) {
			d.src = splice(d.src, open+1, end+len(after), "")
		} else {
			d.src = splice(d.src, open+1, close, "")
		}
	case n == 1 && owned:
		// Beside a comment: insertMember gave the member a line of its own.
		d.src = splice(d.src, lineStart(d.src, m.Name.StartOffset), lineEnd(d.src, end), "")
	case n == 1:
		d.src = splice(d.src, m.Name.StartOffset, end, "")
	case i == n-1:
		prev := d.commaAfter(obj.Members[i-1].Value.EndOffset)
		if owned {
			d.src = splice(d.src, lineStart(d.src, m.Name.StartOffset), lineEnd(d.src, end), "")
			if own < 0 {
				d.src = splice(d.src, prev, prev+1, "")
			}
		} else {
			d.src = splice(d.src, prev, m.Value.EndOffset, "")
		}
	case owned:
		d.src = splice(d.src, lineStart(d.src, m.Name.StartOffset), lineEnd(d.src, end), "")
	default:
		d.src = splice(d.src, m.Name.StartOffset, obj.Members[i+1].Name.StartOffset, "")
	}
}

func (d *jsonDoc) member(key string, val any, indent string) string {
	return jsonString(key) + ": " + d.render(val, indent)
}

// render writes a value whose first line continues a line indented by
// indent.
func (d *jsonDoc) render(val any, indent string) string {
	obj, ok := val.([]field)
	if !ok {
		return jsonScalar(val)
	}
	if len(obj) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.WriteString("{" + d.nl)
	for i, f := range obj {
		b.WriteString(indent + d.unit + d.member(f.key, f.val, indent+d.unit))
		if i < len(obj)-1 {
			b.WriteString(",")
		}
		b.WriteString(d.nl)
	}
	b.WriteString(indent + "}")
	return b.String()
}

func (d *jsonDoc) compact(key string, val any) string {
	obj, ok := val.([]field)
	if !ok {
		return jsonString(key) + ": " + jsonScalar(val)
	}
	parts := make([]string, len(obj))
	for i, f := range obj {
		parts[i] = d.compact(f.key, f.val)
	}
	return jsonString(key) + ": {" + strings.Join(parts, ", ") + "}"
}

func jsonScalar(val any) string {
	switch v := val.(type) {
	case string:
		return jsonString(v)
	case int:
		return strconv.Itoa(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = jsonString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	panic(fmt.Sprintf("install: no JSON form for %T", val))
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
