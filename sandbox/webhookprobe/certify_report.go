package webhookprobe

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Certification is the go-live report: the receiver, when, every
// scenario with its deliveries, and the SHA-256 of the Markdown report
// (everything above its last line), which the JSON report carries too, so
// either file shows the other was not edited.
type Certification struct {
	Receiver  string     `json:"receiver"`
	At        time.Time  `json:"at"`
	Passed    bool       `json:"passed"`
	Scenarios []Scenario `json:"scenarios"`
	SHA256    string     `json:"sha256"`
	body      string
}

// hashLinePrefix starts the Markdown report's last line.
const hashLinePrefix = "SHA-256 of this report above this line: "

// NewCertification builds the report of scenarios played against receiver at at.
func NewCertification(receiver string, at time.Time, scenarios []Scenario) Certification {
	c := Certification{Receiver: receiver, At: at.UTC().Truncate(time.Second), Passed: true, Scenarios: scenarios}
	for _, s := range scenarios {
		if s.Verdict != Passed {
			c.Passed = false
		}
	}
	c.body = c.markdownBody()
	sum := sha256.Sum256([]byte(c.body))
	c.SHA256 = hex.EncodeToString(sum[:])
	return c
}

// Markdown is the report for people: a summary table, then each
// scenario's deliveries, then the hash line.
func (c Certification) Markdown() string {
	return c.body + hashLinePrefix + c.SHA256 + "\n"
}

// VerifyMarkdown reports whether a Markdown report's hash line matches
// the text above it.
func VerifyMarkdown(report string) bool {
	i := strings.LastIndex(report, hashLinePrefix)
	if i < 0 {
		return false
	}
	sum := sha256.Sum256([]byte(report[:i]))
	return strings.TrimSpace(report[i+len(hashLinePrefix):]) == hex.EncodeToString(sum[:])
}

// markdownBody is the report above its hash line. Every value from the
// receiver is a status number or a transport error: the latter is cut
// to one line.
func (c Certification) markdownBody() string {
	var b strings.Builder
	verdict := "PASSED: ready to go live"
	if !c.Passed {
		var failed []string
		for _, s := range c.Scenarios {
			if s.Verdict != Passed {
				failed = append(failed, s.Name)
			}
		}
		verdict = "FAILED: " + strings.Join(failed, ", ")
	}
	fmt.Fprintf(&b, "# Webhook receiver go-live report\n\n")
	fmt.Fprintf(&b, "- Receiver: `%s`\n- Certified: %s\n- Verdict: **%s**\n\n", c.Receiver, c.At.UTC().Format(reportTime), verdict)
	b.WriteString("| Check | What was sent | Verdict |\n|---|---|---|\n")
	for _, s := range c.Scenarios {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, s.What, verdictText(s.Verdict))
	}
	for _, s := range c.Scenarios {
		fmt.Fprintf(&b, "\n## %s: %s\n\n%s\n\n", s.Name, verdictText(s.Verdict), s.What)
		if s.Why != "" {
			fmt.Fprintf(&b, "Why: %s\n\n", oneLine(s.Why))
		}
		b.WriteString("| # | Event | Occurred | X-Timestamp | Signed with | Expected | Got |\n|---|---|---|---|---|---|---|\n")
		for i, d := range s.Deliveries {
			got := fmt.Sprint(d.Status)
			if d.Status == 0 {
				got = "no answer: " + oneLine(d.Error)
			}
			fmt.Fprintf(&b, "| %d | `%s` %s | %s | %s | %s | %s | %s |\n", i+1, d.EventID, d.EventType, readableTime(d.OccurredAt), d.Timestamp, d.Signature, d.Expected, got)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// reportTime is how the report writes a time for the people who read it;
// the JSON keeps RFC 3339.
const reportTime = "2006-01-02 15:04:05 UTC"

// readableTime is an RFC 3339 time as the report writes it; anything else
// as it came.
func readableTime(text string) string {
	if at, err := time.Parse(time.RFC3339, text); err == nil {
		return at.UTC().Format(reportTime)
	}
	return text
}

// verdictText is a verdict as the report says it.
func verdictText(v Verdict) string {
	if v == Passed {
		return "passed"
	}
	return "**FAILED** (" + string(v) + ")"
}

// oneLine keeps a text on one table line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", "/")
}
