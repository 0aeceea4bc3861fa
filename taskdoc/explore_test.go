package taskdoc_test

import (
	"os"
	"strconv"
)

func init() {
	if s := os.Getenv("DIFFSEED"); s != "" {
		diffSeed, _ = strconv.ParseUint(s, 10, 64)
		diffDocs = 20000
	}
}
