// Command options starts the Node.js language host built beside it with the project's runtime options.
//
// The host of SDK v3.68.0 reads a project's runtime options (`typescript`, `nodeargs`, `tsconfig` in
// Pulumi.yaml) from its command line, where the CLIs of its time put them; the CLI of v3.274 sends them
// inside each request instead, and starts the host with the engine's address alone, in the program's
// folder. This reads Pulumi.yaml from that folder as the host's own workspace package does, passes the
// options as the host's flags, and sets the project's root as newer hosts pass it to the SDK
// (`pulumi.getRootDirectory()`); then it becomes the host (exec), so the CLI talks to the host itself.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// The host binary, installed beside this one.
const hostName = "pulumi-language-nodejs-host"

func main() {
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	host := filepath.Join(filepath.Dir(self), hostName)
	args := []string{host}
	if cwd, err := os.Getwd(); err == nil {
		if project, err := workspace.DetectProjectPathFrom(cwd); err == nil && project != "" {
			args = append(args, optionFlags(project)...)
			if os.Getenv("PULUMI_NODEJS_ROOT_DIRECTORY") == "" {
				_ = os.Setenv("PULUMI_NODEJS_ROOT_DIRECTORY", filepath.Dir(project))
			}
		}
	}
	args = append(args, os.Args[1:]...)
	fail(syscall.Exec(host, args, os.Environ()))
}

// optionFlags gives the runtime options of the project file at path as the host's flags.
func optionFlags(path string) []string {
	project, err := workspace.LoadProject(path)
	if err != nil {
		return nil
	}
	var flags []string
	for _, name := range []string{"typescript", "nodeargs", "tsconfig"} {
		if value, ok := project.Runtime.Options()[name]; ok {
			flags = append(flags, fmt.Sprintf("-%s=%v", name, value))
		}
	}
	return flags
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
	os.Exit(1)
}
