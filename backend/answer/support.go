package answer

import "github.com/strata-app/strata/backend/search"

// Support returns which of the candidate texts (the sentences, or lines, of a cited passage)
// bears a claim out best: the one holding most of the claim's key terms, a number of the
// claim counting twice (numbers are what a wrong citation gets wrong). Ties go to the earlier
// candidate; -1 when none shares anything with the claim. A checked sentence of a chat model
// cites the stretch of its passage that says it, not the whole passage.
func Support(claim string, candidates []string) int {
	keys := KeyTerms(claim)
	nums := map[string]bool{}
	for _, n := range Numbers(claim) {
		nums[n.Norm] = true
	}
	best, at := 0, -1
	for i, c := range candidates {
		stems := map[string]bool{}
		for _, s := range search.Stems(c) {
			stems[s] = true
		}
		score := 0
		for _, k := range keys {
			if stems[k.Stem] {
				score++
			}
		}
		seen := map[string]bool{}
		for _, n := range Numbers(c) {
			if nums[n.Norm] && !seen[n.Norm] {
				seen[n.Norm] = true
				score += 2
			}
		}
		if score > best {
			best, at = score, i
		}
	}
	return at
}
