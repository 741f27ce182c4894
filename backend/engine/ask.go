package engine

import "context"

// Ask answers a question from the store with cited passages (issue 15).
func (e *Engine) Ask(ctx context.Context, r AskRequest) (*AskResponse, error) {
	if err := checkAsk(&r); err != nil {
		return nil, err
	}
	return &AskResponse{Question: r.Question, Citations: []Citation{}, Facts: []Fact{}, Mode: AskExtractive, Unsupported: []Unsupported{},
		Notice: "asking is not built yet"}, nil
}
