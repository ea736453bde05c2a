package units

import "testing"

func TestPercents(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"change down", Change(-0.1234), "−12.3%"},
		{"change up", Change(0.5), "+50.0%"},
		{"change zero", Change(-0.00001), "0.0%"},
		{"change NaN", Change(nan()), "n/a"},
		{"share", Share(0.02), "2%"},
		{"share small", Share(0.0025), "0.25%"},
		{"share level", Share(0.996572), "99.66%"},
		{"rate", Rate(0.042), "4.20%"},
		{"rate tiny", Rate(0.00001), "<0.01%"},
		{"rate zero", Rate(0), "0%"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }
