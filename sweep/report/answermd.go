package report

import (
	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/answer"
)

// answer is summary.md's section "The settings as code": the recommended
// config's settings (sweep.Recommendation.Settings) as a sweep config
// fragment, wasmtime crate calls, wasmtime serve flags and C API calls,
// each also a file of the run directory (AnswerFiles). Nothing for a run
// whose summary has no such settings (a command target, an older run).
func (m *mdWriter) answer() {
	r := m.s.Recommendation
	if r == nil || len(r.Settings) == 0 {
		return
	}
	blocks, err := answer.Blocks(r.Settings)
	if err != nil {
		m.f("## The settings as code\n\nNot written: %v.\n\n", err)
		return
	}
	what := "the recommended config"
	if r.KeepBaseline {
		what = "the baseline this run keeps"
	}
	m.f("## The settings as code\n\nThe settings of %s, %s, to copy; each is also a file of this run's directory. Settings not shown keep Wasmtime's defaults.\n\n", what, code(r.Config))
	for _, b := range blocks {
		m.f("**%s** (`%s`):\n\n```%s\n%s```\n\n", b.Title, b.File, b.Lang, b.Text)
	}
}

// AnswerFiles are the files of the answer as code for summary s (file
// name → contents), none when its recommendation has no settings.
func AnswerFiles(s sweep.Summary) (map[string][]byte, error) {
	r := s.Recommendation
	if r == nil || len(r.Settings) == 0 {
		return nil, nil
	}
	return answer.Files(r.Settings)
}
