package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sweep-dev/sweep/sweep"
)

// Markdown writes summary.md: a short performance review of the run that
// a colleague can act on. It leads with the recommendation, then says
// where and how the run was measured, gives one results table per
// concurrency level, the A/A noise band, capacity cliffs, sign flips and
// warnings, and embeds the given chart files (names as returned by
// Charts) as images. An incomplete run is flagged at the top.
func Markdown(w io.Writer, s sweep.Summary, charts []string) error {
	bw := bufio.NewWriter(w)
	m := &mdWriter{w: bw, s: s, ss: buildSeries(s), lv: levels(s)}
	m.header()
	m.recommendation()
	m.race()
	m.environment()
	m.plan()
	m.results()
	m.memory()
	m.noise()
	m.cliffs()
	m.tradeoffs()
	m.warnings()
	m.charts(charts)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing summary.md: %w", err)
	}
	return nil
}

// mdWriter accumulates summary.md; write errors surface at Flush.
type mdWriter struct {
	w  *bufio.Writer
	s  sweep.Summary
	ss []series
	lv []int
}

func (m *mdWriter) f(format string, a ...any) { fmt.Fprintf(m.w, format, a...) }

// code quotes a config label for prose.
func code(s string) string { return "`" + s + "`" }

// cellText escapes a table cell.
func cellText(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func (m *mdWriter) header() {
	s := m.s
	name := s.Name
	if name == "" {
		name = "sweep run"
	}
	m.f("# %s: sweep report\n\n", name)
	var meta []string
	if !s.Created.IsZero() {
		meta = append(meta, "run of "+s.Created.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if s.Environment.Target != "" {
		meta = append(meta, string(s.Environment.Target)+" target")
	}
	meta = append(meta, fmt.Sprintf("%d of %d planned windows measured", s.Plan.Measured, s.Plan.Windows))
	m.f("%s.\n\n", capitalize(strings.Join(meta, " · ")))
	if !s.Complete {
		m.f("> **Incomplete run.** Only %d of %d planned windows were measured: the run was interrupted or windows failed. "+
			"The figures below use what was measured; finish the run with `sweep -resume DIR` before acting on them.\n\n",
			s.Plan.Measured, s.Plan.Windows)
	}
}

// plural is "1 config", "3 configs", "2 server processes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func (m *mdWriter) recommendation() {
	m.f("## Recommendation\n\n")
	r := m.s.Recommendation
	if r == nil {
		m.f("No recommendation: the run has no candidate config with a paired comparison against the baseline.\n\n")
		return
	}
	metric, words, _ := objective(r.Objective)
	detail := ""
	for _, sr := range m.ss {
		if sr.Config != r.Config {
			continue
		}
		if c, ok := sr.cell(r.Concurrency); ok {
			if d, ok := c.VsBaseline[metric]; ok && d.CILow != nil && d.CIHigh != nil {
				detail = fmt.Sprintf(", interval %s at %s over %d paired rounds", interval(*d.CILow, *d.CIHigh), confidence(d.Confidence), d.Pairs)
			}
		}
	}
	switch {
	case r.KeepBaseline && len(candidates(m.ss)) == 0:
		m.f("**Keep the baseline %s.** It is the only config in this run, so there is nothing to compare it with.", code(r.Config))
	case r.KeepBaseline && undecidedAt(m.ss, r.Concurrency, metric) != nil:
		d := undecidedAt(m.ss, r.Concurrency, metric)
		m.f("**Keep the baseline %s: this run decided nothing at c=%d.** Every candidate's %s is %s; run at least %d rounds (or `rounds = \"auto\"`).\n\n",
			code(r.Config), r.Concurrency, words, undecidedWords(*d), d.Needed)
		return // an older summary's reason would say "no config improved"
	case r.KeepBaseline:
		m.f("**Keep the baseline %s.** At c=%d no candidate improves %s for certain.", code(r.Config), r.Concurrency, words)
	default:
		m.f("**Use %s**: %s %s vs the baseline %s at c=%d (paired median%s), with the run's false-verdict risk controlled, with no errors.",
			code(r.Config), change(r.Change), words, code(m.s.Baseline), r.Concurrency, detail)
		m.budgetLines(r)
		m.f("\n\n")
		return // the stats reason says the same in other words
	}
	if reason := strings.TrimSpace(r.Reason); reason != "" {
		if !strings.HasSuffix(reason, ".") {
			reason += "."
		}
		m.f(" %s", capitalize(reason))
	}
	m.f("\n\n")
}

func (m *mdWriter) environment() {
	e := m.s.Environment
	m.f("## Environment\n\n")
	cpu := orUnknown(e.CPUModel)
	if e.Cores > 0 {
		cpu += fmt.Sprintf(" (%d cores)", e.Cores)
	}
	m.f("- Host: %s, %s, kernel %s\n", orUnknown(e.Host), cpu, orUnknown(e.Kernel))
	m.f("- Go %s, Wasmtime %s, target %s\n", orUnknown(e.GoVersion), orUnknown(e.WasmtimeVersion), orUnknown(string(e.Target)))
	m.pluginLines()
	m.f("- Server CPUs %s (read back: %s); load generator CPUs %s (read back: %s)\n",
		orUnknown(e.ServerCPUs), orUnknown(e.ServerPinned), orUnknown(e.LoadCPUs), orUnknown(e.LoadPinned))
	if e.ServerCPUsAxis {
		m.f("- Each config's servers on its own CPUs (grid.server_cpus; the server CPUs above are their union)\n")
	}
	if e.ShareCPUs {
		m.f("- Servers allowed to share CPUs with the load generator (run.share_cpus); each level names the configs that did\n")
	}
	if e.CPURule != "" {
		m.f("- CPUs chosen by default (run.server_cpus / run.load_cpus): %s\n", e.CPURule)
	}
	if e.AwakeCPUs != "" {
		m.f("- CPUs %s kept awake (run.keep_awake: an idle-priority spinner on each, so no request waits for a halted CPU to wake)\n", e.AwakeCPUs)
	} else {
		m.f("- No CPUs kept awake (run.keep_awake off, or CPUs not pinned): idle CPUs halt, and at low concurrency requests wait for them to wake\n")
	}
	if e.ServerSched != "" {
		m.f("- Servers ran at SCHED_%s (run.server_sched), not the default SCHED_OTHER\n", strings.ToUpper(string(e.ServerSched)))
	}
	if len(m.s.Cells) > 0 {
		var srv, ld float64
		for _, c := range m.s.Cells {
			srv, ld = max(srv, c.ServerSteal), max(ld, c.LoadSteal)
		}
		m.f("- Hypervisor steal (the cells' medians, at most): %s of the server CPUs' time, %s of the load CPUs'\n",
			pct(srv), pct(ld))
		var so, lo *float64
		for _, c := range m.s.Cells {
			if c.ServerOther != nil && (so == nil || *c.ServerOther > *so) {
				so = c.ServerOther
			}
			if c.LoadOther != nil && (lo == nil || *c.LoadOther > *lo) {
				lo = c.LoadOther
			}
		}
		if so != nil && lo != nil {
			m.f("- Other work on the pinned CPUs (anything but this window's server, the driver and the spinners; the cells' medians, at most): %s of the server CPUs' time, %s of the load CPUs'\n",
				pct(*so), pct(*lo))
		}
	}
	m.f("\n")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func (m *mdWriter) plan() {
	p := m.s.Plan
	m.f("## Plan\n\n")
	axes := "no axes"
	if len(p.Axes) > 0 {
		q := make([]string, len(p.Axes))
		for i, a := range p.Axes {
			q[i] = code(a)
		}
		axes = strings.Join(q, " × ")
	}
	m.f("- Grid: %s over %s; baseline %s", plural(len(p.Points), "config"), axes, code(m.s.Baseline))
	if m.s.AAConfig != "" {
		m.f("; A/A twin %s (the baseline run twice, as the noise control)", code(m.s.AAConfig))
	} else {
		m.f("; no A/A control")
	}
	m.f(".\n")
	lv := make([]string, len(p.Concurrency))
	for i, c := range p.Concurrency {
		lv[i] = strconv.Itoa(c)
	}
	m.f("- Concurrency: %s closed-loop connections.\n", strings.Join(lv, ", "))
	rounds := fmt.Sprintf("%d per level", p.Rounds)
	if p.RoundsAuto {
		rounds = fmt.Sprintf("adaptive, up to %d per level, added only for configs not yet resolved to ±%g%% (each cell's rounds say how many it took)", p.Rounds, 100*p.Resolve)
	}
	m.f("- Rounds: %s; in each round every slot gets one %s window after a %s warmup, slot order rotated",
		rounds, p.Duration, p.Warmup)
	if p.Slices > 1 {
		m.f("; the round's windows measured interleaved, each in %d pieces of %s taken from the slots in turn"+
			" (paired changes cancel the machine's drift; absolute CPU/req and RPS are those of servers loaded in bursts,"+
			" which can differ from continuous load at high concurrency: `slice = \"0\"` measures that)",
			p.Slices, p.Duration/time.Duration(p.Slices))
	}
	m.f(".\n")
	restarts := "kept alive across rounds"
	if p.Restarts == sweep.RestartsRound {
		restarts = "restarted every round"
	}
	remeasured := ""
	if p.Remeasured > 0 {
		remeasured = fmt.Sprintf(" (%s re-measured after a failure; the failed ones are in results.jsonl)", plural(p.Remeasured, "window"))
	}
	m.f("- Slots: %s, %s; %d of %d windows measured%s.\n", plural(p.Slots, "server process"), restarts, p.Measured, p.Windows, remeasured)
	m.blocks()
	if len(m.s.Reference) > 0 {
		var lv []string
		for _, c := range m.s.Reference {
			lv = append(lv, fmt.Sprintf("c=%d %s µs CPU/req, %s RPS", c.Concurrency, us(c.CPUUsPerReq), rps(c.RPS)))
		}
		m.f("- Reference server (the built-in host with a fixed workload, in every round, never judged; what `sweep check -baseline` compares two runs through): %s.\n", strings.Join(lv, "; "))
	}
	_, words, _ := objective(p.Objective)
	m.f("- Objective: %s at c=%d; a capacity cliff is an error rate above %s.\n\n", words, p.TargetConc, pct(p.CliffRate))
}

func (m *mdWriter) charts(files []string) {
	if len(files) == 0 {
		return
	}
	m.f("## Charts\n\n")
	for _, f := range files {
		caption := f
		for _, sp := range chartSpecs {
			if sp.File == f {
				caption = sp.Caption
			}
		}
		m.f("![%s](%s)\n\n", caption, f)
	}
}

// blocks is the Plan section's line on blocks and shards: how the grid
// was split, the part this run holds, and how far the baseline moved
// from block to block.
func (m *mdWriter) blocks() {
	p := m.s.Plan
	if p.Blocks > 1 {
		m.f("- Blocks: %d, of up to %d configs besides the baseline each (run.block_size), one after another; each block ran the baseline (and its A/A twin) itself, only one block's servers were alive at a time, and every change is paired with the baseline of its own block.\n",
			p.Blocks, p.BlockSize)
	}
	switch {
	case p.Shard != "":
		var bs []string
		for _, b := range p.ShardBlocks {
			bs = append(bs, strconv.Itoa(b))
		}
		m.f("- Shard %s of the plan: block %s only (the other shards' configs are not in this report; `sweep merge` combines the shards).\n", p.Shard, strings.Join(bs, ", "))
	case len(p.Merged) > 0:
		m.f("- Merged from shards %s (`sweep merge`).\n", strings.Join(p.Merged, ", "))
	}
	if len(m.s.BlockDrift) == 0 {
		return
	}
	var lv []string
	for _, d := range m.s.BlockDrift {
		lv = append(lv, fmt.Sprintf("c=%d %s (%s to %s %s)", d.Concurrency, change(d.Spread),
			strconv.FormatFloat(d.Min, 'f', 1, 64), strconv.FormatFloat(d.Max, 'f', 1, 64), d.Metric.Unit()))
	}
	_, words, _ := objective(p.Objective)
	m.f("- Drift between blocks: the baseline's %s, highest block's median over the lowest's: %s. The pairing within blocks cancels it from the changes; absolute levels of configs in different blocks differ by up to this much.\n", words, strings.Join(lv, "; "))
}
