package fieldmanager

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
)

// Conflict is one field that the applier would take from another manager.
type Conflict struct {
	Manager string // the other manager's identifier (JSON, see Managed)
	Path    string // e.g. ".spec.color"
}

// ConflictError is a failed apply: the fields the applier would take from
// other managers. Like SMD's merge.Conflicts it is a plain error that
// knows nothing of HTTP; patch.ToAPIError turns it into the real server's
// 409 Conflict (apierr.ApplyConflict, one FieldManagerConflict cause per
// field). Its text is the Status message:
//
//	Apply failed with 1 conflict: conflict with "bob" using example.com/v1: .spec.color
//
// or, with several,
//
//	Apply failed with 2 conflicts: conflicts with "alice":
//	- .spec.color
//	- .spec.replicas
type ConflictError struct {
	Conflicts []Conflict
}

func newConflictError(cs merge.Conflicts) *ConflictError {
	e := &ConflictError{}
	for _, c := range cs {
		e.Conflicts = append(e.Conflicts, Conflict{Manager: c.Manager, Path: c.Path.String()})
	}
	// The real order follows Go map iteration over managers (random);
	// sort for a stable answer.
	sort.SliceStable(e.Conflicts, func(i, j int) bool {
		return e.Conflicts[i].Manager < e.Conflicts[j].Manager
	})
	return e
}

func (e *ConflictError) Error() string {
	if len(e.Conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(e.Conflicts[0].Manager), e.Conflicts[0].Path)
	}
	byManager := map[string][]string{}
	var managers []string
	for _, c := range e.Conflicts {
		if _, ok := byManager[c.Manager]; !ok {
			managers = append(managers, c.Manager)
		}
		byManager[c.Manager] = append(byManager[c.Manager], c.Path)
	}
	sort.Strings(managers)
	var lines []string
	for _, m := range managers {
		lines = append(lines, fmt.Sprintf("conflicts with %v:", printManager(m)))
		for _, p := range byManager[m] {
			lines = append(lines, "- "+p)
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(e.Conflicts), strings.Join(lines, "\n"))
}

// Causes are the Status causes of the conflict, one per field, as the
// real server's NewConflictError lists them.
func (e *ConflictError) Causes() []apierr.Cause {
	causes := make([]apierr.Cause, 0, len(e.Conflicts))
	for _, c := range e.Conflicts {
		causes = append(causes, apierr.Cause{
			Type:    apierr.CauseTypeFieldManagerConflict,
			Message: "conflict with " + printManager(c.Manager),
			Field:   c.Path,
		})
	}
	return causes
}

// printManager renders a manager identifier as the real server does:
// `"alice"`, `"bob" using example.com/v1` for updaters, plus
// ` with subresource "status"`. The real code decodes the identifier as a
// ManagedFieldsEntry, which never carries a time, so " at <time>" is never
// printed.
func printManager(id string) string {
	e, err := parseManagerIdentifier(id)
	if err != nil {
		return fmt.Sprintf("%q", id)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == OperationUpdate {
		return fmt.Sprintf("%s using %v", s, e.APIVersion)
	}
	return s
}
