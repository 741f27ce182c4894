package store

import "testing"

func TestSQLiteVarint(t *testing.T) {
	cases := []struct {
		in   []byte
		want uint64
		n    int
	}{
		{[]byte{0x00}, 0, 1},
		{[]byte{0x7f, 0xff}, 127, 1},
		{[]byte{0x81, 0x00}, 128, 2},
		{[]byte{0x86, 0x8d, 0x20}, 6<<14 | 13<<7 | 32, 3},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, 9}, // the ninth byte is whole
		{[]byte{0x81}, 0, 0}, // truncated
	}
	for _, c := range cases {
		if v, n := sqliteVarint(c.in); v != c.want || n != c.n {
			t.Errorf("%x: %d (%d bytes), want %d (%d)", c.in, v, n, c.want, c.n)
		}
	}
}
