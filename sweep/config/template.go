package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
)

// PortVar is the template variable holding a slot's listen port.
const PortVar = "port"

// Render substitutes the {{name}} placeholders of tmpl with vars[name].
// Spaces inside the braces are ignored ("{{ port }}"). A name that is not
// in vars, an unclosed "{{" or an empty name is an error naming it; text
// outside placeholders, including a lone "}}", is copied verbatim.
func Render(tmpl string, vars map[string]string) (string, error) {
	return expand(tmpl, func(name string) (string, error) {
		v, ok := vars[name]
		if !ok {
			known := make([]string, 0, len(vars))
			for k := range vars {
				known = append(known, k)
			}
			sort.Strings(known)
			return "", fmt.Errorf("unknown template variable %q in %q (known: %s)", name, tmpl, strings.Join(known, ", "))
		}
		return v, nil
	})
}

// expand scans tmpl and replaces every placeholder by subst(name).
func expand(tmpl string, subst func(name string) (string, error)) (string, error) {
	var b strings.Builder
	rest := tmpl
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:i])
		j := strings.Index(rest[i+2:], "}}")
		if j < 0 {
			return "", fmt.Errorf("unclosed \"{{\" in %q", tmpl)
		}
		name := strings.TrimSpace(rest[i+2 : i+2+j])
		if !identifier.MatchString(name) {
			return "", fmt.Errorf("invalid template variable %q in %q; want {{name}} with name [A-Za-z_][A-Za-z0-9_]*", name, tmpl)
		}
		v, err := subst(name)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		rest = rest[i+2+j+2:]
	}
}

// variables returns the placeholder names tmpl uses.
func variables(tmpl string) ([]string, error) {
	var names []string
	_, err := expand(tmpl, func(name string) (string, error) {
		names = append(names, name)
		return "", nil
	})
	return names, err
}

// Vars returns the template variables of one slot: every axis value of p
// and "port".
func (c *Config) Vars(p sweep.Point, port int) map[string]string {
	vars := make(map[string]string, len(p)+1)
	for k, v := range p {
		vars[k] = v
	}
	vars[PortVar] = strconv.Itoa(port)
	return vars
}

// RequestURL returns the URL the load generator requests for a slot
// serving point p on port: the rendered target.url (for a builtin target
// http://127.0.0.1:PORT) joined with load.path.
func (c *Config) RequestURL(p sweep.Point, port int) (string, error) {
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	if c.Target.Kind == sweep.TargetCommand {
		u, err := Render(c.Target.URL, c.Vars(p, port))
		if err != nil {
			return "", fmt.Errorf("target.url: %w", err)
		}
		base = strings.TrimSuffix(u, "/")
	}
	return base + c.Load.Path, nil
}

// ReadyURL returns the readiness URL of a slot: the rendered target.ready
// of a command target; for a builtin target, the request URL.
func (c *Config) ReadyURL(p sweep.Point, port int) (string, error) {
	if c.Target.Kind != sweep.TargetCommand {
		return c.RequestURL(p, port)
	}
	u, err := Render(c.Target.Ready, c.Vars(p, port))
	if err != nil {
		return "", fmt.Errorf("target.ready: %w", err)
	}
	return u, nil
}

// templates checks a command target's templates: every placeholder names
// an axis or port, every axis but server_cpus is used somewhere (else
// the server could not tell the points apart), url and ready use {{port}} and so does the
// command line or the environment, and every rendered URL is allowed.
func (p *parser) templates() {
	tg := &p.c.Target
	if p.err != nil || tg.Kind != sweep.TargetCommand {
		return
	}
	known := map[string]bool{PortVar: true}
	for _, a := range p.c.Axes {
		known[a.Name] = true
	}
	type tmpl struct{ key, text string }
	var all []tmpl
	for i, arg := range tg.Command {
		all = append(all, tmpl{"target.command[" + strconv.Itoa(i) + "]", arg})
	}
	envNames := make([]string, 0, len(tg.Env))
	for k := range tg.Env {
		envNames = append(envNames, k)
	}
	sort.Strings(envNames)
	for _, k := range envNames {
		all = append(all, tmpl{"target.env." + k, tg.Env[k]})
	}
	serverSide := len(all) // command and env: what the server sees
	all = append(all, tmpl{"target.url", tg.URL}, tmpl{"target.ready", tg.Ready})

	used := map[string]bool{}
	for i, t := range all {
		names, err := variables(t.text)
		if err != nil {
			p.fail(err, "%s = %q: %v", t.key, t.text, err)
			return
		}
		for _, n := range names {
			if !known[n] {
				p.failf("%s = %q: unknown template variable %q; known: %s", t.key, t.text, n, strings.Join(p.varNames(), ", "))
				return
			}
			if i < serverSide {
				used[n] = true
			}
			if n == PortVar && i >= serverSide {
				used["port@"+t.key] = true
			}
		}
	}
	for _, a := range p.c.Axes {
		if !used[a.Name] && a.Name != ServerCPUsAxis { // a placement: the points differ without it
			p.failf("grid.%s: no template in target.command or target.env uses {{%s}}, so every point would run the same server", a.Name, a.Name)
			return
		}
	}
	for _, key := range []string{"target.url", "target.ready"} {
		if !used["port@"+key] {
			p.failf("%s: must use {{port}}: every slot's server listens on its own port", key)
			return
		}
	}
	if !used[PortVar] {
		p.failf("target.command: no argument or target.env value uses {{port}}, so the server cannot know which port to listen on")
		return
	}
	for _, pt := range p.c.Points {
		vars := p.c.Vars(pt, 1)
		for _, t := range []tmpl{{"target.url", tg.URL}, {"target.ready", tg.Ready}} {
			r, err := Render(t.text, vars)
			if err != nil {
				p.fail(err, "%s = %q: %v", t.key, t.text, err)
				return
			}
			p.checkURL(t.key, t.text, r, t.key == "target.url")
			if p.err != nil {
				return
			}
		}
	}
}

// varNames lists the template variables of this config.
func (p *parser) varNames() []string {
	names := []string{PortVar}
	for _, a := range p.c.Axes {
		names = append(names, a.Name)
	}
	return names
}
