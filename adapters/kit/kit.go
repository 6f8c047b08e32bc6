// Package kit holds what adapters share: clipping messages, the one signal
// table, paths inside the project, the no-tests hint, adding a test's later
// failures, the helper processes an adapter runs itself, reading a report
// file while it is written. An adapter imports it; the contract (package
// adapters) does not, and the formats several frameworks speak are in
// kit/format.
package kit

import (
	"os"
	"strings"
	"time"
)

// EnvValue is the last value of key in env, or this process's when env is nil.
func EnvValue(env []string, key string) string {
	v, _ := EnvLookup(env, key)
	return v
}

// EnvLookup is env's last value of key, and whether key is set at all
// (this process's when env is nil).
func EnvLookup(env []string, key string) (string, bool) {
	if env == nil {
		return os.LookupEnv(key)
	}
	val, set := "", false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			val, set = v, true
		}
	}
	return val, set
}

// DurationOf converts fractional seconds, as test frameworks print them.
func DurationOf(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)) }
