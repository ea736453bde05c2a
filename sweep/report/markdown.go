package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
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
	m.answer()
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
// Each section of summary.md is a method of it in a file named after the
// section (recommendationmd.go for "Recommendation", and so on); the
// section on profiles, which Render appends, is Profiles in profilesmd.go.
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

// header is summary.md's title and the line under it (when, which
// target, how many windows), and a warning at the top of an incomplete
// run.
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
