package gotest

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"strobe/trace"
)

// valueRenderer writes Delve's loaded variables as short Go-like text,
// bounded: structs, slices, arrays and maps to depth levels and items
// elements each, the whole to size bytes.
type valueRenderer struct {
	depth, items, size int
}

func newValueRenderer(s *trace.Spec) valueRenderer {
	r := valueRenderer{depth: s.MaxDepth, items: s.MaxItems, size: s.MaxValue}
	if r.depth <= 0 {
		r.depth = trace.MaxDepth
	}
	if r.items <= 0 {
		r.items = trace.MaxItems
	}
	if r.size <= 0 {
		r.size = trace.MaxValue
	}
	return r
}

// loadConfig asks Delve for a little more than is rendered, so that the
// renderer, not Delve, decides where the "…" goes.
func (r valueRenderer) loadConfig() dlvLoadConfig {
	return dlvLoadConfig{
		FollowPointers:     true,
		MaxVariableRecurse: r.depth + 1,
		MaxStringLen:       r.size + 1,
		MaxArrayValues:     r.items + 1,
		MaxStructFields:    -1,
	}
}

// value renders v as a trace.Value named name.
func (r valueRenderer) value(name string, v *dlvVariable) trace.Value {
	out := trace.Value{Name: name, Type: v.Type}
	if v.Unreadable != "" {
		out.Unavailable = v.Unreadable
		return out
	}
	var b strings.Builder
	r.write(&b, v, 0)
	s := b.String()
	if len(s) > r.size {
		s = clipUTF8(s, r.size-len("…")) + "…"
	}
	out.Value = s
	return out
}

// clipUTF8 cuts s to at most n bytes without splitting a rune.
func clipUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:min(n, len(s))]
}

// write renders v at depth d. It stops early once the text is past size:
// what follows would be cut anyway.
func (r valueRenderer) write(b *strings.Builder, v *dlvVariable, d int) {
	if b.Len() > r.size {
		return
	}
	if v.Unreadable != "" {
		fmt.Fprintf(b, "<unreadable: %s>", v.Unreadable)
		return
	}
	switch reflect.Kind(v.Kind) {
	case reflect.String:
		b.WriteString(strconv.Quote(v.Value))
		if v.Len > int64(len(v.Value)) {
			fmt.Fprintf(b, "…(%d bytes)", v.Len)
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		b.WriteString(v.Value)
	case reflect.Complex64, reflect.Complex128:
		if len(v.Children) == 2 {
			fmt.Fprintf(b, "(%s+%si)", v.Children[0].Value, v.Children[1].Value)
		}
	case reflect.Ptr:
		r.pointer(b, v, d)
	case reflect.UnsafePointer:
		b.WriteString(unsafePointer(v))
	case reflect.Interface:
		r.iface(b, v, d)
	case reflect.Struct:
		r.fields(b, v, d)
	case reflect.Slice, reflect.Array:
		r.list(b, v, d)
	case reflect.Map:
		r.mapping(b, v, d)
	case reflect.Chan:
		if v.Base == 0 {
			b.WriteString("nil")
		} else {
			fmt.Fprintf(b, "%s (len %d, cap %d)", shortType(v.Type), v.Len, v.Cap)
		}
	case reflect.Func:
		if v.Value == "" {
			b.WriteString("nil")
		} else {
			b.WriteString(v.Value)
		}
	default:
		if v.Value != "" {
			b.WriteString(v.Value)
		} else {
			b.WriteString("?")
		}
	}
}

// unsafePointer renders an unsafe.Pointer as Delve's own printer does: the
// address is its one child's Addr (Delve leaves Base zero for pointers), and
// no child means nil.
func unsafePointer(v *dlvVariable) string {
	if len(v.Children) == 0 || v.Children[0].Addr == 0 {
		return "unsafe.Pointer(nil)"
	}
	return fmt.Sprintf("unsafe.Pointer(%#x)", v.Children[0].Addr)
}

func (r valueRenderer) pointer(b *strings.Builder, v *dlvVariable, d int) {
	switch {
	case len(v.Children) == 0 || v.Children[0].Addr == 0 && v.Children[0].Kind == 0:
		if v.Base == 0 && v.Addr != 0 || v.Value == "nil" {
			b.WriteString("nil")
		} else {
			fmt.Fprintf(b, "(%s)(%#x)", shortType(v.Type), v.Base)
		}
	case v.Children[0].Addr == 0:
		b.WriteString("nil")
	case d >= r.depth:
		fmt.Fprintf(b, "&%s{…}", shortType(v.Children[0].Type))
	default:
		b.WriteByte('&')
		r.write(b, &v.Children[0], d)
	}
}

func (r valueRenderer) iface(b *strings.Builder, v *dlvVariable, d int) {
	if v.Addr == 0 && len(v.Children) == 0 || len(v.Children) == 0 {
		b.WriteString("nil")
		return
	}
	c := &v.Children[0]
	if c.Kind == 0 && c.Addr == 0 {
		b.WriteString("nil")
		return
	}
	if reflect.Kind(c.Kind) == reflect.Ptr && len(c.Children) > 0 && c.Children[0].Addr == 0 {
		fmt.Fprintf(b, "%s(nil)", shortType(c.Type))
		return
	}
	r.write(b, c, d)
}

func (r valueRenderer) fields(b *strings.Builder, v *dlvVariable, d int) {
	b.WriteString(shortType(v.Type))
	if d >= r.depth || len(v.Children) == 0 && v.Len > 0 {
		b.WriteString("{…}")
		return
	}
	b.WriteByte('{')
	for i := range v.Children {
		if i == r.items {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Children[i].Name)
		b.WriteString(": ")
		r.write(b, &v.Children[i], d+1)
	}
	b.WriteByte('}')
}

func (r valueRenderer) list(b *strings.Builder, v *dlvVariable, d int) {
	if reflect.Kind(v.Kind) == reflect.Slice && v.Base == 0 {
		b.WriteString("nil")
		return
	}
	if byteSlice(v) {
		r.bytes(b, v)
		return
	}
	if d >= r.depth && v.Len > 0 {
		fmt.Fprintf(b, "[…%d items]", v.Len)
		return
	}
	b.WriteByte('[')
	n := min(len(v.Children), r.items)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		r.write(b, &v.Children[i], d+1)
	}
	if int64(n) < v.Len {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "…%d more", v.Len-int64(n))
	}
	b.WriteByte(']')
}

