package engines

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/driver"
)

// The recipes' files, relative to this directory.
const (
	jobFile      = "kubernetes/sweep-job.yaml"
	mergeJobFile = "kubernetes/sweep-merge-job.yaml"
	workflowFile = "github-actions/sweep.yml"
	sbatchFile   = "slurm/sweep-array.sbatch"
	gridFile     = "grid.toml"
)

// The parts of a Kubernetes manifest the checks read.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"` // ConfigMap
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		Template       struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type podSpec struct {
	Affinity struct {
		PodAntiAffinity struct {
			Required []struct {
				LabelSelector struct {
					MatchLabels map[string]string `yaml:"matchLabels"`
				} `yaml:"labelSelector"`
				TopologyKey string `yaml:"topologyKey"`
			} `yaml:"requiredDuringSchedulingIgnoredDuringExecution"`
		} `yaml:"podAntiAffinity"`
	} `yaml:"affinity"`
	Containers []struct {
		Name         string   `yaml:"name"`
		Command      []string `yaml:"command"`
		Args         []string `yaml:"args"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	} `yaml:"containers"`
	Volumes []struct {
		Name      string `yaml:"name"`
		ConfigMap *struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
		PersistentVolumeClaim *struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
	} `yaml:"volumes"`
}

// readObjects decodes every YAML document of a manifest file.
func readObjects(t *testing.T, path string) []k8sObject {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var objs []k8sObject
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var o k8sObject
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: document %d is not valid YAML for a Kubernetes object: %v", path, len(objs)+1, err)
		}
		objs = append(objs, o)
	}
	return objs
}

func find(objs []k8sObject, kind, name string) *k8sObject {
	for i := range objs {
		if objs[i].Kind == kind && objs[i].Metadata.Name == name {
			return &objs[i]
		}
	}
	return nil
}

// flagValue is the argument after flag in args ("" and false if none).
func flagValue(args []string, flag string) (string, bool) {
	i := slices.Index(args, flag)
	if i < 0 || i+1 >= len(args) {
		return "", false
	}
	return args[i+1], true
}

// blocks is how many blocks sweep plans for the grid config data: the
// most shards that all get work.
func blocks(t *testing.T, name string, data []byte) int {
	t.Helper()
	cfg, err := config.Parse(name, data)
	if err != nil {
		t.Fatalf("%s: the grid config does not parse: %v", name, err)
	}
	return len(driver.Blocks(cfg))
}

// TestKubernetesJob: the Job is Indexed with completions == parallelism ==
// N, pod i runs -shard $(JOB_COMPLETION_INDEX)/N into a directory of its
// own on the shared volume, no two pods share a node, and the grid in the
// ConfigMap has N blocks.
func TestKubernetesJob(t *testing.T) {
	objs := readObjects(t, jobFile)
	job := find(objs, "Job", "sweep")
	if job == nil {
		t.Fatalf("%s: no Job named sweep among its %d documents", jobFile, len(objs))
	}
	s := job.Spec
	if s.CompletionMode != "Indexed" {
		t.Errorf("%s: spec.completionMode is %q, want Indexed (pod i gets JOB_COMPLETION_INDEX=i only in an Indexed Job)", jobFile, s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil {
		t.Fatalf("%s: spec.completions and spec.parallelism must both be set to N (completions %v, parallelism %v)", jobFile, s.Completions, s.Parallelism)
	}
	n := *s.Completions
	if *s.Parallelism != n {
		t.Errorf("%s: spec.parallelism is %d, spec.completions %d: want both N, so that all shards run at once", jobFile, *s.Parallelism, n)
	}

	pod := s.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%s: the pod template has %d containers, want 1 (sweep)", jobFile, len(pod.Containers))
	}
	c := pod.Containers[0]
	argv := append(slices.Clone(c.Command), c.Args...)
	shard, found := flagValue(argv, "-shard")
	if !found {
		t.Fatalf("%s: container %s's command %q has no -shard argument", jobFile, c.Name, argv)
	}
	if want := fmt.Sprintf("$(JOB_COMPLETION_INDEX)/%d", n); shard != want {
		t.Errorf("%s: container %s runs -shard %q, want exactly %q (index from the Job controller, n = spec.completions = %d)", jobFile, c.Name, shard, want, n)
	}
	if out, _ := flagValue(argv, "-out"); !strings.Contains(out, "$(JOB_COMPLETION_INDEX)") {
		t.Errorf("%s: container %s runs -out %q: want a directory per shard, named with $(JOB_COMPLETION_INDEX)", jobFile, c.Name, out)
	}

	req := pod.Affinity.PodAntiAffinity.Required
	if len(req) == 0 {
		t.Errorf("%s: no affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution: shards could share a node", jobFile)
	}
	for i, term := range req {
		if term.TopologyKey != "kubernetes.io/hostname" {
			t.Errorf("%s: pod anti-affinity term %d has topologyKey %q, want kubernetes.io/hostname (one shard per node)", jobFile, i, term.TopologyKey)
		}
		sel := term.LabelSelector.MatchLabels
		if len(sel) == 0 {
			t.Errorf("%s: pod anti-affinity term %d has no labelSelector.matchLabels", jobFile, i)
		}
		for k, v := range sel {
			if s.Template.Metadata.Labels[k] != v {
				t.Errorf("%s: pod anti-affinity term %d selects %s=%s, which the Job's pods (labels %v) do not carry: it would keep them apart from nothing", jobFile, i, k, v, s.Template.Metadata.Labels)
			}
		}
	}

	// The grid comes from a ConfigMap and has as many blocks as shards.
	cfgPath, _ := flagValue(argv, "-config")
	var cm *k8sObject
	for _, m := range c.VolumeMounts {
		if !strings.HasPrefix(cfgPath, m.MountPath+"/") {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.ConfigMap != nil {
				cm = find(objs, "ConfigMap", v.ConfigMap.Name)
			}
		}
	}
	if cm == nil {
		t.Fatalf("%s: -config %q is not in a volume mounted from a ConfigMap of this file", jobFile, cfgPath)
	}
	grid, ok := cm.Data[filepath.Base(cfgPath)]
	if !ok {
		t.Fatalf("%s: ConfigMap %s has no key %q (the -config file)", jobFile, cm.Metadata.Name, filepath.Base(cfgPath))
	}
	if b := blocks(t, jobFile+": ConfigMap "+cm.Metadata.Name, []byte(grid)); b != n {
		t.Errorf("%s: the grid in ConfigMap %s plans %d blocks for %d shards: want as many (shards past the blocks get nothing to run)", jobFile, cm.Metadata.Name, b, n)
	}
	var outClaim string
	for _, v := range pod.Volumes {
		if v.PersistentVolumeClaim != nil {
			outClaim = v.PersistentVolumeClaim.ClaimName
		}
	}
	if outClaim == "" || find(objs, "PersistentVolumeClaim", outClaim) == nil {
		t.Errorf("%s: the pods mount no PersistentVolumeClaim defined in this file (claim %q) for the output", jobFile, outClaim)
	}

	// The merge Job reads the same volume.
	merge := find(readObjects(t, mergeJobFile), "Job", "sweep-merge")
	if merge == nil {
		t.Fatalf("%s: no Job named sweep-merge", mergeJobFile)
	}
	var mergeClaim string
	for _, v := range merge.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			mergeClaim = v.PersistentVolumeClaim.ClaimName
		}
	}
	if mergeClaim != outClaim {
		t.Errorf("%s: the merge Job mounts claim %q, the shards write to %q", mergeJobFile, mergeClaim, outClaim)
	}
	if len(merge.Spec.Template.Spec.Containers) != 1 || !strings.Contains(strings.Join(merge.Spec.Template.Spec.Containers[0].Command, " "), "sweep merge") {
		t.Errorf("%s: the merge Job's container does not run sweep merge", mergeJobFile)
	}
}

// The parts of a GitHub Actions workflow the checks read.
type workflow struct {
	Jobs map[string]struct {
		Needs    any `yaml:"needs"` // a job id or a list of them
		Strategy struct {
			Matrix map[string]any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestGitHubActionsMatrix: one job's matrix lists shards 0..N-1 and runs
// -shard ${{ matrix.shard }}/N, uploading its run directory; another
// needs it and runs sweep merge and sweep report.
func TestGitHubActionsMatrix(t *testing.T) {
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("%s: not valid YAML: %v", workflowFile, err)
	}

	var shardJob string
	for id, j := range wf.Jobs {
		if _, ok := j.Strategy.Matrix["shard"]; ok {
			if shardJob != "" {
				t.Fatalf("%s: jobs %s and %s both have a matrix over shard, want one", workflowFile, shardJob, id)
			}
			shardJob = id
		}
	}
	if shardJob == "" {
		t.Fatalf("%s: no job has strategy.matrix.shard", workflowFile)
	}
	j := wf.Jobs[shardJob]
	list, ok := j.Strategy.Matrix["shard"].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("%s: jobs.%s.strategy.matrix.shard is %v, want a list 0..N-1", workflowFile, shardJob, j.Strategy.Matrix["shard"])
	}
	n := len(list)
	for i, v := range list {
		if v != i {
			t.Errorf("%s: jobs.%s.strategy.matrix.shard is %v, want exactly [0 .. %d] in order (entry %d is %v)", workflowFile, shardJob, list, n-1, i, v)
			break
		}
	}

	var sweepRuns, uploads int
	for _, st := range j.Steps {
		args := strings.Fields(st.Run)
		shard, found := flagValue(args, "-shard")
		if !found {
			if strings.HasPrefix(st.Uses, "actions/upload-artifact@") && strings.Contains(st.With["name"], "${{ matrix.shard }}") {
				uploads++
			}
			continue
		}
		sweepRuns++
		// The expression is two words to strings.Fields: "${{" "matrix.shard" "}}/3".
		if i := strings.Index(st.Run, "-shard "); i >= 0 {
			shard = strings.Fields(strings.ReplaceAll(st.Run[i+len("-shard "):], "${{ matrix.shard }}", "${{matrix.shard}}"))[0]
			shard = strings.ReplaceAll(shard, "${{matrix.shard}}", "${{ matrix.shard }}")
		}
		if want := fmt.Sprintf("${{ matrix.shard }}/%d", n); shard != want {
			t.Errorf("%s: jobs.%s step %q runs -shard %q, want exactly %q (the matrix lists %d shards)", workflowFile, shardJob, st.Name, shard, want, n)
		}
		cfg, _ := flagValue(args, "-config")
		if cfg == "" {
			t.Errorf("%s: jobs.%s step %q has no -config", workflowFile, shardJob, st.Name)
			continue
		}
		// The config is a path in this repository; engines/grid.toml here.
		gridPath := filepath.Join("..", cfg)
		grid, err := os.ReadFile(gridPath)
		if err != nil {
			t.Errorf("%s: -config %s: %v", workflowFile, cfg, err)
			continue
		}
		if b := blocks(t, gridPath, grid); b != n {
			t.Errorf("%s: -config %s plans %d blocks for the matrix's %d shards: want as many", workflowFile, cfg, b, n)
		}
	}
	if sweepRuns != 1 {
		t.Errorf("%s: jobs.%s has %d steps running sweep -shard, want 1", workflowFile, shardJob, sweepRuns)
	}
	if uploads == 0 {
		t.Errorf("%s: jobs.%s uploads no artifact named with ${{ matrix.shard }} (each shard's run directory)", workflowFile, shardJob)
	}

	var merger string
	for id, mj := range wf.Jobs {
		for _, st := range mj.Steps {
			if strings.Contains(st.Run, "sweep merge") {
				merger = id
			}
		}
	}
	if merger == "" {
		t.Fatalf("%s: no job runs sweep merge", workflowFile)
	}
	mj := wf.Jobs[merger]
	var needs []string
	switch v := mj.Needs.(type) {
	case string:
		needs = []string{v}
	case []any:
		for _, x := range v {
			needs = append(needs, fmt.Sprint(x))
		}
	}
	if !slices.Contains(needs, shardJob) {
		t.Errorf("%s: jobs.%s (sweep merge) has needs %v, want it to need %s: it would merge before the shards exist", workflowFile, merger, needs, shardJob)
	}
	var downloads, reports bool
	for _, st := range mj.Steps {
		downloads = downloads || strings.HasPrefix(st.Uses, "actions/download-artifact@")
		reports = reports || strings.Contains(st.Run, "sweep report")
	}
	if !downloads || !reports {
		t.Errorf("%s: jobs.%s should download the shards' artifacts (%v) and run sweep report (%v)", workflowFile, merger, downloads, reports)
	}
}

// TestSlurmArray: the batch script asks for whole nodes and runs
// -shard "$SLURM_ARRAY_TASK_ID/$shards" into a directory per task, with
// shards from SLURM_ARRAY_TASK_COUNT (or SWEEP_SHARDS).
func TestSlurmArray(t *testing.T) {
	data, err := os.ReadFile(sbatchFile)
	if err != nil {
		t.Fatal(err)
	}
	script := string(data)
	if !regexp.MustCompile(`(?m)^#SBATCH --exclusive\s*$`).MatchString(script) {
		t.Errorf("%s: no `#SBATCH --exclusive` line: array tasks (shards) could share a node", sbatchFile)
	}
	var cmds []string
	for _, line := range strings.Split(script, "\n") {
		if l := strings.TrimSpace(line); !strings.HasPrefix(l, "#") && strings.Contains(l, "-shard") {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) != 1 {
		t.Fatalf("%s: %d command lines pass -shard, want 1: %q", sbatchFile, len(cmds), cmds)
	}
	args := strings.Fields(cmds[0])
	shard, _ := flagValue(args, "-shard")
	index, denom, _ := strings.Cut(strings.Trim(shard, `"`), "/")
	if index != "$SLURM_ARRAY_TASK_ID" {
		t.Errorf("%s: runs -shard %s, want the index to be $SLURM_ARRAY_TASK_ID (the array task's own index): %s", sbatchFile, shard, cmds[0])
	}
	// n: SLURM_ARRAY_TASK_COUNT, through a variable the script sets.
	if v, ok := strings.CutPrefix(denom, "$"); !ok || !regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(v)+`=\$SLURM_ARRAY_TASK_COUNT\s*$`).MatchString(script) {
		t.Errorf("%s: runs -shard %s: want n to be $SLURM_ARRAY_TASK_COUNT or a variable set from it", sbatchFile, shard)
	}
	if out, _ := flagValue(args, "-out"); !strings.Contains(out, "$SLURM_ARRAY_TASK_ID") {
		t.Errorf("%s: runs -out %s: want a directory per task, named with $SLURM_ARRAY_TASK_ID", sbatchFile, out)
	}
}

// TestGrid: engines/grid.toml, which the workflow runs, is the grid of the
// Kubernetes ConfigMap too.
func TestGrid(t *testing.T) {
	file, err := os.ReadFile(gridFile)
	if err != nil {
		t.Fatal(err)
	}
	cm := find(readObjects(t, jobFile), "ConfigMap", "sweep-grid")
	if cm == nil {
		t.Fatalf("%s: no ConfigMap sweep-grid", jobFile)
	}
	strip := func(s string) string { // the comments and blank lines aside
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(cm.Data["grid.toml"]) != strip(string(file)) {
		t.Errorf("%s: ConfigMap sweep-grid's grid.toml differs from %s (besides comments): keep them the same", jobFile, gridFile)
	}
}
