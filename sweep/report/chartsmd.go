package report

// charts is summary.md's section "Charts": the chart files embedded as
// images with their captions; nothing without charts.
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
