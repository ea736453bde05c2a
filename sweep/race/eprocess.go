package race

import "math"

// MaxBet is the largest fraction of its wealth an e-process bets in one
// round: with y ≥ −1 a round can cost at most this share of the wealth.
const MaxBet = 0.9

// Bettor is a one-sided betting e-process W = Π(1 + λₜ·yₜ) on
// observations y ∈ [−1, 1], betting that their mean is above 0. λₜ is the
// aGRAPA bet (Waudby-Smith & Ramdas 2024, "Estimating means of bounded
// random variables by betting"): μ̂/(σ̂² + μ̂²) clipped to [0, MaxBet],
// with μ̂ and σ̂² the regularised running mean and variance of the earlier
// observations only, so λₜ is predictable and W is a nonnegative
// supermartingale whenever every yₜ has conditional mean ≤ 0. The
// estimates start from one prior observation of +½ with variance ¼, so
// the first round already bets (a race's first rounds are its costliest:
// every config is still in it).
// The zero Bettor has wealth 1 and has seen nothing.
type Bettor struct {
	cap   float64 // the largest bet; 0 is MaxBet
	logW  float64 // ln W
	n     int     // observations so far
	sum   float64 // Σ y
	sqdev float64 // Σ (yₜ − μ̂ₜ)², μ̂ₜ the mean including yₜ
}

// Prior of the regularised estimates, with the weight of one
// observation: μ̂ starts at ½, σ̂² at ¼.
const (
	priorMean = 0.5
	priorVar  = 0.25
)

// Lambda returns the bet the next observation will be multiplied by.
func (b *Bettor) Lambda() float64 {
	mu := (priorMean + b.sum) / float64(b.n+1)
	v := (priorVar + b.sqdev) / float64(b.n+1)
	if mu <= 0 {
		return 0
	}
	c := b.cap
	if c == 0 {
		c = MaxBet
	}
	return math.Min(mu/(v+mu*mu), c)
}

// Observe multiplies the wealth by 1 + λ·y for the bet λ = Lambda() made
// before y was seen; y is clipped to [−1, 1].
func (b *Bettor) Observe(y float64) {
	y = clip1(y)
	b.logW += math.Log1p(b.Lambda() * y)
	b.n++
	b.sum += y
	mu := (priorMean + b.sum) / float64(b.n+1)
	b.sqdev += (y - mu) * (y - mu)
}

// LogWealth returns ln W.
func (b *Bettor) LogWealth() float64 { return b.logW }

// clip1 clips y to [−1, 1] (NaN to 0: no bet can gain or lose on it).
func clip1(y float64) float64 {
	if math.IsNaN(y) {
		return 0
	}
	return math.Max(-1, math.Min(1, y))
}
