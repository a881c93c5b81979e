package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// maxScenarioFile bounds a scenario file; maxScenarioWait bounds one delay.
const (
	maxScenarioFile = 1 << 20
	maxScenarioWait = time.Hour
)

// scenarioFile is a scenario's YAML: a default user and the steps.
type scenarioFile struct {
	User  string         `yaml:"user"`
	Steps []scenarioItem `yaml:"steps"`
}

// scenarioItem is one step as written: the request's fields, a name later
// steps refer to, the authorization (a name or an id) and the delay.
type scenarioItem struct {
	apiclient.SimulateRequest `yaml:",inline"`
	Name                      string `yaml:"name"`
	Authorization             string `yaml:"authorization"`
	After                     string `yaml:"after"`
	// Advance is a clock step's move (type: clock): 8d, 31m.
	Advance string `yaml:"advance"`
}

// scenarioClock is the step type that moves the sandbox's clock (so a
// pending authorization can expire mid-scenario).
const scenarioClock = "clock"

// scenarioStep is a step ready to play: the request, its delay, the name
// it answers to, the name of the authorization it refers to, and where it
// was written (for errors).
type scenarioStep struct {
	request        apiclient.SimulateRequest
	after          time.Duration
	name, refersTo string
	where          string
	advance        string // a clock step's move
}

// readScenario reads and checks a scenario file; an error names the file
// and the line.
func readScenario(path string) ([]scenarioStep, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxScenarioFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxScenarioFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxScenarioFile)
	}
	return parseScenario(path, data)
}

// parseScenario reads a scenario's YAML strictly: an unknown field is a
// mistake, not something to ignore.
func parseScenario(path string, data []byte) ([]scenarioStep, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var file scenarioFile
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(file.Steps) == 0 {
		return nil, fmt.Errorf("%s: no steps (write a steps: list)", path)
	}
	lines := stepLines(&root)
	named := map[string]bool{}
	steps := make([]scenarioStep, 0, len(file.Steps))
	for i, item := range file.Steps {
		where := fmt.Sprintf("%s: step %d", path, i+1)
		if i < len(lines) {
			where = fmt.Sprintf("%s:%d: step %d", path, lines[i], i+1)
		}
		step := scenarioStep{request: item.SimulateRequest, name: strings.TrimSpace(item.Name), where: where}
		if step.request.User == "" {
			step.request.User = file.User
		}
		if err := checkClockStep(item, &step); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if !validStepType(step.request.Type) {
			return nil, fmt.Errorf("%s: type %q must be one of %s or %s", where, step.request.Type, strings.Join(apiclient.SimulateTypes, ", "), scenarioClock)
		}
		if item.After != "" {
			d, err := time.ParseDuration(strings.TrimSpace(item.After))
			if err != nil || d < 0 || d > maxScenarioWait {
				return nil, fmt.Errorf("%s: after %q must be a duration such as 2s, at most %s", where, item.After, maxScenarioWait)
			}
			step.after = d
		}
		if ref := strings.TrimSpace(item.Authorization); ref != "" {
			if named[ref] {
				step.refersTo = ref
			} else {
				step.request.AuthorizationID = ref
			}
		}
		if step.name != "" {
			if named[step.name] {
				return nil, fmt.Errorf("%s: the name %q is given to an earlier step", where, step.name)
			}
			named[step.name] = true
		}
		steps = append(steps, step)
	}
	return steps, nil
}

// stepLines is the line of each item of the steps list.
func stepLines(root *yaml.Node) []int {
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "steps" {
			var out []int
			for _, n := range root.Content[i+1].Content {
				out = append(out, n.Line)
			}
			return out
		}
	}
	return nil
}

// checkClockStep reads a clock step's advance; other steps have none.
func checkClockStep(item scenarioItem, step *scenarioStep) error {
	isClock := strings.EqualFold(strings.TrimSpace(item.Type), scenarioClock)
	switch {
	case !isClock && item.Advance != "":
		return fmt.Errorf("advance is for a step of type %s", scenarioClock)
	case !isClock:
		return nil
	}
	if _, err := sandbox.ParseClockStep(item.Advance); err != nil {
		return err
	}
	step.advance = item.Advance
	return nil
}

func validStepType(t string) bool {
	if strings.EqualFold(strings.TrimSpace(t), scenarioClock) {
		return true
	}
	for _, known := range apiclient.SimulateTypes {
		if strings.EqualFold(strings.TrimSpace(t), known) {
			return true
		}
	}
	return false
}

// playScenario sends the steps in order, each after its delay; a named
// authorization's id is filled into the steps that refer to it. It stops
// at the first refusal (saying which step) or when ctx ends.
func playScenario(ctx context.Context, client *apiclient.Client, steps []scenarioStep, done func(apiclient.SimulateResult),
	notes io.Writer, explain func(error) error) error {
	ids := map[string]string{}
	for i, step := range steps {
		if step.after > 0 {
			if len(steps) > 1 {
				fmt.Fprintf(notes, "waiting %s before step %d…\n", step.after, i+1)
			}
			t := time.NewTimer(step.after)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		if step.refersTo != "" {
			step.request.AuthorizationID = ids[step.refersTo]
		}
		if step.advance != "" {
			clock, err := client.SandboxClockSet(ctx, apiclient.SandboxClockMove{Advance: step.advance})
			if err != nil {
				return fmt.Errorf("%s (%s): %w", step.where, scenarioClock, explain(err))
			}
			fmt.Fprintf(notes, "clock +%s: the sandbox's time is %s; %d pending authorization(s) expired\n",
				strings.TrimPrefix(step.advance, "+"), clock.Now.UTC().Format(time.RFC3339), len(clock.Reversed))
			continue
		}
		res, err := client.SandboxSimulate(ctx, step.request)
		if err != nil {
			err = explain(err)
			if len(steps) > 1 {
				return fmt.Errorf("%s (%s): %w", step.where, step.request.Type, err)
			}
			return err
		}
		if step.name != "" {
			ids[step.name] = res.Transaction.ID
			if res.Transaction.AuthorizationID != "" && step.refersTo == "" {
				ids[step.name] = res.Transaction.AuthorizationID
			}
		}
		done(res)
	}
	return nil
}
