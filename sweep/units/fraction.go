package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FractionForms names the forms ParseFraction accepts, for error messages.
const FractionForms = `a fraction such as 0.05 or a percentage such as "5%"`

// ParseFraction parses a share written as a fraction ("0.05") or as a
// percentage ("5%", "5 %"); both give 0.05. A number without a % sign
// must be below 1: "5" is meant as 5% far more often than as 500%, so it
// is refused with an error that says how to write either. NaN and
// infinities are refused. The range a share may take is the caller's to
// check (a config's resolve is below 1, a gate's threshold may be 150%).
// Config keys and command-line flags parse shares with it alone.
func ParseFraction(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, percent := strings.CutSuffix(t, "%")
	num = strings.TrimSpace(num)
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a number: want %s", s, FractionForms)
	}
	if percent {
		return x / 100, nil
	}
	if x >= 1 {
		return 0, fmt.Errorf("%s without a %% sign is a fraction, %s%%: write %s%% for %s percent (or %s as a fraction)",
			t, formatShare(100*x), num, num, formatShare(x/100))
	}
	return x, nil
}

// FormatPercent writes a share as ParseFraction reads it back: 0.05 is
// "5%", 1.1 is "110%" (twelve significant digits, so no float residue
// such as 110.00000000000001 shows).
func FormatPercent(x float64) string { return formatShare(100*x) + "%" }

// formatShare is x with twelve significant digits at most.
func formatShare(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }
