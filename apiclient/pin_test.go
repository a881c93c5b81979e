package apiclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/apiclient"
)

func fetch(t *testing.T, u string) int {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func TestSetPINTokenAgainstSandbox(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandboxOptions())
	c := g.client()
	login(t, c, "alice@demo.test")
	radius := 12.0
	tok, err := c.SetPINToken(ctx, apiclient.SetPINRequest{CustomCSS: &apiclient.SetPINStyle{BackgroundColor: "#112233", ButtonBorderRadius: &radius}})
	if err != nil {
		t.Fatal(err)
	}
	if tok.Token == "" || !strings.HasPrefix(tok.HostedPageURL, g.url+"/pin-direct/set?token=") {
		t.Fatalf("token %+v", tok)
	}
	if fetch(t, tok.HostedPageURL) != 200 || fetch(t, tok.HostedPageURL) != http.StatusGone {
		t.Fatal("the page must open once")
	}

	nora := g.client()
	login(t, nora, "nora@demo.test")
	_, err = nora.SetPINToken(ctx, apiclient.SetPINRequest{})
	wantError(t, err, 404, "Card not found")
}

func TestPINAndDetailsTokensAgainstSandbox(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandboxOptions())
	c := g.client()
	login(t, c, "alice@demo.test")
	img, err := c.PINToken(ctx, &apiclient.PINImageStyle{BackgroundColor: "#000000", TextColor: "#FFFFFF"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(img.ImageURL, g.url+"/details-image?token=") {
		t.Fatal("imageUrl shape")
	}
	for _, s := range []string{fmt.Sprint(img), fmt.Sprintf("%+v", img), fmt.Sprintf("%#v", img)} {
		if strings.Contains(s, img.Token) || strings.Contains(s, "details-image") {
			t.Fatalf("formatting an ImageToken leaks it: %s", s)
		}
	}
	if fetch(t, img.ImageURL) != 200 || fetch(t, img.ImageURL) != http.StatusGone {
		t.Fatal("the image must open once")
	}
	details, err := c.CardDetailsToken(ctx, nil)
	if err != nil || fetch(t, details.ImageURL) != 200 {
		t.Fatalf("details: %v", err)
	}

	_, err = c.PINToken(ctx, &apiclient.PINImageStyle{BackgroundColor: "#abc", TextColor: "#AABBCC"})
	var e *apiclient.Error
	if !asErr(err, &e) || e.Status != 422 || len(e.Fields) != 1 || e.Fields[0].Field != "customCss.textColor" {
		t.Fatalf("422: %#v", err)
	}
	_, err = c.CardDetailsToken(ctx, &apiclient.CardDetailsStyle{PanTextColor: "blue"})
	if !asErr(err, &e) || e.Status != 422 || e.Fields[0].Field != "customCss.panTextColor" {
		t.Fatalf("details 422: %v", err)
	}
}

// An error that echoes the image link never carries the token.
func TestImageTokenErrorsAreScrubbed(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "bad http://x/details-image?token=SECRET123",
			"errors": []map[string]string{{"field": "customCss.textColor", "message": "see /details-image?token=SECRET456&x=1"}}})
	}))
	defer hs.Close()
	c := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: "k"})
	_, err := c.PINToken(context.Background(), nil)
	if err == nil || strings.Contains(err.Error(), "SECRET") || strings.Contains(apiclient.ErrorMessage(err), "SECRET") {
		t.Fatalf("leak: %v", err)
	}
	// A 2xx without a readable imageUrl does not quote the body either.
	hs2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"token":"SECRET","imageUrl":42}`))
	}))
	defer hs2.Close()
	c = apiclient.New(apiclient.Config{BaseURL: hs2.URL, ClientKey: "k"})
	if _, err := c.CardDetailsToken(context.Background(), nil); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("leak or no error: %v", err)
	}
}

func TestStyleValidation(t *testing.T) {
	neg := -1.0
	ok := 8.0
	for _, tc := range []struct {
		name  string
		style apiclient.SetPINStyle
		want  []string
	}{
		{"empty", apiclient.SetPINStyle{}, nil},
		{"valid", apiclient.SetPINStyle{BackgroundColor: "#fff", TextColor: "#000", ButtonBorderRadius: &ok, PinBorderColor: "#123456"}, nil},
		{"bad hex", apiclient.SetPINStyle{BackgroundColor: "white", PinBorderColor: "#12"}, []string{"customCss.backgroundColor", "customCss.pinBorderColor"}},
		{"text equals background", apiclient.SetPINStyle{BackgroundColor: "#abc", TextColor: "#AABBCC"}, []string{"customCss.textColor"}},
		{"text equals default background", apiclient.SetPINStyle{TextColor: "#efefef"}, []string{"customCss.textColor"}},
		{"primary equals default", apiclient.SetPINStyle{BackgroundColorPrimary: "#FFFFFF"}, []string{"customCss.textColorPrimary"}},
		{"negative radius", apiclient.SetPINStyle{PinBorderRadius: &neg}, []string{"customCss.pinBorderRadius"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range tc.style.Validate() {
				got = append(got, f.Field)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	if f := (apiclient.PINImageStyle{BackgroundColor: "#GGG"}).Validate(); len(f) != 1 || f[0].Field != "customCss.backgroundColor" {
		t.Fatal(f)
	}
	if f := (apiclient.CardDetailsStyle{CardTextColor: "#1234567"}).Validate(); len(f) != 1 || f[0].Field != "customCss.cardTextColor" {
		t.Fatal(f)
	}
	for in, want := range map[string]bool{"8": true, "0": true, "12.5": true, "-1": false, "1e3": false, "abc": false, "": false, "1000": false} {
		if _, ok := apiclient.ParseRadius(in); ok != want {
			t.Errorf("ParseRadius(%q) = %v", in, ok)
		}
	}
	if apiclient.NormalizeHexColor("#aBc") != "#AABBCC" || apiclient.NormalizeHexColor("red") != "" {
		t.Fatal("NormalizeHexColor")
	}
}
