package taskdoc

import (
	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v2"
)

// yamlOrTOML is the decoder adrg/frontmatter uses by default for each
// format.
func yamlOrTOML(name string) func([]byte, any) error {
	if name == "toml" {
		return toml.Unmarshal
	}
	return yaml.Unmarshal
}
