package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep/units"
)

// interval formats a pair of fractional changes (quartiles or interval bounds).
func interval(q1, q3 float64) string {
	return "[" + units.Change(q1) + ", " + units.Change(q3) + "]"
}

// thousands formats v rounded to an integer with thousands separators.
func thousands(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	s := strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64)
	var b strings.Builder
	if v < 0 && s != "0" {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rps formats a request rate: integers from 100/s up, one decimal below.
func rps(v float64) string {
	if v >= 100 {
		return thousands(v)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// ms formats a latency in milliseconds with three significant digits.
func ms(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// us formats a CPU time in microseconds with one decimal.
func us(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// signedUs is a signed µs figure with a typographic minus: "+3.2", "−41.0".
func signedUs(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	switch {
	case s == "0.0" || s == "-0.0":
		return "0.0"
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:]
	}
	return "+" + s
}
