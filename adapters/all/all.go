// Package all is the one list of the adapters strobe knows, and the lookup
// and detection over it. An adapter is added here, by hand: no init()
// registration, so the list is what the code says.
package all

import (
	"fmt"
	"sort"
	"strings"

	"strobe/adapters"
	"strobe/adapters/cargo"
	"strobe/adapters/catch2"
	"strobe/adapters/generic"
	"strobe/adapters/gotest"
	"strobe/adapters/jest"
	"strobe/adapters/xcodebuild"
)

// Adapters returns every adapter, sorted by name.
func Adapters() []adapters.Adapter {
	list := []adapters.Adapter{
		cargo.New(),
		catch2.New(),
		generic.New(),
		gotest.New(),
		jest.New(),
		xcodebuild.New(),
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	return list
}

// Names lists the known frameworks, sorted.
func Names() []string {
	var names []string
	for _, a := range Adapters() {
		names = append(names, a.Name())
	}
	return names
}

// Lookup returns the adapter called name, or a usage error listing the known ones.
func Lookup(name string) (adapters.Adapter, error) {
	for _, a := range Adapters() {
		if a.Name() == strings.ToLower(name) {
			return a, nil
		}
	}
	return nil, adapters.Usagef("unknown framework %q: use one of %s", name, strings.Join(Names(), ", "))
}

// Detect picks the adapter for req: the most confident one wins, ties going
// to the name that sorts first so the choice is stable. Generic (confidence
// 1) only wins when a command was given; without one, a project nothing
// recognises is a usage error with the hints the adapters gave.
func Detect(req adapters.Request) (adapters.Adapter, adapters.Detection, error) {
	var best adapters.Adapter
	var bestD adapters.Detection
	var hints []string
	for _, a := range Adapters() {
		d := a.Detect(req)
		if d.Confidence > bestD.Confidence {
			best, bestD = a, d
		}
		if d.Hint != "" && d.Confidence == 0 {
			hints = append(hints, d.Hint)
		}
	}
	if best == nil || (bestD.Confidence <= 1 && len(req.Command) == 0) {
		msg := fmt.Sprintf("no test framework found in %s: pass --framework (one of %s) or --command with the test command", req.ProjectRoot, strings.Join(Names(), ", "))
		if len(hints) > 0 {
			msg += " (" + strings.Join(hints, "; ") + ")"
		}
		return nil, adapters.Detection{}, &adapters.UsageError{Msg: msg}
	}
	return best, bestD, nil
}
