package units

import (
	"strings"
	"testing"
)

func TestParseFraction(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    float64
		wantErr string // the whole message when set
	}{
		{"0.05", 0.05, ""},
		{"5%", 0.05, ""},
		{" 5 % ", 0.05, ""},
		{"0%", 0, ""},
		{"0", 0, ""},
		{"0.999", 0.999, ""},
		{"150%", 1.5, ""},
		{"2.5%", 0.025, ""},
		{"-5%", -0.05, ""}, // the caller's range refuses it
		{"-0.5", -0.5, ""},
		{"5", 0, "5 without a % sign is a fraction, 500%: write 5% for 5 percent (or 0.05 as a fraction)"},
		{"1", 0, "1 without a % sign is a fraction, 100%: write 1% for 1 percent (or 0.01 as a fraction)"},
		{"1.1", 0, "1.1 without a % sign is a fraction, 110%: write 1.1% for 1.1 percent (or 0.011 as a fraction)"},
		{"lots", 0, `"lots" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"", 0, `"" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"%", 0, `"%" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"5%%", 0, `"5%%" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"NaN", 0, `"NaN" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"Inf%", 0, `"Inf%" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{"5 percent", 0, `"5 percent" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
	} {
		got, err := ParseFraction(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("ParseFraction(%q) = %v, %v; want the error %q", tt.in, got, err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseFraction(%q): the error is not one line: %q", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseFraction(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestFormatPercent: what FormatPercent writes, ParseFraction reads back,
// with no float residue in the text.
func TestFormatPercent(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{0.05, "5%"}, {0.07, "7%"}, {1.1, "110%"}, {0.025, "2.5%"}, {0, "0%"}, {0.001, "0.1%"},
	} {
		got := FormatPercent(tt.in)
		if got != tt.want {
			t.Errorf("FormatPercent(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := ParseFraction(got); err != nil || back != tt.in {
			t.Errorf("ParseFraction(FormatPercent(%v)) = %v, %v", tt.in, back, err)
		}
	}
}
