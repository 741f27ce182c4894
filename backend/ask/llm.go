package ask

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-app/strata/backend/answer"
)

// askSystem instructs the local chat model. It answers only from the passages, cites every
// sentence, and says so when the passages do not answer: whatever it writes is then checked
// sentence by sentence (answer.Check), so the instructions ask for what the check can verify.
const askSystem = `You answer a question using only the numbered passages you are given.
Rules:
- Use only what the passages say. Do not add facts from your own knowledge.
- Write a short answer of one to five sentences in plain prose, no headings and no lists.
- End every sentence with the numbers of the passages it comes from, in square brackets, like [1] or [2][3].
- Copy numbers, names and amounts exactly as the passages write them.
- If the passages do not answer the question, reply with exactly: NO ANSWER`

// noAnswer is the model's reply when the passages do not answer.
const noAnswer = "NO ANSWER"

// llmOutcome is a chat model's answer after the check: the sentences kept, and those removed.
type llmOutcome struct {
	sentences   []answer.Verdict
	unsupported []Unsupported
	noAnswer    bool // the model said the passages do not answer
}

// askLLM asks the chat model to answer from the numbered passages and checks each sentence of
// its answer against the passages it cites. The model is sent each result's best passage (not
// its second: a laptop's model reads a long prompt slowly, and the best passages are what the
// search vouches for). Unsupported lists the sentences removed, with the passage numbers as
// the model wrote them ([n] is the n-th passage sent, in the search's order) and why.
func (a *Asker) askLLM(ctx context.Context, question string, passages []*passage) (*llmOutcome, error) {
	var user strings.Builder
	sent := make(map[int]string, len(passages))
	user.WriteString("Passages:\n")
	for i, p := range passages {
		n := i + 1
		sent[n] = p.chunk.Text
		fmt.Fprintf(&user, "\n[%d] %s\n%s\n", n, p.result.Title, p.chunk.Text)
	}
	fmt.Fprintf(&user, "\nQuestion: %s\n", question)
	reply, err := a.Chat.Chat(ctx, askSystem, user.String())
	if err != nil {
		return nil, err
	}
	out := &llmOutcome{unsupported: []Unsupported{}}
	if strings.HasPrefix(strings.TrimSpace(reply), noAnswer) {
		out.noAnswer = true
		return out, nil
	}
	for _, s := range answer.SplitAnswer(reply) {
		v := answer.Check(s, sent)
		if v.OK {
			out.sentences = append(out.sentences, v)
			continue
		}
		cites := v.Cites
		if cites == nil {
			cites = []int{}
		}
		out.unsupported = append(out.unsupported, Unsupported{Sentence: v.Text, Citations: cites, Reason: v.Reason})
	}
	return out, nil
}

// llmSentences cites checked sentences: each [n] the model wrote becomes the citation of the
// stretch of passage n that bears the sentence out (its best sentence, or its best line when
// it has no sentence of prose), numbered in order of first use.
func (w *writer) llmSentences(ctx context.Context, sent []*passage, vs []answer.Verdict) ([]answerSentence, error) {
	var out []answerSentence
	for _, v := range vs {
		var cites []int
		for _, n := range v.Cites {
			p := sent[n-1] // Check kept only numbers of passages sent
			from, to, quote := supportOf(p, v.Text)
			c, err := w.cite(ctx, p, from, to, quote)
			if err != nil {
				return nil, err
			}
			if !containsInt(cites, c) {
				cites = append(cites, c)
			}
		}
		out = append(out, answerSentence{text: v.Text, cites: cites})
	}
	return out, nil
}

// supportOf is the stretch of a passage's text that bears a claim out best.
func supportOf(p *passage, claim string) (from, to int, quote string) {
	texts := make([]string, len(p.sents))
	for i, s := range p.sents {
		texts[i] = s.Text
	}
	if i := answer.Support(claim, texts); i >= 0 {
		s := p.sents[i]
		return s.Start, s.End, s.Text
	}
	// No sentence of prose says it (a passage of code or a table): its best line.
	type span struct{ from, to int }
	var lines []span
	var ltexts []string
	at := 0
	for _, l := range strings.Split(p.chunk.Text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, span{at, at + len(l)})
			ltexts = append(ltexts, l)
		}
		at += len(l) + 1
	}
	if len(lines) == 0 {
		return 0, len(p.chunk.Text), strings.Join(strings.Fields(p.chunk.Text), " ")
	}
	i := max(answer.Support(claim, ltexts), 0)
	return lines[i].from, lines[i].to, strings.Join(strings.Fields(ltexts[i]), " ")
}

// modelAnswer asks the local chat model, when there is one and there are passages, and returns
// the sentences of its answer that the check kept, setting resp's mode and model. When the
// model fails, finds no answer, or writes nothing the passages bear out, it returns none and
// resp stays extractive, its notice saying why (and Unsupported listing what was removed).
func (a *Asker) modelAnswer(ctx context.Context, w *writer, question string, resp *Answer) ([]answerSentence, error) {
	if len(w.passages) == 0 {
		return nil, nil
	}
	if ok, _ := a.Chat.Available(ctx); !ok {
		return nil, nil
	}
	var sent []*passage
	for _, p := range w.passages {
		if !p.second {
			sent = append(sent, p)
		}
	}
	out, err := a.askLLM(ctx, question, sent)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		// Not a failure of the ask: the extractive answer stands in, and the notice says so.
		resp.Notice = JoinNotice(resp.Notice, "the local chat model did not answer; this answer is extracted from the passages")
		a.Log.Warn("ask: the chat model failed, answering extractively", "err", err)
		return nil, nil
	}
	resp.Unsupported = out.unsupported
	switch {
	case len(out.sentences) > 0:
		body, err := w.llmSentences(ctx, sent, out.sentences)
		if err != nil {
			return nil, err
		}
		resp.Mode, resp.Model = ModeLLM, a.Chat.Model()
		return body, nil
	case out.noAnswer:
		resp.Notice = JoinNotice(resp.Notice, "the local chat model found no answer in the passages; this answer is extracted from them")
	default:
		resp.Notice = JoinNotice(resp.Notice, fmt.Sprintf("none of the %d sentences the chat model wrote is borne out by the passages it cites; this answer is extracted from the passages", len(out.unsupported)))
	}
	return nil, nil
}
