// Package shop is the traced fixture: a total that comes out wrong because
// Discount gets its arguments swapped, a package-level counter to watch,
// and a function called in a loop.
package shop

import (
	"errors"
	"strconv"
	"strings"
)

// Lookups counts the items priced so far: the watched counter.
var Lookups int

// Item is one parsed order line.
type Item struct {
	Name  string
	Cents int
	Qty   int
}

// Parse reads "name:qty:cents".
func Parse(line string) (Item, error) {
	parts := strings.Split(line, ":")
	if len(parts) != 3 {
		return Item{}, errors.New("want name:qty:cents")
	}
	qty, err := strconv.Atoi(parts[1])
	if err != nil {
		return Item{}, err
	}
	cents, err := strconv.Atoi(parts[2])
	if err != nil {
		return Item{}, err
	}
	return Item{Name: parts[0], Cents: cents, Qty: qty}, nil
}

// Subtotal prices one item.
func Subtotal(it Item) int {
	Lookups++
	return it.Cents * it.Qty
}

// Discount takes percent off total.
func Discount(total, percent int) int {
	return total - total*percent/100
}

// Total prices the lines, skipping those that do not parse, with percent
// off the sum.
func Total(lines []string, percent int) int {
	sum := 0
	for _, l := range lines {
		it, err := Parse(l)
		if err != nil {
			continue
		}
		sum += Subtotal(it)
	}
	return Discount(percent, sum) // the bug: the arguments are swapped
}

// Step is called in a loop by TestLoop.
func Step(i int) int {
	return i*2 + 1
}

// Header splits a "Name: value" line: the fixture of a []byte argument.
func Header(line []byte) (name, value []byte) {
	for i, c := range line {
		if c == ':' && i+2 <= len(line) {
			return line[:i], line[i+2:]
		}
	}
	return nil, nil
}
