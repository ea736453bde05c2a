package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// warnings is summary.md's section "Warnings": the run's warnings and
// its cells', each once; a kind that recurs in many cells is one line.
func (m *mdWriter) warnings() {
	type key struct {
		code   sweep.WarningCode
		config string
		conc   int
		msg    string
	}
	seen := map[key]bool{}
	var ws []sweep.Warning
	add := func(w sweep.Warning) {
		k := key{w.Code, w.Config, w.Conc, w.Message}
		if !seen[k] {
			seen[k] = true
			ws = append(ws, w)
		}
	}
	for _, w := range m.s.Warnings {
		add(w)
	}
	cells := append([]sweep.Cell(nil), m.s.Cells...)
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].Concurrency < cells[j].Concurrency })
	for _, c := range cells {
		for _, w := range c.Warnings {
			if w.Config == "" {
				w.Config = c.Config
			}
			if w.Conc == 0 {
				w.Conc = c.Concurrency
			}
			add(w)
		}
	}
	m.f("## Warnings\n\n")
	if len(ws) == 0 {
		m.f("None.\n\n")
		return
	}
	// Run-level warnings one by one; cell warnings of one kind that recur
	// in many cells as a single line, so the list stays readable.
	count := map[sweep.WarningCode]int{}
	for _, w := range ws {
		if w.Config != "" || w.Conc > 0 {
			count[w.Code]++
		}
	}
	grouped := map[sweep.WarningCode]bool{}
	for _, w := range ws {
		cell := w.Config != "" || w.Conc > 0
		if cell && count[w.Code] > maxWarningLines {
			if grouped[w.Code] {
				continue
			}
			grouped[w.Code] = true
			m.f("- **%s** in %d cells (%s), e.g. %s c=%d: %s\n", w.Code, count[w.Code], warningLevels(ws, w.Code), code(w.Config), w.Conc, w.Message)
			continue
		}
		var where []string
		if w.Config != "" {
			where = append(where, code(w.Config))
		}
		if w.Conc > 0 {
			where = append(where, fmt.Sprintf("c=%d", w.Conc))
		}
		loc := ""
		if len(where) > 0 {
			loc = " (" + strings.Join(where, ", ") + ")"
		}
		m.f("- **%s**%s: %s\n", w.Code, loc, w.Message)
	}
	m.f("\n")
}

// maxWarningLines is how many cell warnings of one kind are listed one
// by one before they are summarised in a single line.
const maxWarningLines = 4

// warningLevels lists the concurrency levels at which cell warnings with
// code occur: "at c=64, 128".
func warningLevels(ws []sweep.Warning, code sweep.WarningCode) string {
	var cs []int
	seen := map[int]bool{}
	for _, w := range ws {
		if w.Code == code && w.Conc > 0 && !seen[w.Conc] {
			seen[w.Conc] = true
			cs = append(cs, w.Conc)
		}
	}
	sort.Ints(cs)
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = strconv.Itoa(c)
	}
	return "at c=" + strings.Join(s, ", ")
}
