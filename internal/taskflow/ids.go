package taskflow

// MaxID is the longest id, in bytes.
const MaxID = 64

// ValidID reports whether id can name an agent, a worker or a request: 1
// to MaxID lower-case ASCII letters, digits, '_' and '-', starting with a
// letter or a digit. Ids are file and folder names: lower case only, so
// that two ids never name one file where case is ignored, and without a
// '.', so that "<id>.json" and "<id>.answer.json" never meet.
func ValidID(id string) bool {
	if id == "" || len(id) > MaxID || id[0] == '_' || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
