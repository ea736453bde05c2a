package report

import (
	"image/color"
	"sort"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
)

// palette holds twelve colours. The first eight are Okabe and Ito's
// colour-blind-safe set (yellow darkened to show on white), blue first
// for the baseline; past eight, Paul Tol's wine, teal, olive and indigo
// (no grey: small multiples draw the baseline in grey). Config i always
// gets palette[i%12] and glyphs[i%8], so every chart of a run agrees,
// and shapes tell configs apart where colours do not.
var palette = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0xb8, 0xa0, 0x00, 0xff}, // dark yellow
	{0x00, 0x00, 0x00, 0xff}, // black
	{0x88, 0x22, 0x55, 0xff}, // wine
	{0x44, 0xaa, 0x99, 0xff}, // teal
	{0x99, 0x99, 0x33, 0xff}, // olive
	{0x33, 0x22, 0x88, 0xff}, // indigo
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.CrossGlyph{},
	draw.RingGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.PlusGlyph{},
}

// maxLabel is the longest legend label drawn as is; longer config labels
// get abbreviated axis names (see shortLabels).
const maxLabel = 60

// series is one config's cells in concurrency order, with its drawing style.
type series struct {
	Config   string
	Baseline bool
	AA       bool
	Cells    []sweep.Cell
	Color    color.RGBA
	Glyph    draw.GlyphDrawer
	Legend   string // legend text
}

// cell returns the series' cell at concurrency c.
func (s series) cell(c int) (sweep.Cell, bool) {
	for _, x := range s.Cells {
		if x.Concurrency == c {
			return x, true
		}
	}
	return sweep.Cell{}, false
}

// buildSeries groups s.Cells by config, in order of first appearance, and
// assigns each config its colour, glyph and legend label.
func buildSeries(s sweep.Summary) []series {
	var out []series
	idx := map[string]int{}
	for _, c := range s.Cells {
		i, ok := idx[c.Config]
		if !ok {
			i = len(out)
			idx[c.Config] = i
			out = append(out, series{Config: c.Config, Baseline: c.Baseline, AA: c.AA})
		}
		out[i].Cells = append(out[i].Cells, c)
	}
	labels := shortLabels(out)
	n := 0
	var base *series
	for i := range out {
		sort.SliceStable(out[i].Cells, func(a, b int) bool {
			return out[i].Cells[a].Concurrency < out[i].Cells[b].Concurrency
		})
		out[i].Legend = labels[i]
		if out[i].AA {
			continue
		}
		out[i].Color = palette[n%len(palette)]
		out[i].Glyph = glyphs[n%len(glyphs)]
		n++
		if out[i].Baseline {
			out[i].Legend += " (baseline)"
			base = &out[i]
		}
	}
	// The A/A twin is drawn as a thin, ring-marked copy of the baseline:
	// it is the baseline again, and should look like it.
	for i := range out {
		if !out[i].AA {
			continue
		}
		out[i].Color, out[i].Glyph = palette[n%len(palette)], glyphs[n%len(glyphs)]
		if base != nil {
			out[i].Color = base.Color
			out[i].Glyph = draw.RingGlyph{}
		}
	}
	return out
}

// levels returns the run's concurrency levels: the plan's, plus any that
// appear only in cells, ascending.
func levels(s sweep.Summary) []int {
	seen := map[int]bool{}
	var out []int
	add := func(c int) {
		if c > 0 && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range s.Plan.Concurrency {
		add(c)
	}
	for _, c := range s.Cells {
		add(c.Concurrency)
	}
	sort.Ints(out)
	return out
}

// shortLabels returns the legend labels of ss. Labels up to maxLabel
// characters are kept. Longer ones are rebuilt from the point with each
// axis name cut to its shortest word suffix that is still unique among the
// run's axes (linear_memory_keep_resident and table_keep_resident become
// memory_keep_resident and table_keep_resident), and as a last resort cut
// in the middle with "…".
func shortLabels(ss []series) []string {
	out := make([]string, len(ss))
	long := false
	for i, s := range ss {
		out[i] = s.Config
		if utf8.RuneCountInString(s.Config) > maxLabel {
			long = true
		}
	}
	if !long {
		return out
	}
	var points []sweep.Point
	for _, s := range ss {
		if len(s.Cells) > 0 {
			points = append(points, s.Cells[0].Point)
		}
	}
	abbr := axisAbbrev(points)
	for i, s := range ss {
		if len(s.Cells) == 0 || len(s.Cells[0].Point) == 0 {
			out[i] = cutMiddle(s.Config, maxLabel)
			continue
		}
		p := s.Cells[0].Point
		parts := make([]string, 0, len(p))
		for _, k := range p.Axes() {
			parts = append(parts, abbr[k]+"="+p[k])
		}
		l := strings.Join(parts, " ")
		if s.AA {
			l += " [A/A]"
		}
		out[i] = cutMiddle(l, maxLabel)
	}
	return out
}

// axisAbbrev maps every axis name in points to its shortest suffix of
// underscore-separated words that no other axis shares.
func axisAbbrev(points []sweep.Point) map[string]string {
	var names []string
	seen := map[string]bool{}
	for _, p := range points {
		for k := range p {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	out := map[string]string{}
	for _, n := range names {
		words := strings.Split(n, "_")
		out[n] = n
		// A one-word suffix of a long name ("resident") says too little.
		first := 1
		if len(words) >= 3 {
			first = 2
		}
		for k := first; k < len(words); k++ {
			suf := strings.Join(words[len(words)-k:], "_")
			unique := true
			for _, m := range names {
				if m != n && (m == suf || strings.HasSuffix(m, "_"+suf)) {
					unique = false
					break
				}
			}
			if unique {
				out[n] = suf
				break
			}
		}
	}
	return out
}

// cutMiddle shortens s to at most n runes by replacing its middle with "…".
func cutMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// fade returns c blended with white: a = 1 is c itself, a = 0 is white.
// Charts use it instead of transparency so overlaps stay predictable.
func fade(c color.RGBA, a float64) color.RGBA {
	return color.RGBA{
		R: uint8(float64(c.R)*a + 255*(1-a)),
		G: uint8(float64(c.G)*a + 255*(1-a)),
		B: uint8(float64(c.B)*a + 255*(1-a)),
		A: 0xff,
	}
}
