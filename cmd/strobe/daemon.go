package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"strobe/daemon"
)

func init() {
	register(command{name: "daemon", summary: "[--idle 30m]  run the per-user daemon in the foreground (strobe test and strobe mcp start it on demand)", order: 40, run: cmdDaemon})
}

func cmdDaemon(ctx context.Context, args []string, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe daemon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	reapFor := fs.Int(daemon.ReapFlag[2:], 0, "")
	idle := fs.Duration("idle", daemon.DefaultIdle, "exit after this long without requests and with no run going (0: never)")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strobe daemon: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *reapFor > 0 {
		return reaper(*reapFor)
	}
	paths, err := daemon.DefaultPaths()
	if err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	if err := os.MkdirAll(paths.Home, 0o700); err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	log, logw, err := daemon.NewLogger(paths.Log)
	if err != nil {
		fmt.Fprintf(stderr, "strobe: opening the daemon log: %v\n", err)
		return exitUsage
	}
	// The daemon must not keep the directory it was started in busy.
	os.Chdir("/")
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	defer serveHeapProfiles()()
	err = daemon.Run(ctx, daemon.Options{Paths: paths, Version: version, Idle: *idle, Log: log, LogWriter: logw, Restart: true})
	switch {
	case errors.Is(err, daemon.ErrRunning):
		log.Info("another daemon serves; exiting")
		return exitOK
	case err != nil:
		log.Error("daemon failed", zapErr(err))
		fmt.Fprintf(stderr, "strobe daemon: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// reaper waits for the death of the daemon pid (the kernel sends SIGTERM,
// see daemon.ReapFlag), then kills what it left running.
func reaper(pid int) int {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	signal.Ignore(os.Interrupt) // a Ctrl+C meant for a foreground daemon is its business
	for os.Getppid() == pid {
		select {
		case <-sig:
		case <-time.After(time.Second):
		}
	}
	daemon.Reap(pid)
	return exitOK
}
