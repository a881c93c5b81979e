package bulklookup

import (
	"context"
	"io"
	"slices"
	"sync"

	"cardterm/apiclient"
)

// MaxConcurrent is the most requests a run has in flight: a few, so a
// bulk run never crowds a tenant's rate limit (the client also waits
// out a 429's Retry-After).
const MaxConcurrent = 8

// Run is one bulk run.
type Run struct {
	Client *apiclient.Client
	Kind   string
	Region string // "EU" or "US", written on each line
	// Other reads the other region (OtherRegion): a user id the first
	// region does not know is looked up there, as the console does, so a
	// US customer in an EU run is not reported missing. Nil: one region.
	Other       *apiclient.Client
	OtherRegion string
	Format      string
	// Concurrent requests at once (1..MaxConcurrent).
	Concurrent int
	// Progress is told after each line written (done of total), if set.
	Progress func(done, total int, last Line)
}

// Summary counts what a run wrote.
type Summary struct {
	Written, Skipped int
	ByStatus         map[string]int
	// Stopped says the run was cancelled before every id was written.
	Stopped bool
}

// Do looks up every id not in done and writes one line each to out, in
// the ids' order, each line whole (one write). Cancelled, it sends no
// more, lets the requests in flight finish (so no id is asked twice:
// each answer is written) and writes every line answered, in order: the
// output stays valid and a second run completes it.
func (r Run) Do(ctx context.Context, ids []string, done map[string]bool, out io.Writer) (Summary, error) {
	todo := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return done[id] })
	sum := Summary{Skipped: len(ids) - len(todo), ByStatus: map[string]int{}}
	results := make([]chan Line, len(todo))
	for i := range results {
		results[i] = make(chan Line, 1)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	requests := context.WithoutCancel(ctx) // in flight, they finish
	for range max(1, min(r.Concurrent, MaxConcurrent)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if line, ok := r.lookup(requests, todo[i]); ok {
					results[i] <- line
				}
				close(results[i])
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range todo {
			select {
			case work <- i:
			case <-ctx.Done():
				for j := i; j < len(todo); j++ {
					close(results[j])
				}
				return
			}
		}
	}()
	defer wg.Wait()
	for i := range todo {
		line, ok := <-results[i]
		if !ok {
			sum.Stopped = true
			return sum, nil // cancelled: what is written stays whole
		}
		data, err := Encode(line, r.Format)
		if err != nil {
			return sum, err
		}
		if _, err := out.Write(data); err != nil {
			return sum, err
		}
		sum.Written++
		sum.ByStatus[line.Status]++
		if r.Progress != nil {
			r.Progress(sum.Skipped+sum.Written, len(ids), line)
		}
	}
	return sum, nil
}

// lookup asks for one id; ok is false when the run was cancelled before
// the answer (the id is left for the next run).
func (r Run) lookup(ctx context.Context, id string) (Line, bool) {
	line := Line{ID: id, Kind: r.Kind, Region: r.Region}
	if why := Check(id); why != "" {
		line.Status, line.Detail = Malformed, why
		return line, true
	}
	var err error
	if r.Kind == Onboarding {
		var sets apiclient.OnboardingConsentSets
		sets, err = r.Client.OnboardingConsents(ctx, id)
		if err == nil {
			line.Status, line.Sets = onboardingStatus(sets.ConsentSets), len(sets.ConsentSets)
			line.Missing = append(waiting(sets.ConsentSets), missingRequired(sets.ConsentSets)...)
		}
	} else {
		err = r.userConsent(ctx, r.Client, &line)
		if apiclient.IsNotFound(err) && r.Other != nil {
			if err = r.userConsent(ctx, r.Other, &line); err == nil {
				line.Region = r.OtherRegion
				line.Detail = "not in " + r.Region + " (404); found in " + r.OtherRegion
			}
		}
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return Line{}, false // cancelled: not an answer
	case apiclient.IsNotFound(err) && r.Other != nil:
		line.Status, line.Detail = NotFound, "no consent set for this id in "+r.Region+" or "+r.OtherRegion+" (404)"
	case apiclient.IsNotFound(err):
		line.Status, line.Detail = NotFound, "no consent set for this id (404)"
	default:
		line.Status, line.Detail = Failed, apiclient.ErrorMessage(err)
	}
	return line, true
}

// userConsent reads a user's consent status with client into line.
func (r Run) userConsent(ctx context.Context, client *apiclient.Client, line *Line) error {
	st, err := client.UserConsent(ctx, line.ID, true)
	if err == nil {
		line.Status, line.Sets, line.Missing = st.ConsentStatus, len(st.ConsentSets), missingRequired(st.ConsentSets)
	}
	return err
}

// missingRequired lists, per set, the required consents not granted.
func missingRequired(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, set := range sets {
		for _, gap := range apiclient.RequiredNotGranted(set) {
			out = append(out, gap.Type+" is "+gap.Status+" in set "+set.ConsentSetID)
		}
	}
	return out
}

// waiting lists an onboarding's sets not linked to a user yet.
func waiting(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, set := range sets {
		if !set.Linked() {
			out = append(out, "set "+set.ConsentSetID+" is waiting to be linked to a user")
		}
	}
	return out
}

// onboardingStatus is an onboarding's sets in one word: complete when
// every set's required consents are granted.
func onboardingStatus(sets []apiclient.ConsentSet) string {
	if len(sets) == 0 {
		return apiclient.ConsentNone
	}
	if len(missingRequired(sets)) > 0 {
		return apiclient.ConsentIncomplete
	}
	return apiclient.ConsentComplete
}
