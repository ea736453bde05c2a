package units

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    Size
		wantErr string
	}{
		{"0", 0, ""},
		{"65536", 65536, ""},
		{"64KiB", 64 << 10, ""},
		{"2MiB", 2 << 20, ""},
		{" 1 GiB ", 1 << 30, ""},
		{"4GiB", 4 << 30, ""},
		{"10B", 10, ""},
		{"2MB", 0, "SI units like MB are not accepted"},
		{"64kb", 0, "binary IEC suffix"},
		{"64k", 0, "binary IEC suffix"},
		{"1.5MiB", 0, "want a non-negative integer"},
		{"-1", 0, "want a non-negative integer"},
		{"", 0, "empty"},
		{"KiB", 0, "no number"},
		{"99999999999TiB", 0, "overflows"},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrSize) {
				t.Errorf("ParseSize(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestSizeString(t *testing.T) {
	for in, want := range map[Size]string{0: "0", 65536: "64KiB", 2 << 20: "2MiB", 1000: "1000B", 1536: "1536B"} {
		if got := in.String(); got != want {
			t.Errorf("Size(%d).String() = %q, want %q", uint64(in), got, want)
		}
		back, err := ParseSize(in.String())
		if err != nil || back != in {
			t.Errorf("round trip of %d: %d, %v", uint64(in), back, err)
		}
	}
}

func ExampleParseSize() {
	s, err := ParseSize("256KiB")
	fmt.Println(uint64(s), s, err)
	_, err = ParseSize("2MB")
	fmt.Println(err != nil)
	// Output:
	// 262144 256KiB <nil>
	// true
}
