package racesim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// FriedmanRace simulates an irace-style race (F-Race: Birattari et al.
// 2002, as irace runs it), the control the race rule is measured against:
// from round FirstTest on, after every round, a Friedman test of the
// survivors' ranks at level 0.05; when it rejects, Conover's post-hoc
// comparison drops every config whose rank sum is beyond the critical
// difference from the best's. No correction across looks or pairs. It
// stops at Finalists survivors or MaxRounds and returns the configs it
// dropped and the windows it took. Quantiles: Wilson–Hilferty for χ², a
// Cornish–Fisher expansion for Student t.
func FriedmanRace(rng *rand.Rand, f Field, n Noise, s Settings) (dropped []int, windows int) {
	alive := make([]bool, len(f))
	for i := range alive {
		alive[i] = true
	}
	names := make([]string, len(f))
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	var rows [][]float64 // per round, d of every config (NaN once dropped)
	for round := 0; round < s.MaxRounds; round++ {
		d, w := raceRound(rng, f, n, s.BlockSize, alive, names)
		windows += w
		row := make([]float64, len(f))
		for i := range row {
			row[i] = math.NaN()
		}
		for k, v := range d {
			i, _ := strconv.Atoi(k)
			row[i] = v
		}
		rows = append(rows, row)
		var surv []int
		for i, a := range alive {
			if a {
				surv = append(surv, i)
			}
		}
		if round+1 < FirstTest || len(surv) <= s.Finalists {
			continue
		}
		for _, i := range conover(rows, surv, 0.05) {
			alive[i] = false
			dropped = append(dropped, i)
		}
		if count(alive) <= s.Finalists {
			break
		}
	}
	return dropped, windows
}

// FirstTest is the round of F-Race's first test (irace's firstTest = 5).
const FirstTest = 5

// conover ranks the survivors within every round (rows where all of them
// were observed), runs the Friedman test and, when it rejects at alpha,
// returns the survivors whose rank sum exceeds the best's by more than
// Conover's critical difference.
func conover(rows [][]float64, surv []int, alpha float64) []int {
	k := len(surv)
	var ranks [][]float64
	for _, row := range rows {
		ok := true
		for _, i := range surv {
			ok = ok && !math.IsNaN(row[i])
		}
		if ok {
			ranks = append(ranks, rank(row, surv))
		}
	}
	n := len(ranks)
	if n < 2 || k < 2 {
		return nil
	}
	R := make([]float64, k)
	A := 0.0
	for _, r := range ranks {
		for j, v := range r {
			R[j] += v
			A += v * v
		}
	}
	C := float64(n*k) * float64((k+1)*(k+1)) / 4
	sumR2 := 0.0
	for _, v := range R {
		sumR2 += v * v
	}
	if A-C <= 0 {
		return nil
	}
	t1 := float64(k-1) * (sumR2 - float64(n)*C) / (A - C)
	if t1 <= chi2Quantile(1-alpha, float64(k-1)) {
		return nil
	}
	df := float64((n - 1) * (k - 1))
	crit := tQuantile(1-alpha/2, df) * math.Sqrt(2*float64(n)*(A-sumR2/float64(n))/df)
	best := slices.Min(R)
	var out []int
	for j, v := range R {
		if v-best > crit {
			out = append(out, surv[j])
		}
	}
	return out
}

// rank returns the ranks (1 = lowest, ties averaged) of row's entries at idx.
func rank(row []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for a, i := range idx {
		less, eq := 0, 0
		for _, j := range idx {
			switch {
			case row[j] < row[i]:
				less++
			case row[j] == row[i]:
				eq++
			}
		}
		out[a] = float64(less) + float64(eq+1)/2
	}
	return out
}

// normQuantile is the standard normal quantile.
func normQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

func chi2Quantile(p, k float64) float64 {
	z := normQuantile(p)
	h := 2 / (9 * k)
	return k * math.Pow(1-h+z*math.Sqrt(h), 3)
}

func tQuantile(p, df float64) float64 {
	z := normQuantile(p)
	return z + (z*z*z+z)/(4*df) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*df*df)
}

func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}
