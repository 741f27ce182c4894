// Package specs embeds the YAML specs that ship with Strata: entity types and their merge
// policies (entities/) and payload capabilities (capabilities/). A data folder may add or
// override specs in its own specs/ folder.
package specs

import "embed"

// FS holds entities/*.yaml, capabilities/*.yaml, semantic/*.yaml and enrichments.yaml.
//
//go:embed entities capabilities semantic enrichments.yaml
var FS embed.FS
