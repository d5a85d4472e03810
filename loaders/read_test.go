package loaders

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

// lineEvent is what lineReader.next tells of one line.
type lineEvent struct {
	line   int
	text   string
	broken bool
}

// scanLinesReference walks r as lineReader did with a token per line
// (bufio.ScanLines): the reference for the block-wise next.
func scanLinesReference(r io.Reader, maxTok int) (events []lineEvent, readErr error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 16), maxTok)
	line := 0
	for sc.Scan() {
		line++
		events = append(events, lineEvent{line, sc.Text(), sc.Err() != nil})
	}
	return events, sc.Err()
}

// piecewiseReader returns its data in pieces of at most step bytes, then err;
// with both set, the last piece comes with the error.
type piecewiseReader struct {
	data []byte
	step int
	err  error
	both bool
}

func (f *piecewiseReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p[:min(len(p), f.step)], f.data)
	f.data = f.data[n:]
	if f.both && len(f.data) == 0 {
		return n, f.err
	}
	return n, nil
}

// TestLineReaderMatchesScanLines compares the lines, their numbers and
// broken marks, and the final error of lineReader with those of a token per
// line, on random text (CR, LF, blank and long lines) read in pieces of every
// size, ending cleanly or in a read error (alone or with the last data), and
// with lines longer than the scanner allows.
func TestLineReaderMatchesScanLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []byte("0123456789 ab\r\n\n\n#")
	boom := errors.New("boom")
	for trial := range 3000 {
		n := rng.IntN(300)
		data := make([]byte, n)
		for i := range data {
			data[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if len(data) > 0 && data[0] == 0x1f {
			data[0] = '0' // not gzip
		}
		step := 1 + rng.IntN(40)
		maxTok := 1 << 20
		if trial%5 == 0 {
			maxTok = 16 + rng.IntN(48) // some lines are too long
		}
		var fail error
		both := false
		if trial%3 != 0 {
			fail, both = boom, trial%2 == 0
		}
		mk := func() io.Reader {
			if fail == nil {
				return iotest.HalfReader(&piecewiseReader{data: data, step: step, err: io.EOF})
			}
			return &piecewiseReader{data: data, step: step, err: fail, both: both}
		}
		want, wantErr := scanLinesReference(mk(), maxTok)

		sc := bufio.NewScanner(mk())
		sc.Buffer(make([]byte, 0, 16), maxTok)
		sc.Split((&lineSplitter{}).split)
		lr := &lineReader{path: "x", sc: sc, transient: trial%2 == 0}
		var got []lineEvent
		for lr.next() {
			got = append(got, lineEvent{lr.line, string([]byte(lr.text)), lr.broken})
		}
		msg := fmt.Sprintf("trial %d: %q step %d maxTok %d err %v both %v", trial, data, step, maxTok, fail, both)
		requireSameEvents(t, want, got, msg)
		gotErr := lr.sc.Err()
		require.Equal(t, wantErr, gotErr, msg)
	}
}

// requireSameEvents compares two walks, naming the first line they differ at.
func requireSameEvents(t *testing.T, want, got []lineEvent, msg string) {
	t.Helper()
	for i := range min(len(want), len(got)) {
		require.Equal(t, want[i], got[i], "%s: event %d", msg, i)
	}
	require.Equal(t, len(want), len(got), "%s: number of lines", msg)
}

// TestLineReaderGzipTruncated checks the line a truncated gzip stream is
// reported at, against the reference walk of the same stream.
func TestLineReaderGzipTruncated(t *testing.T) {
	var plain bytes.Buffer
	rng := rand.New(rand.NewPCG(13, 14))
	for range 200000 {
		fmt.Fprintf(&plain, "%d\n", rng.IntN(1000000))
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write(plain.Bytes())
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	for _, cut := range []int{z.Len() / 3, z.Len() / 2, z.Len() - 9, z.Len() - 1} {
		br, err := decompress(bytes.NewReader(z.Bytes()[:cut]), "cut.gz")
		require.NoError(t, err)
		want, wantErr := scanLinesReference(br, maxLine)
		require.Error(t, wantErr)
		lr, err := newLineReader(bytes.NewReader(z.Bytes()[:cut]), "cut.gz")
		require.NoError(t, err)
		var got []lineEvent
		for lr.next() {
			got = append(got, lineEvent{lr.line, lr.text, lr.broken})
		}
		requireSameEvents(t, want, got, fmt.Sprintf("cut at %d", cut))
		var pe *ParseError
		require.ErrorAs(t, lr.err(), &pe)
		wantLine := len(want) + 1
		if len(want) > 0 && want[len(want)-1].broken {
			wantLine = len(want)
		}
		require.Equal(t, wantLine, pe.Line, "cut at %d", cut)
	}
}

// TestSmallDecimal checks smallDecimal against strconv.ParseInt: equal
// where it accepts, and accepting every string of 1 to 9 ASCII digits.
func TestSmallDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	alphabet := "0123456789+- x\x00\xff/:"
	for range 100000 {
		b := make([]byte, rng.IntN(12))
		digits := rng.IntN(2) == 0
		for i := range b {
			if digits {
				b[i] = byte('0' + rng.IntN(10))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		s := string(b)
		v, ok := smallDecimal(s)
		want, err := strconv.ParseInt(s, 10, 64)
		plain := len(s) >= 1 && len(s) <= 9 && strings.Trim(s, "0123456789") == ""
		require.Equal(t, plain, ok, "%q", s)
		if ok {
			require.NoError(t, err, "%q", s)
			require.Equal(t, int(want), v, "%q", s)
		}
	}
}
