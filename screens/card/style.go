package card

import (
	"strconv"

	"cardterm/apiclient"
	"cardterm/ui/form"
)

// Which form the card screen shows.
type cardFormKind int

const (
	formNone cardFormKind = iota
	formPINStyle
	formViewPIN
	formDetails
)

// spec is a short way to declare a style field: wire name, label,
// placeholder, value.
func spec(key, label, placeholder, value string) form.Field {
	return form.Field{Key: key, Label: label, Placeholder: placeholder, Value: value, CharLimit: 64}
}

// pinStyleSpecs are the seven set-PIN customCss fields with the interface's
// defaults as placeholders; values are what the user typed last.
func pinStyleSpecs(typed map[string]string) []form.Field {
	return []form.Field{
		spec("backgroundColor", "Background", apiclient.DefaultPINBackgroundColor, typed["backgroundColor"]),
		spec("textColor", "Text", apiclient.DefaultPINTextColor, typed["textColor"]),
		spec("backgroundColorPrimary", "Primary background", apiclient.DefaultPINBackgroundColorPrimary, typed["backgroundColorPrimary"]),
		spec("textColorPrimary", "Primary text", apiclient.DefaultPINTextColorPrimary, typed["textColorPrimary"]),
		spec("buttonBorderRadius", "Button radius (px)", strconv.Itoa(apiclient.DefaultPINButtonBorderRadius), typed["buttonBorderRadius"]),
		spec("pinBorderRadius", "PIN radius (px)", strconv.Itoa(apiclient.DefaultPINPinBorderRadius), typed["pinBorderRadius"]),
		spec("pinBorderColor", "PIN border", "= primary background", typed["pinBorderColor"]),
	}
}

// pinStyleFromForm reads and checks the set-PIN style form: radii must be
// numbers, colours hex, text colours differ from their backgrounds.
func pinStyleFromForm(f *form.Form) (apiclient.SetPINStyle, []apiclient.FieldError) {
	s := apiclient.SetPINStyle{
		BackgroundColor:        f.Value("backgroundColor"),
		TextColor:              f.Value("textColor"),
		BackgroundColorPrimary: f.Value("backgroundColorPrimary"),
		TextColorPrimary:       f.Value("textColorPrimary"),
		PinBorderColor:         f.Value("pinBorderColor"),
	}
	var errs []apiclient.FieldError
	for _, name := range []string{"buttonBorderRadius", "pinBorderRadius"} {
		v := f.Value(name)
		if v == "" {
			continue
		}
		r, ok := apiclient.ParseRadius(v)
		if !ok {
			errs = append(errs, apiclient.FieldError{Field: "customCss." + name, Message: "must be a number of pixels from 0 to 999"})
			continue
		}
		if name == "buttonBorderRadius" {
			s.ButtonBorderRadius = &r
		} else {
			s.PinBorderRadius = &r
		}
	}
	return s, append(errs, s.Validate()...)
}

// viewPINSpecs are the view-PIN image's two optional colours.
func viewPINSpecs(s apiclient.PINImageStyle) []form.Field {
	return []form.Field{
		spec("backgroundColor", "Background", "default", s.BackgroundColor),
		spec("textColor", "Text", "default", s.TextColor),
	}
}

// detailsSpecs are the card-details image's four optional colours.
func detailsSpecs(s apiclient.CardDetailsStyle) []form.Field {
	return []form.Field{
		spec("cardBackgroundColor", "Card background", "default", s.CardBackgroundColor),
		spec("cardTextColor", "Card text", "default", s.CardTextColor),
		spec("panBackgroundColor", "Number background", "default", s.PanBackgroundColor),
		spec("panTextColor", "Number text", "default", s.PanTextColor),
	}
}
