package recordcommand

import (
	"encoding/json"
	"strconv"
)

// FieldsOf is a record's fields from the JSON the gateway sent: every
// scalar, nested ones named by their path ("merchant.name"); null is "".
func FieldsOf(raw []byte) map[string]string {
	var record any
	if json.Unmarshal(raw, &record) != nil {
		return nil
	}
	fields := map[string]string{}
	flatten("", record, fields)
	return fields
}

func flatten(prefix string, value any, into map[string]string) {
	switch v := value.(type) {
	case map[string]any:
		for name, inner := range v {
			if prefix != "" {
				name = prefix + "." + name
			}
			flatten(name, inner, into)
		}
	case []any:
		for i, inner := range v {
			flatten(prefix+"."+strconv.Itoa(i), inner, into)
		}
	case string:
		into[prefix] = v
	case float64:
		into[prefix] = strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		into[prefix] = strconv.FormatBool(v)
	case nil:
		into[prefix] = ""
	}
}
