// Package apierr holds the typed errors of the API server and their one
// translation into a Kubernetes Status object.
//
// Code inside core returns *Error values (or plain errors, which become
// 500 InternalError). Only Status turns them into the wire form, so every
// HTTP code and reason is decided here.
package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// Reason is a StatusReason.
type Reason string

const (
	ReasonBadRequest            Reason = "BadRequest"
	ReasonUnauthorized          Reason = "Unauthorized"
	ReasonForbidden             Reason = "Forbidden"
	ReasonNotFound              Reason = "NotFound"
	ReasonAlreadyExists         Reason = "AlreadyExists"
	ReasonConflict              Reason = "Conflict"
	ReasonGone                  Reason = "Gone"
	ReasonInvalid               Reason = "Invalid"
	ReasonServerTimeout         Reason = "ServerTimeout"
	ReasonTimeout               Reason = "Timeout"
	ReasonTooManyRequests       Reason = "TooManyRequests"
	ReasonMethodNotAllowed      Reason = "MethodNotAllowed"
	ReasonNotAcceptable         Reason = "NotAcceptable"
	ReasonRequestEntityTooLarge Reason = "RequestEntityTooLarge"
	ReasonUnsupportedMediaType  Reason = "UnsupportedMediaType"
	ReasonInternalError         Reason = "InternalError"
	ReasonExpired               Reason = "Expired"
	ReasonServiceUnavailable    Reason = "ServiceUnavailable"
)

// Cause is a StatusCause.
type Cause struct {
	Type    string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// Details is StatusDetails.
type Details struct {
	Name              string  `json:"name,omitempty"`
	Group             string  `json:"group,omitempty"`
	Kind              string  `json:"kind,omitempty"`
	UID               string  `json:"uid,omitempty"`
	Causes            []Cause `json:"causes,omitempty"`
	RetryAfterSeconds int32   `json:"retryAfterSeconds,omitempty"`
}

// Error is an API error: everything a Status carries.
type Error struct {
	Code    int
	Reason  Reason
	Message string
	Details *Details
}

func (e *Error) Error() string { return e.Message }

// Status is the wire form of a failure (kind Status, apiVersion v1).
type Status struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Metadata   map[string]any `json:"metadata"`
	Status     string         `json:"status,omitempty"`
	Message    string         `json:"message,omitempty"`
	Reason     Reason         `json:"reason,omitempty"`
	Details    *Details       `json:"details,omitempty"`
	Code       int            `json:"code,omitempty"`
}

// ToStatus is the one place where an error becomes a Status.
func ToStatus(err error) Status {
	var e *Error
	if !errors.As(err, &e) {
		e = Internal(err)
	}
	return Status{
		Kind: "Status", APIVersion: "v1", Metadata: map[string]any{},
		Status: "Failure", Message: e.Message, Reason: e.Reason, Details: e.Details, Code: e.Code,
	}
}

// Code returns the HTTP status for err.
func Code(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return http.StatusInternalServerError
}

// Is reports whether err is an API error with reason r.
func Is(err error, r Reason) bool {
	var e *Error
	return errors.As(err, &e) && e.Reason == r
}

// GR names a group and resource, as in `widgets.example.com`.
type GR struct{ Group, Resource string }

func (g GR) String() string {
	if g.Group == "" {
		return g.Resource
	}
	return g.Resource + "." + g.Group
}

// GK names a group and kind, as in `Widget.example.com`.
type GK struct{ Group, Kind string }

func (g GK) String() string {
	if g.Group == "" {
		return g.Kind
	}
	return g.Kind + "." + g.Group
}

func NotFound(gr GR, name string) *Error {
	return &Error{http.StatusNotFound, ReasonNotFound, fmt.Sprintf("%s %q not found", gr, name),
		&Details{Name: name, Group: gr.Group, Kind: gr.Resource}}
}

func AlreadyExists(gr GR, name string) *Error {
	return &Error{http.StatusConflict, ReasonAlreadyExists, fmt.Sprintf("%s %q already exists", gr, name),
		&Details{Name: name, Group: gr.Group, Kind: gr.Resource}}
}

// Conflict is a 409 whose message is `Operation cannot be fulfilled on
// widgets.example.com "w1": <reason>`.
func Conflict(gr GR, name string, reason string) *Error {
	return &Error{http.StatusConflict, ReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", gr, name, reason),
		&Details{Name: name, Group: gr.Group, Kind: gr.Resource}}
}

// OptimisticLockMessage is the reason text for a stale resourceVersion.
const OptimisticLockMessage = "the object has been modified; please apply your changes to the latest version and try again"

func Invalid(gk GK, name string, errs field.ErrorList) *Error {
	causes := make([]Cause, 0, len(errs))
	for _, fe := range errs {
		causes = append(causes, Cause{Type: string(fe.Type), Message: fe.Body(), Field: fe.Field})
	}
	msg := fmt.Sprintf("%s %q is invalid", gk, name)
	if len(errs) > 0 {
		msg += ": " + errs.Message()
	}
	return &Error{http.StatusUnprocessableEntity, ReasonInvalid, msg,
		&Details{Name: name, Group: gk.Group, Kind: gk.Kind, Causes: causes}}
}

func BadRequest(msg string) *Error {
	return &Error{http.StatusBadRequest, ReasonBadRequest, msg, nil}
}

func BadRequestf(format string, a ...any) *Error { return BadRequest(fmt.Sprintf(format, a...)) }

