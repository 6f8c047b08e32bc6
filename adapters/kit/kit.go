// Package kit holds what adapters share: clipping messages, naming a
// signal and its crash type, paths inside the project, the commands an
// adapter runs itself. An adapter imports it; the contract (package
// adapters) does not.
package kit

import (
	"fmt"
	"os"
	"strings"
	"time"

	"strobe/adapters"
)

// EnvValue is the last value of key in env, or this process's when env is nil.
func EnvValue(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	val := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			val = v
		}
	}
	return val
}

// DurationOf converts fractional seconds, as test frameworks print them.
func DurationOf(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)) }

// Usagef is a *adapters.UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &adapters.UsageError{Msg: fmt.Sprintf(format, args...)}
}
