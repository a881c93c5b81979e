package sandbox

import _ "embed"

// OpenAPISpec is the whole interface as OpenAPI 3 (testdata/gateway-openapi.yaml):
// the contract tests check every sandbox answer against it, and `cardterm
// proxy` checks a partner's traffic with it.
//
//go:embed testdata/gateway-openapi.yaml
var OpenAPISpec []byte
