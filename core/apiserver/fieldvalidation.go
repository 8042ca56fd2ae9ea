package apiserver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/patch"
)

// fieldValidation reads the fieldValidation parameter: "" behaves as Warn.
func (q *request) fieldValidation() (string, error) {
	v := q.query.Get("fieldValidation")
	switch v {
	case "", patch.FieldValidationIgnore, patch.FieldValidationWarn, patch.FieldValidationStrict:
		if v == "" {
			v = patch.FieldValidationWarn
		}
		return v, nil
	}
	return "", q.optionsInvalid(field.NotSupported(field.NewPath("fieldValidation"), v,
		[]string{"", patch.FieldValidationIgnore, patch.FieldValidationStrict, patch.FieldValidationWarn}))
}

// checkFields applies schema defaulting and pruning to obj and reports
// duplicate fields in the raw body and pruned unknown fields as the
// fieldValidation directive asks: warnings (Warn), a 400 (Strict), or
// nothing (Ignore).
func (q *request) checkFields(fv string, body []byte, obj object) error {
	var problems []string
	if fv != patch.FieldValidationIgnore && len(body) > 0 {
		raw := body
		if contentType(q.r) == mediaYAML {
			raw = nil // YAML duplicates are reported by the YAML decoder
		}
		for _, p := range jsonx.DuplicateFields(raw) {
			problems = append(problems, fmt.Sprintf("duplicate field %q", p))
		}
	}
	unknown, err := schemaDefaultAndPrune(q.res, obj)
	if err != nil {
		return err
	}
	for _, p := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", p))
	}
	return q.reportFieldProblems(fv, problems)
}

func (q *request) reportFieldProblems(fv string, problems []string) error {
	if len(problems) == 0 || fv == patch.FieldValidationIgnore {
		return nil
	}
	if fv == patch.FieldValidationStrict {
		return apierr.BadRequestf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
			q.res.Kind, q.res.Version, q.res.Kind, strings.Join(problems, ", "))
	}
	for _, p := range problems {
		q.warn = append(q.warn, "299 - "+strconv.Quote(p))
	}
	return nil
}
