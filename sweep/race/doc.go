// Package race is the decision rule of load.rounds = "race": which
// configs of a grid to stop measuring, and when to stop racing, with an
// error rate that holds at every look (anytime-valid). It is pure: it
// reads one number per config per race round and does no I/O.
//
// The rule, per race round at the target level:
//
//   - Each config's observation is dᵢ = ln(Cᵢ/Bᵢ): its objective cost
//     (lower is better) over its own block's baseline in the same round.
//     For an ordered pair (i, j) the round's difference is x = dᵢ − dⱼ,
//     clipped to y = clip(x/c, −1, 1) with the clip c
//     (analysis.race_clip, 5%).
//   - A betting e-process Wᵢⱼ = Π(1 + λₜ·yₜ) tests "i is no worse than
//     j". λₜ ∈ [0, MaxBet] is predictable: aGRAPA (Waudby-Smith & Ramdas
//     2024), estimated from the pair's earlier rounds only, starting from
//     a prior of +½.
//   - Eᵢ is a portfolio of i's pair bets: each round it moves by
//     Σⱼ πⱼ·λᵢⱼ·yᵢⱼ, half of it on the survivor leading on the earlier
//     rounds (the runner-up, for the leader itself) and half spread over
//     the other survivors in proportion to Wᵢⱼ. The weights are fixed
//     before the round is seen. Under "i is the best" every pair's bet
//     has conditional mean ≤ 0 (y's mean is ≤ 0 when x is symmetric about
//     a mean ≤ 0, which clipping keeps), so Eᵢ is a nonnegative
//     supermartingale whatever the weights; Ville's inequality bounds the
//     chance that Eᵢ ever reaches 1/α_E by α_E. Config i is dropped
//     (eliminated) when Eᵢ ≥ 1/α_E. Betting on the leader rather than on
//     the plain mean of the pairs lets a config clearly worse than the
//     leader leave without evidence against every opponent.
//   - The race stops when at most Finalists configs survive; or when the
//     leader (the survivor with the lowest median d) is shown to be within
//     ε of every other survivor: for each ordered pair a second e-process
//     tests "i is worse than j by ε or more" on clip((ε − x)/c, −1, 1),
//     and the claim needs every Sᴸⱼ ≥ (K−1)/α_S (K the configs raced: a
//     Bonferroni bound over the possible leaders, so a false claim has
//     chance ≤ α_S + α_E whichever leader the data picked); or at
//     MaxRounds, when the report can only say "the best is among these".
//
// Infeasible configs (past the capacity cliff at the target, slot given
// up, a pool limit below the target) leave the race outside the error
// budget: their pairs are frozen like an eliminated config's.
//
// What the rule does under this project's noise is measured by package
// racesim and recorded in BENCHMARKS.md.
package race
