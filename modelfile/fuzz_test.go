package modelfile

import (
	"bytes"
	"testing"
)

// FuzzUnmarshal: any input is an error or a file that encodes back to the
// same bytes; never a panic.
func FuzzUnmarshal(f *testing.F) {
	b, err := sample(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:60])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Unmarshal(data)
		if err != nil {
			return
		}
		out, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("accepted file does not encode: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("accepted file encodes to other bytes")
		}
	})
}
