// misbehave is a test command that misbehaves on request, for the runner's
// tests: misbehave MODE [ARG].
//
//	hang            print "started", then sleep forever
//	ignore-term     ignore SIGTERM, print "started", sleep forever
//	escape FILE     start a grandchild in its own session without the run
//	                id, holding stdout (its pid in FILE), print a passing
//	                TAP line and exit
//	grandchild FILE start a grandchild in a new session that writes its pid to FILE and sleeps forever; then hang
//	flood MB        print MB megabytes in lines, then "1 passed, 0 failed"
//	longline MB     print one line of MB megabytes, then "ok 1 - after"
//	signal NAME     kill itself with a signal (SEGV, ABRT, BUS, FPE, ILL, KILL)
//	silent CODE     exit with CODE, printing nothing
//	tap             print a small TAP stream with a failure
//	env             print the environment
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: misbehave MODE [ARG]")
		os.Exit(2)
	}
	arg := ""
	if len(os.Args) > 2 {
		arg = os.Args[2]
	}
	switch os.Args[1] {
	case "hang":
		fmt.Println("started")
		sleepForever()
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("started")
		sleepForever()
	case "grandchild":
		cmd := exec.Command(os.Args[0], "sleeper", arg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		fmt.Println("started")
		sleepForever()
	case "escape":
		// A grandchild that leaves the run as nothing else can: its own
		// session and no run id, so neither the group kill nor the sweep
		// finds it. It keeps stdout open; the parent passes and exits.
		cmd := exec.Command(os.Args[0], "sleeper", arg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Stdout = os.Stdout
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "STROBE_RUN_ID=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		fmt.Println("ok 1 - escaped")
	case "sleeper":
		os.WriteFile(arg, []byte(strconv.Itoa(os.Getpid())), 0o644)
		sleepForever()
	case "flood":
		mb, _ := strconv.Atoi(arg)
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		line := strings.Repeat("flood ", 16) + "\n" // 97 bytes
		for n := 0; n < mb<<20; n += len(line) {
			w.WriteString(line)
		}
		w.Flush()
		fmt.Println("1 passed, 0 failed")
	case "longline":
		mb, _ := strconv.Atoi(arg)
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		chunk := strings.Repeat("x", 1<<16)
		for n := 0; n < mb<<20; n += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString("\nok 1 - after\n")
		w.Flush()
	case "signal":
		// The Go runtime would catch SEGV and friends and exit 2; a shell
		// keeps their default action and dies of them.
		script := "echo 'ok 1 - before the crash'; kill -" + arg + " $$; sleep 5"
		syscall.Exec("/bin/sh", []string{"sh", "-c", script}, os.Environ())
	case "silent":
		code, _ := strconv.Atoi(arg)
		os.Exit(code)
	case "fewwords":
		// A linter's one line before the tests, then its exit.
		fmt.Fprintln(os.Stderr, "lint: 3 problems in src/a.js")
		os.Exit(1)
	case "tap":
		fmt.Print("1..3\nok 1 - adds\nnot ok 2 - divides\n  ---\n  at: src/div.c:42\n  ...\nok 3 - skipped one # SKIP no network\n")
		os.Exit(1)
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// sleepForever sleeps without looking deadlocked to the Go runtime.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
