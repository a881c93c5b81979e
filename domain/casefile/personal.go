package casefile

import (
	"encoding/json"
	"slices"
)

// PersonalMembers are the members of a customer's profile that name or
// locate the person: a case keeps them only when the agent chooses to.
// Countries stay: they decide which rules apply and name no one.
var PersonalMembers = []string{
	"firstName", "lastName", "dateOfBirth", "phoneNumber", "phoneCountryCode",
	"addressLine1", "addressLine2", "city", "zip", "usState", "ssn", "email",
}

// Masked is what a masked personal value reads as.
const Masked = "[masked]"

// MaskPersonal is a JSON object with every personal member's value
// replaced by Masked (null stays null), at any depth; text that is not a
// JSON object comes back as it was, with ok false.
func MaskPersonal(raw []byte) (out []byte, ok bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw, false
	}
	if _, isObject := v.(map[string]any); !isObject {
		return raw, false
	}
	masked, err := json.Marshal(maskValue(v))
	if err != nil {
		return raw, false
	}
	return masked, true
}

func maskValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			if slices.Contains(PersonalMembers, k) && member != nil {
				v[k] = Masked
				continue
			}
			v[k] = maskValue(member)
		}
	case []any:
		for i := range v {
			v[i] = maskValue(v[i])
		}
	}
	return v
}
