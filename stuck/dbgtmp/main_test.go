package dbg

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"strobe/stuck"
)

func TestDbg(t *testing.T) {
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestDeadlock$", ".")
	cmd.Dir = "/work/main/stuck/testdata/godeadlock"
	cmd.Start()
	defer cmd.Process.Kill()
	v := stuck.NewProcView()
	time.Sleep(3 * time.Second)
	s, _ := v.Sample(cmd.Process.Pid)
	for _, p := range s.Procs {
		for _, th := range p.Threads {
			w := th.Wait
			fmt.Printf("%s %d %s known=%v timeout=%v rem=%v\n", p.Name, th.TID, w, w.Known, w.Timeout, w.Remaining)
		}
		if p.Name == "godeadlock.test" {
			c := stuck.NativeStacker().Stacks(context.Background(), p.PID, p.Exe)
			fmt.Printf("%s %v %s\n", c.Tool, c.Took, c.Reason)
			for _, st := range c.Stacks {
				fmt.Println(st.Name, st.Frames)
			}
		}
	}
}
