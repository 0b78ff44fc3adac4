//go:build tools

// Package tools names the program this module builds, so that `go mod tidy` keeps its requirements.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
