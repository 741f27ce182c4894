package lint

// Registered lists every check, in the order they run. Each lives in its own file.
func Registered() []Check {
	return []Check{contradictions{}, staleValues{}, staleVersions{}, missingLinks{}, undocumented{}, orphans{}}
}
