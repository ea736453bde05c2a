package units

import (
	"math"
	"strconv"
	"strings"
)

// The percent formatters: every percentage sweep writes for people comes
// from one of these three, by what the number is (FormatPercent writes a
// share back as ParseFraction reads it, for flags and config keys).

// Change formats a signed fractional change with a typographic minus and
// one decimal: −0.123 → "−12.3%", 0.5 → "+50.0%", 0 → "0.0%"; "n/a" for
// NaN and infinities. Every change of a metric, in a sentence or a table.
func Change(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	switch {
	case s == "0.0" || s == "-0.0":
		return "0.0%"
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:] + "%"
	default:
		return "+" + s + "%"
	}
}

// Share formats a share or a confidence level with up to two decimals
// and no sign: 0.02 → "2%", 0.0025 → "0.25%", 0.99657 → "99.66%". Error
// budgets, confidence levels, thresholds.
func Share(f float64) string {
	return strconv.FormatFloat(float64(int64(f*10000+0.5))/100, 'g', -1, 64) + "%"
}

// Rate formats a rate of requests with two decimals: 0.042 → "4.20%";
// a rate that is not zero never rounds to "0.00%" ("<0.01%").
func Rate(f float64) string {
	switch {
	case f == 0:
		return "0%"
	case f > 0 && f < 0.0001:
		return "<0.01%"
	default:
		return strconv.FormatFloat(100*f, 'f', 2, 64) + "%"
	}
}
