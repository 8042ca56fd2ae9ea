package patch

import (
	"errors"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

// MaxJSONPatchOperations is the handler's limit on the operations of one
// JSON patch (maxJSONPatchOperations in the apiserver's patch handler).
const MaxJSONPatchOperations = 10000

// InvalidJSONError: the body is not well-formed JSON.
// Real answer: 400 BadRequest "invalid JSON patch".
type InvalidJSONError struct{}

func (*InvalidJSONError) Error() string { return "invalid JSON patch" }

// DecodeError: the patch is JSON but cannot be decoded into what the
// patch type needs (an array of operations, an object). Message is the
// full text the server answers with, e.g.
// `error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp`.
// Real answer: 400 BadRequest with Message.
type DecodeError struct{ Message string }

func (e *DecodeError) Error() string { return e.Message }

// TooManyOperationsError: a JSON patch with more than
// MaxJSONPatchOperations operations. Real answer: 413.
type TooManyOperationsError struct{ Got int }

func (e *TooManyOperationsError) Error() string {
	return "The allowed maximum operations in a JSON patch is 10000, got " + strconv.Itoa(e.Got)
}

// OperationError: a JSON patch operation could not be applied (a failing
// test, a missing path, an unknown op...). Err is the library's reason,
// which the real server does not show. Real answer: 422 Invalid with a
// generic message and empty details.
type OperationError struct {
	Err error
}

func (e *OperationError) Error() string { return e.Err.Error() }
func (e *OperationError) Unwrap() error { return e.Err }

// InvalidMergePatchError: a merge patch that is null or a JSON scalar.
// Real answer: 400 BadRequest "Invalid JSON Patch".
type InvalidMergePatchError struct{}

func (*InvalidMergePatchError) Error() string { return "Invalid JSON Patch" }

// SMPKind classifies strategic merge patch failures the way the handler's
// interpretStrategicMergePatchError does.
type SMPKind int

const (
	// SMPBadRequest: malformed directives (400 BadRequest, message shown).
	SMPBadRequest SMPKind = iota
	// SMPUnprocessable: lists of lists, content not matching $retainKeys
	// (422 Invalid, generic message).
	SMPUnprocessable
	// SMPInternal: every other error of the library, which the server
	// passes on as a plain error (500, no reason, message shown).
	SMPInternal
)

// StrategicError is a failure of StrategicMergePatch; Message is the
// library's exact text.
type StrategicError struct {
	Kind    SMPKind
	Message string
}

func (e *StrategicError) Error() string { return e.Message }

// The library's sentinel errors (k8s.io/apimachinery/pkg/util/mergepatch).
var (
	ErrBadJSONDoc                           = &StrategicError{SMPBadRequest, "invalid JSON document"}
	ErrNoListOfLists                        = &StrategicError{SMPUnprocessable, "lists of lists are not supported"}
	ErrBadPatchFormatForPrimitiveList       = &StrategicError{SMPBadRequest, "invalid patch format of primitive list"}
	ErrBadPatchFormatForRetainKeys          = &StrategicError{SMPBadRequest, "invalid patch format of retainKeys"}
	ErrBadPatchFormatForSetElementOrderList = &StrategicError{SMPBadRequest, "invalid patch format of setElementOrder list"}
	ErrPatchContentNotMatchRetainKeys       = &StrategicError{SMPUnprocessable, "patch content doesn't match retainKeys list"}
	ErrUnsupportedStrategicMergePatchFormat = &StrategicError{SMPBadRequest, "strategic merge patch format is not supported"}
)

func internalf(msg string) *StrategicError { return &StrategicError{SMPInternal, msg} }

// ToAPIError is the one table from the engines' typed errors (this
// package's and fieldmanager's) to what kube-apiserver answers; the codes
// themselves are apierr's. The real patch handler reports these errors
// without a kind or name (a generic 422 has empty details). API errors
// pass through; errors of unknown types become 500 InternalError.
func ToAPIError(err error) *apierr.Error {
	var (
		ae  *apierr.Error
		ij  *InvalidJSONError
		de  *DecodeError
		tm  *TooManyOperationsError
		oe  *OperationError
		im  *InvalidMergePatchError
		se  *StrategicError
		sde *StrictError
		ce  *fieldmanager.ConflictError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &ij):
		return apierr.BadRequest(ij.Error())
	case errors.As(err, &de):
		return apierr.BadRequest(de.Message)
	case errors.As(err, &tm):
		return apierr.RequestEntityTooLarge(tm.Error())
	case errors.As(err, &oe):
		return apierr.InvalidGeneric()
	case errors.As(err, &im):
		return apierr.BadRequest(im.Error())
	case errors.As(err, &se):
		switch se.Kind {
		case SMPBadRequest:
			return apierr.BadRequest(se.Message)
		case SMPUnprocessable:
			return apierr.InvalidGeneric()
		}
		// A plain error reaching the handler: 500, StatusReasonUnknown ("").
		return apierr.Unknown(se.Message)
	case errors.As(err, &sde):
		// the handler's 422 with an empty kind and name
		return apierr.Invalid(apierr.GK{}, "", field.ErrorList{
			field.Invalid(field.NewPath("patch"), sde.PatchValue, sde.Error()),
		})
	case errors.As(err, &ce):
		return apierr.ApplyConflict(ce.Causes(), ce.Error())
	}
	return apierr.Internal(err)
}

// StrictError is the handler's answer under fieldValidation=Strict when
// the patch or the patched object has duplicate or unknown fields:
//
//	"" is invalid: patch: Invalid value: "<PatchValue>": strict decoding error: unknown field "spec.foo"
//
// The server builds it from Result.PatchValue and the strict errors of the
// patch (Result.StrictErrors) followed by those of the patched object.
type StrictError struct {
	PatchValue string
	Errors     []string
}

func (e *StrictError) Error() string { return "strict decoding error: " + strings.Join(e.Errors, ", ") }
