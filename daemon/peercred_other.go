//go:build !linux && !darwin

package daemon

import (
	"errors"
	"net"
)

// peerUID is unknown here; the socket's 0600 mode inside a 0700 directory
// is the only guard.
func peerUID(*net.UnixConn) (int, error) {
	return -1, errors.New("peer credentials are not supported on this system")
}
