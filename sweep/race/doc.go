// Package race is the decision rule of load.rounds = "race": which
// configs of a grid to stop measuring, and when to stop racing, with an
// error rate that holds at every look (anytime-valid). It is pure: it
// reads one number per config per race round and does no I/O.
//
// The rule, per race round at the target level:
//
//   - Each config's observation is dᵢ = ln(Cᵢ/Bᵢ): its objective cost
//     (lower is better) over its own block's baseline in the same round.
//     For an ordered pair (i, j) the round's difference is x = dᵢ − dⱼ.
//   - For each of the rule's bets m (Rule.Bets) a betting e-process
//     Wᵢⱼ⁽ᵐ⁾ = Π(1 + λₜ·yₜ) tests "i is no worse than j" on
//     y = clip(x/cₘ, −1, 1), cₘ = Clip·Scaleₘ (Clip is analysis.race_clip,
//     5%). λₜ ∈ [0, Capₘ] is predictable: aGRAPA (Waudby-Smith & Ramdas
//     2024), estimated from the pair's earlier rounds only, starting from
//     a prior of +½.
//   - Eᵢ⁽ᵐ⁾ is a portfolio of i's pair bets: each round it moves by
//     Σⱼ πⱼ·λᵢⱼ·yᵢⱼ, LeaderShare of it on the survivor leading on the
//     earlier rounds by median d (the runner-up, for the leader itself)
//     and the rest spread in proportion to Wᵢⱼ⁽ᵐ⁾ over the other survivors
//     (Rule.Top > 0: over the Top leading survivors only); with
//     Rule.FirstUniform the first round is spread evenly over every
//     opponent, so that no weight depends on the grid's order. The
//     weights are fixed before the round is seen. Eᵢ is the mean of the
//     Eᵢ⁽ᵐ⁾.
//   - The guarantee: under "i is the best" every pair's bet has
//     conditional mean ≤ 0 (y's mean is ≤ 0 when x is symmetric about a
//     mean ≤ 0, which clipping keeps, given the earlier rounds), so each
//     Eᵢ⁽ᵐ⁾, and so their mean Eᵢ, is a nonnegative supermartingale from 1
//     whatever the weights; Ville's inequality bounds the chance that Eᵢ
//     ever reaches 1/α_E by α_E. Config i is dropped (eliminated) when
//     Eᵢ ≥ 1/α_E. This holds for each config, the best among them, at
//     any stopping time; it needs nothing of x's tails (clipping), only
//     the symmetry of a pair's difference given the past: the same
//     guarantee for every Rule.
//   - The race stops when at most Finalists configs survive; or when the
//     leader (the survivor with the lowest median d) is shown to be within
//     ε of every other survivor: for each ordered pair a second e-process
//     tests "i is worse than j by ε or more" on clip((ε − x)/c, −1, 1),
//     and the claim needs every Sᴸⱼ ≥ (K−1)/α_S (K the configs raced: a
//     Bonferroni bound over the possible leaders, so a false claim has
//     chance ≤ α_S + α_E whichever leader the data picked); or, with
//     Rule.Stall, once at most 2·Finalists survive and Stall rounds have
//     passed since its last elimination (StopStalled); or at MaxRounds.
//     After the last two the report can only say "the best is among
//     these". Stopping sooner never adds to either error.
//
// Two rules are defined. DefaultRule (a nil Params.Rule) is issue 32's:
// one bet of at most MaxBet (0.9) on clip(x/c), half on the leader and
// half over every survivor, no stall stop. Mixture is issue 41's: two
// bets of at most 0.95 and 0.99, both on clip(x/(c/2)); half on the
// leader and half over the 4 leading survivors; the first round even;
// the race stalls 3 rounds after its last elimination once at most
// 2·Finalists survive. A round can multiply Wᵢⱼ by at most 1 + Cap < 2;
// and no e-process valid for every pair difference symmetric about 0
// can do more than double in one observation (given |x|, x's sign is a
// fair coin), so no such rule can drop a config in fewer than
// ⌈log₂(1/α_E)⌉ observations of it (6 at α_E = 2%). Mixture can
// (1.95⁶ and 1.99⁶ average to 58 > 50); DefaultRule needs 7.
//
// Halves. A caller that reads each window as its two halves may call
// Observe twice a round, the first halves then the second, so that a
// round gives each pair two observations and a config can go after 3
// rounds; MaxRounds and Rule.Stall then count halves. The guarantee
// then needs each half's pair difference to be symmetric given
// everything before it, the round's first half included: the two halves
// of a window must be independent. Package racesim measures both: with
// independent halves the bounds hold; with halves correlated 0.3 a tied
// config is dropped in about 5% of runs, above α_E.
//
// Infeasible configs (past the capacity cliff at the target, slot given
// up, a pool limit below the target, over a memory budget: policy
// decides, Race.Drop) leave the race outside the error budget: their
// pairs are frozen like an eliminated config's.
//
// The confirmation of the finalists, in fresh rounds at every level,
// has two tests here: ConfirmRounds sizes the exact signed-rank test
// (issue 32; stats.SignedRankP with Holm, in sweep/summarize), and
// TRounds sizes Confirm, a paired t-test on the log ratios with Holm
// over the whole family at Split(confidence).Confirm. The signed-rank
// test is exact for any symmetric ratios, and so needs 12 pairs at the
// strictest level of 36 comparisons at 2%; the t-test needs none, is
// exact for normal ratios, and its error rate under this project's
// heavy-tailed noise is measured, not proven.
//
// sweep's races (package policy) run DefaultRule and the signed-rank
// confirmation: Mixture and the t confirmation are simulated (racesim,
// BENCHMARKS.md) but not yet measured on real servers, which issue 41
// asks before they become what sweep runs.
//
// What the rules do under this project's noise is measured by package
// racesim and recorded in BENCHMARKS.md.
package race
