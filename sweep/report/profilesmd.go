package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// ReadProfiles reads dir/profiles.json; none (nil, nil) when the run was
// not profiled.
func ReadProfiles(dir string) ([]sweep.CellProfile, error) {
	p := rundir.Dir(dir).Profiles()
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading profiles: %w", err)
	}
	var ps []sweep.CellProfile
	if err := json.Unmarshal(b, &ps); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return ps, nil
}

// profileTop is how many families a profile's line names.
const profileTop = 3

// Profiles writes summary.md's section on the cells' CPU profiles: per
// level and config the families that took the most CPU per request, and
// the biggest differences in µs per request from the baseline's profile
// of the same block and level.
func Profiles(w io.Writer, ps []sweep.CellProfile) error {
	if len(ps) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("## Profiles: where the CPU goes\n\n")
	b.WriteString("One extra window per cell after the measured ones (never one of them), with `perf record -e cpu-clock -g` on the server's CPUs; only the server process's samples count. " +
		"Families group the kernel's and the host's functions (the outermost specific kernel frame decides: a page fault inside `madvise` is madvise). " +
		"µs per request are the family's sampled CPU over the window's completed requests. Open a profile with `go tool pprof -top FILE`, compare two with `go tool pprof -top -diff_base BASE CAND`.\n\n")
	var levels []int
	for _, p := range ps {
		if !slices.Contains(levels, p.Concurrency) {
			levels = append(levels, p.Concurrency)
		}
	}
	slices.Sort(levels)
	for _, c := range levels {
		fmt.Fprintf(&b, "### c=%d\n\n| config | samples | top families, µs/req | vs baseline, µs/req | profile |\n|---|---:|---|---|---|\n", c)
		for _, p := range ps {
			if p.Concurrency != c {
				continue
			}
			diff := "—"
			if !p.Baseline {
				if base := baselineProfile(ps, p); base != nil {
					diff = familyDiff(*base, p)
				}
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | `%s` |\n", cellText(code(p.Config)), p.Samples, topFamilies(p), diff, p.File)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// baselineProfile is the baseline's profile of p's block and level.
func baselineProfile(ps []sweep.CellProfile, p sweep.CellProfile) *sweep.CellProfile {
	for i := range ps {
		if ps[i].Baseline && ps[i].Block == p.Block && ps[i].Concurrency == p.Concurrency {
			return &ps[i]
		}
	}
	return nil
}

// topFamilies is "page fault 41.2 (38%), madvise/munmap 20.1 (19%), …".
func topFamilies(p sweep.CellProfile) string {
	var parts []string
	for i, f := range p.Families {
		if i == profileTop {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s (%.0f%%)", f.Name, us(f.UsPerReq), 100*f.Share))
	}
	if len(parts) == 0 {
		return "no samples"
	}
	return strings.Join(parts, ", ")
}

// familyDiff is the profileTop largest differences cand − base in µs
// per request: "page fault −41.0, madvise/munmap −12.3, …".
func familyDiff(base, cand sweep.CellProfile) string {
	per := map[string]float64{}
	for _, f := range cand.Families {
		per[f.Name] += f.UsPerReq
	}
	for _, f := range base.Families {
		per[f.Name] -= f.UsPerReq
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(math.Abs(per[b]), math.Abs(per[a])), strings.Compare(a, b))
	})
	var parts []string
	for i, n := range names {
		if i == profileTop {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", n, signedUs(per[n])))
	}
	return strings.Join(parts, ", ")
}
