package protobuf

import (
	"encoding/binary"
	"testing"
)

// TestUvarintLen: the arithmetic length is AppendUvarint's at every
// 7-bit boundary.
func TestUvarintLen(t *testing.T) {
	for _, x := range []uint64{0, 1, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 21, 1<<35 + 5, 1<<63 - 1, 1 << 63, ^uint64(0)} {
		if got, want := uvarintLen(x), len(binary.AppendUvarint(nil, x)); got != want {
			t.Errorf("uvarintLen(%d) = %d, want %d", x, got, want)
		}
	}
}
