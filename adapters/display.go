package adapters

// Displayer is implemented by a parser whose command prints its output
// encoded (go test -json): it turns one line into the text the line
// shows, for the stdout and stderr events of a traced run's session.
// keep false drops a line that shows nothing (test2json's run, pass and
// fail events). Display is called from the stdout and stderr readers at
// once, outside Line's lock: it must keep no state.
type Displayer interface {
	Display(s Stream, line []byte) (text []byte, keep bool)
}
