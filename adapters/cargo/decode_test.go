package cargo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"strobe/adapters/kit/format"
)

// TestDecodeMessageRecorded: every line of the recorded cargo and libtest
// output decodes as json.Unmarshal decodes it, and every libtest event in it
// takes format.DecodeLibtestEvent's fast path.
func TestDecodeMessageRecorded(t *testing.T) {
	var files []string
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".stdout")) {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			// A test's output printed without a newline comes before the
			// event, which Line cuts off.
			if i := bytes.Index(line, format.LibtestStart); i > 0 {
				line = line[i:]
			}
			var want, got cargoMessage
			wantErr := json.Unmarshal(line, &want)
			if err := decodeMessage(line, &got); (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: decodeMessage(%s) = %+v, %v; encoding/json: %+v, %v", f, line, got, err, want, wantErr)
			}
			if wantErr != nil || !bytes.HasPrefix(line, format.LibtestStart) {
				continue
			}
			events++
			if !format.DecodeLibtestEvent(line, new(format.LibtestEvent)) {
				t.Errorf("%s: a libtest event left the fast path: %s", f, line)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if events == 0 {
		t.Fatal("no libtest events in the recorded output")
	}
	t.Logf("%d libtest events in %d files", events, len(files))
}
