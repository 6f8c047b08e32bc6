package nodeinspect

import (
	"encoding/base64"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/go-sourcemap/sourcemap"
)

// maxSourceMap bounds a source map strobe reads from disk.
const maxSourceMap = 32 << 20

// script is what Debugger.scriptParsed said of one script.
type script struct {
	url    string
	mapURL string // its //# sourceMappingURL, inline (data:) or relative to url
	smap   *sourcemap.Consumer
	tried  bool // the map was read (or failed to be): read once
}

// original maps a 0-based generated position of a script to the 1-based
// original file, line and column, through the script's source map: the
// code V8 runs is what vitest, jest (babel) or ts-node made of the test
// file, and its positions are not the user's. ok is false when the
// script has no readable map, or the map no mapping there.
func (s *script) original(line0, col0 int) (file string, line, col int, ok bool) {
	if !s.tried {
		s.tried = true
		s.smap = loadMap(s.url, s.mapURL)
	}
	if s.smap == nil {
		return "", 0, 0, false
	}
	src, _, l, c, ok := s.smap.Source(line0+1, col0)
	if !ok || src == "" || l <= 0 {
		return "", 0, 0, false
	}
	return filePath(src), l, c + 1, true
}

// loadMap reads a script's source map: inline as a data: URL (vite-node,
// babel-jest), or a file beside a file:// script (tsc, esbuild). nil when
// there is none or it cannot be read.
func loadMap(scriptURL, mapURL string) *sourcemap.Consumer {
	if mapURL == "" {
		return nil
	}
	var b []byte
	if rest, ok := strings.CutPrefix(mapURL, "data:"); ok {
		meta, data, ok := strings.Cut(rest, ",")
		if !ok {
			return nil
		}
		if strings.HasSuffix(meta, ";base64") {
			dec, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				return nil
			}
			b = dec
		} else {
			dec, err := url.PathUnescape(data)
			if err != nil {
				return nil
			}
			b = []byte(dec)
		}
	} else {
		p := filePath(mapURL)
		if !path.IsAbs(p) {
			base := filePath(scriptURL)
			if !path.IsAbs(base) {
				return nil // a script without a file: nothing to resolve against
			}
			p = path.Join(path.Dir(base), p)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > maxSourceMap {
			return nil
		}
		if b, err = os.ReadFile(p); err != nil {
			return nil
		}
	}
	// The script's own URL resolves the map's relative sources.
	base := scriptURL
	if path.IsAbs(base) {
		base = "file://" + base
	}
	c, err := sourcemap.Parse(base, b)
	if err != nil {
		return nil
	}
	return c
}
