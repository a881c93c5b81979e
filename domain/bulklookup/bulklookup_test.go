package bulklookup

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// fiftyIDs are known users (the sandbox's EU demo users), unknown ids and
// malformed ones: 50 in all.
func fiftyIDs() []string {
	var ids []string
	for _, u := range sandbox.DemoUsersFor(sandbox.DemoClientKey) {
		if u.Region != "us" {
			ids = append(ids, sandbox.DemoUserID(u.Username))
		}
	}
	for i := 0; len(ids) < 44; i++ {
		ids = append(ids, fmt.Sprintf("00000000-0000-4000-8000-%012d", i))
	}
	return append(ids, "alice@demo.test", "two ids", strings.Repeat("x", 200), "semi;colon", "quote\"d", "tab\there")
}

// startSandbox is a sandbox with faults (a little slow, so a run can be
// stopped halfway; or 429s).
func startSandbox(t *testing.T, faults sandbox.Faults) (*sandbox.Running, *apiclient.Client) {
	t.Helper()
	sb, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb, apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey})
}

// consentRequests counts the look-ups the sandbox answered, per id.
func consentRequests(sb *sandbox.Running) map[string]int {
	out := map[string]int{}
	for _, r := range sb.Server.Requests() {
		if id, ok := strings.CutPrefix(r.Path, "/v2/consent/user/"); ok {
			out[id]++
		}
	}
	return out
}

// 50 ids give 50 lines: known ids their status, unknown "not found",
// malformed refused on their line without a request. Stopped halfway
// (the context cancelled as ctrl+c does), the file is valid CSV; a
// second run completes it and asks no id twice.
func TestBulkWritesOneLinePerIDAndResumes(t *testing.T) {
	sb, client := startSandbox(t, sandbox.Faults{Latency: 20 * time.Millisecond})
	ids := fiftyIDs()
	path := filepath.Join(t.TempDir(), "out.csv")
	run := func(ctx context.Context, stopAt int, cancel func()) Summary {
		done, fresh, err := Resume(path, CSV)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if fresh {
			_, _ = f.Write(Header(CSV))
		}
		r := Run{Client: client, Kind: User, Region: "EU", Format: CSV, Concurrent: 2}
		if cancel != nil {
			r.Progress = func(done, total int, _ Line) {
				if done >= stopAt {
					cancel()
				}
			}
		}
		sum, err := r.Do(ctx, ids, done, f)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := run(ctx, 25, cancel)
	if !first.Stopped || first.Written < 25 || first.Written >= 50 {
		t.Fatalf("the first run: %+v", first)
	}
	records := readCSV(t, path)
	if len(records) != 1+first.Written {
		t.Fatalf("the stopped file holds %d lines for %d written", len(records), first.Written)
	}
	second := run(context.Background(), 0, nil)
	if second.Stopped || second.Skipped != first.Written || first.Written+second.Written != 50 {
		t.Fatalf("the second run: %+v after %+v", second, first)
	}
	records = readCSV(t, path)
	if len(records) != 51 {
		t.Fatalf("%d lines for 50 ids", len(records)-1)
	}
	statuses := map[string]int{}
	for i, r := range records[1:] {
		if r[0] != ids[i] {
			t.Fatalf("line %d is %q, id %q", i+1, r[0], ids[i])
		}
		statuses[r[3]]++
	}
	if statuses[Failed] != 0 || statuses[Malformed] != 6 || statuses[NotFound] < 30 || statuses["complete"]+statuses["incomplete"]+statuses["none"] < 3 {
		t.Fatalf("statuses %v", statuses)
	}
	for id, n := range consentRequests(sb) {
		if n > 1 {
			t.Fatalf("%s asked %d times", id, n)
		}
		if Check(id) != "" {
			t.Fatalf("malformed %q was sent", id)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, _ := os.ReadFile(path)
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("not valid CSV: %v\n%s", err, data)
	}
	return records
}

// A torn last line (a crash mid-write) is taken off, and its id asked
// again; a file of another kind is refused.
func TestResumeTakesOffATornLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	_ = os.WriteFile(path, []byte(`{"id":"a","kind":"user","region":"EU","status":"complete","missing":[],"sets":1}`+"\n"+`{"id":"b","ki`), 0o600)
	done, fresh, err := Resume(path, JSONL)
	if err != nil || fresh || !done["a"] || done["b"] {
		t.Fatalf("done %v fresh %v err %v", done, fresh, err)
	}
	other := filepath.Join(dir, "notes.csv")
	_ = os.WriteFile(other, []byte("name,phone\n"), 0o600)
	if _, _, err := Resume(other, CSV); err == nil || !strings.Contains(err.Error(), "nothing was appended") {
		t.Fatalf("a foreign file: %v", err)
	}
}

// A 429 is waited out (Retry-After) and asked again, not written as a
// failure.
func TestBulkWaitsOutA429(t *testing.T) {
	sb, client := startSandbox(t, sandbox.Faults{Burst429: 2})
	var out bytes.Buffer
	ids := []string{sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")}
	sum, err := Run{Client: client, Kind: User, Region: "EU", Format: JSONL, Concurrent: 2}.Do(context.Background(), ids, nil, &out)
	if err != nil || sum.Written != 2 || sum.ByStatus[Failed] != 0 {
		t.Fatalf("%+v %v\n%s", sum, err, out.String())
	}
	if n := len(sb.Server.Requests()); n < 4 {
		t.Fatalf("%d requests: the 429s were not asked again", n)
	}
}

// A user id the run's region does not know is looked up in the other, as
// the console does: a US customer in an EU run is found and its line
// says US; an id neither region knows says both were asked.
func TestBulkLooksUpAnIDNotFoundInTheOtherRegion(t *testing.T) {
	sb, eu := startSandbox(t, sandbox.Faults{})
	us := apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey, US: true})
	sam, unknown := sandbox.DemoUserID("sam@demo.test"), "00000000-0000-4000-8000-000000000001"
	var out bytes.Buffer
	run := Run{Client: eu, Region: "EU", Other: us, OtherRegion: "US", Kind: User, Format: CSV, Concurrent: 2}
	if _, err := run.Do(context.Background(), []string{sam, unknown}, nil, &out); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %q: %v", rows, err)
	}
	want := [][]string{
		{sam, User, "US", apiclient.ConsentComplete, "", "1", "not in EU (404); found in US"},
		{unknown, User, "EU", NotFound, "", "0", "no consent set for this id in EU or US (404)"},
	}
	for i, w := range want {
		if strings.Join(rows[i], ",") != strings.Join(w, ",") {
			t.Errorf("line %d: %q, want %q", i+1, rows[i], w)
		}
	}
}