// byteSlice says whether v is a slice of bytes ([]byte, json.RawMessage):
// Delve loads it as a list of numbers, one child a byte.
func byteSlice(v *dlvVariable) bool {
	if reflect.Kind(v.Kind) != reflect.Slice {
		return false
	}
	if len(v.Children) > 0 {
		// Delve 1.27 gives uint8 reflect.Uint's kind: the type says it.
		t := v.Children[0].Type
		return t == "uint8" || t == "byte"
	}
	return v.Type == "[]uint8"
}

// bytes writes a slice of bytes as its type converting a Go string
// literal, []byte("GET / HTTP/1.1\r\n"), bytes that are not text escaped
// as Go escapes them; a slice Delve loaded in part says how long it is,
// as a string does. Its elements as numbers, [71, 69, 84, …], told an
// agent nothing it could read.
func (r valueRenderer) bytes(b *strings.Builder, v *dlvVariable) {
	buf := make([]byte, 0, len(v.Children))
	for i := range v.Children {
		n, err := strconv.ParseUint(v.Children[i].Value, 10, 8)
		if err != nil {
			break
		}
		buf = append(buf, byte(n))
	}
	t := shortType(v.Type)
	if t == "[]uint8" {
		t = "[]byte"
	}
	b.WriteString(t)
	b.WriteByte('(')
	switch {
	case len(buf) == 0 && v.Len > 0: // not loaded: deeper than Delve went
		fmt.Fprintf(b, "…%d bytes", v.Len)
	case int64(len(buf)) < v.Len:
		fmt.Fprintf(b, "%s…(%d bytes)", strconv.Quote(string(buf)), v.Len)
	default:
		b.WriteString(strconv.Quote(string(buf)))
	}
	b.WriteByte(')')
}

// clippedBytes says whether v is a slice of bytes Delve loaded only the
// first elements of, as it loads every list (loadConfig).
func clippedBytes(v *dlvVariable) bool {
	return byteSlice(v) && v.Base != 0 && int64(len(v.Children)) < v.Len
}

// bytesConfig loads a slice of bytes as far as a value is rendered.
func (r valueRenderer) bytesConfig() dlvLoadConfig {
	return dlvLoadConfig{MaxVariableRecurse: 1, MaxArrayValues: r.size + 1}
}

func (r valueRenderer) mapping(b *strings.Builder, v *dlvVariable, d int) {
	if v.Base == 0 && v.Len == 0 {
		b.WriteString("nil")
		return
	}
	if d >= r.depth && v.Len > 0 {
		fmt.Fprintf(b, "map[…%d entries]", v.Len)
		return
	}
	b.WriteString("map[")
	n := min(len(v.Children)/2, r.items)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		r.write(b, &v.Children[2*i], d+1)
		b.WriteString(": ")
		r.write(b, &v.Children[2*i+1], d+1)
	}
	if int64(n) < v.Len {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "…%d more", v.Len-int64(n))
	}
	b.WriteByte(']')
}

// shortType drops the import path from a type's packages:
// *example.com/m/shop.Item is *shop.Item.
func shortType(t string) string {
	for {
		i := strings.IndexByte(t, '/')
		if i < 0 {
			return t
		}
		j := strings.LastIndexAny(t[:i], "*[]() ,{}") + 1
		t = t[:j] + t[i+1:]
	}
}

// isNilError reports whether v, a result of type error, is nil.
func isNilError(v *dlvVariable) bool {
	if len(v.Children) == 0 {
		return v.Addr == 0 || v.Value == "nil"
	}
	c := v.Children[0]
	return c.Kind == 0 && c.Addr == 0
}
