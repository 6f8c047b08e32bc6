package shard_test

import (
	"strobe/junit"
	"strobe/shard"
)

func writeJUnit(path string, m *shard.Merged) error {
	return junit.WriteFile(path, junit.Build(junit.Run{Response: &m.Response, Tests: m.Tests, Started: m.Started}))
}
