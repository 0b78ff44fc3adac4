//go:build tools

// Package tools names the program this module builds, so that `go mod tidy` keeps its requirements.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