func Forbidden(gr GR, name string, reason string) *Error {
	msg := fmt.Sprintf("%s %q is forbidden: %s", gr, name, reason)
	if name == "" {
		msg = fmt.Sprintf("%s is forbidden: %s", gr, reason)
	}
	return &Error{http.StatusForbidden, ReasonForbidden, msg, &Details{Name: name, Group: gr.Group, Kind: gr.Resource}}
}

func MethodNotSupported(gr GR, action string) *Error {
	return &Error{http.StatusMethodNotAllowed, ReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", action, gr.String()),
		&Details{Group: gr.Group, Kind: gr.Resource}}
}

// Gone is 410 with reason Expired (too old resource version, expired continue).
func Expired(msg string) *Error {
	return &Error{http.StatusGone, ReasonExpired, msg, nil}
}

func GoneResourceVersion(msg string) *Error {
	return &Error{http.StatusGone, ReasonGone, msg, nil}
}

func UnsupportedMediaType(contentType string, supported []string) *Error {
	return &Error{http.StatusUnsupportedMediaType, ReasonUnsupportedMediaType,
		fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s", strings.Join(supported, ", ")),
		nil}
}

func NotAcceptable(supported []string) *Error {
	return &Error{http.StatusNotAcceptable, ReasonNotAcceptable,
		fmt.Sprintf("only the following media types are accepted: %s", strings.Join(supported, ", ")), nil}
}

func RequestEntityTooLarge(msg string) *Error {
	return &Error{http.StatusRequestEntityTooLarge, ReasonRequestEntityTooLarge, "Request entity too large: " + msg, nil}
}

func Timeout(msg string, retryAfter int32) *Error {
	return &Error{http.StatusGatewayTimeout, ReasonTimeout, msg, &Details{RetryAfterSeconds: retryAfter}}
}

// Unknown is how the real server answers an error that is not a Status
// (ErrorToAPIStatus's default; e.g. etcd3's plain "resourceVersion should
// not be set on objects to be created"): 500, no reason
// (StatusReasonUnknown), the error's text as the message, no details.
func Unknown(msg string) *Error {
	return &Error{http.StatusInternalServerError, "", msg, nil}
}

// genericInvalidMessage is apimachinery's NewGenericServerResponse text
// for a 422.
const genericInvalidMessage = "the server rejected our request due to an error in our request"

// InvalidGeneric is the 422 of NewGenericServerResponse without a
// resource or name: reason Invalid, the generic message, empty details
// (the patch handler's answer to a patch that cannot be applied).
func InvalidGeneric() *Error {
	return &Error{http.StatusUnprocessableEntity, ReasonInvalid, genericInvalidMessage, &Details{}}
}

// CauseTypeFieldManagerConflict is the reason of each cause of an apply
// conflict.
const CauseTypeFieldManagerConflict = "FieldManagerConflict"

// ApplyConflict is a failed server-side apply (NewApplyConflict): 409
// Conflict with one FieldManagerConflict cause per field.
func ApplyConflict(causes []Cause, msg string) *Error {
	return &Error{http.StatusConflict, ReasonConflict, msg, &Details{Causes: causes}}
}

func Internal(err error) *Error {
	return &Error{http.StatusInternalServerError, ReasonInternalError,
		fmt.Sprintf("Internal error occurred: %v", err), &Details{Causes: []Cause{{Message: err.Error()}}}}
}

// MethodNotAllowed is the generic 405 of a path that exists without the
// method (a review collection's GET): "the server does not allow this
// method on the requested resource", details {}.
func MethodNotAllowed() *Error {
	return &Error{http.StatusMethodNotAllowed, ReasonMethodNotAllowed,
		"the server does not allow this method on the requested resource", &Details{}}
}

// NotFoundPath is the generic 404 Status of a path below a served
// resource that has no handler (an object of a review resource).
func NotFoundPath() *Error {
	return &Error{http.StatusNotFound, ReasonNotFound, "the server could not find the requested resource", &Details{}}
}

// NotAcceptableMessage is a 406 with the server's own explanation (a
// metadata-only form asked of the wrong shape of answer).
func NotAcceptableMessage(msg string) *Error {
	return &Error{http.StatusNotAcceptable, ReasonNotAcceptable, msg, nil}
}

// TooManyRequests is NewTooManyRequests: 429, the message as given,
// RetryAfterSeconds (also the Retry-After header) and causes, e.g. an
// eviction the disruption budget refuses:
//
//	TooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0,
//		Cause{Type: "DisruptionBudget", Message: "The disruption budget web needs 2 healthy pods and has 2 currently"})
func TooManyRequests(msg string, retryAfter int32, causes ...Cause) *Error {
	return &Error{http.StatusTooManyRequests, ReasonTooManyRequests, msg, &Details{RetryAfterSeconds: retryAfter, Causes: causes}}
}

// WithCauses returns e with causes appended to its details.
func (e *Error) WithCauses(causes ...Cause) *Error {
	if e.Details == nil {
		e.Details = &Details{}
	}
	e.Details.Causes = append(e.Details.Causes, causes...)
	return e
}

// FromStatus is the error a Status answer (code, JSON body) stands for,
// as client-go's errors.FromObject: an in-process request's failure handed
// on unchanged.
func FromStatus(code int, body []byte) *Error {
	var st Status
	if err := json.Unmarshal(body, &st); err != nil || st.Kind != "Status" {
		return &Error{code, "", strings.TrimSpace(string(body)), nil}
	}
	if st.Code != 0 {
		code = st.Code
	}
	return &Error{code, st.Reason, st.Message, st.Details}
}

// Unauthorized is the authentication filter's 401: message and reason
// "Unauthorized", no details.
func Unauthorized() *Error {
	return &Error{http.StatusUnauthorized, ReasonUnauthorized, "Unauthorized", nil}
}
