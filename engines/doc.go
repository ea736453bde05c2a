// Package engines holds the recipes that run a sweep's shards on existing
// job engines — a Slurm job array (slurm/), a Kubernetes Indexed Job
// (kubernetes/) and a GitHub Actions matrix (github-actions/) — and the
// test that parses them and checks that each hands shard i of the same n
// to its i-th task. It has no code of its own; see README.md.
package engines
