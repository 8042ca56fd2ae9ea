package validation

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// FieldImmutableErrorMsg is the detail of an error on a field that an
// update may not change.
const FieldImmutableErrorMsg = "field is immutable"

// TotalAnnotationSizeLimitB is the limit on the summed length of all
// annotation keys and values: 256 KiB.
const TotalAnnotationSizeLimitB = 256 * (1 << 10)

// IsNegativeErrorMsg is the detail for a negative generation.
const IsNegativeErrorMsg = "must be greater than or equal to 0"

// Finalizers the garbage collector understands; they may not be set together.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// ValidateObjectMeta checks the metadata of an object being created, as
// apimachinery's ValidateObjectMetaAccessor does: name (or generateName),
// namespace (required when namespaced, forbidden otherwise), generation,
// labels, annotations, owner references and finalizers. managedFields are
// not checked here.
//
// meta is the decoded "metadata" object (nil means empty). nameFn checks
// the name; custom resources use NameIsDNSSubdomain. Example, for
// {"name":"Bad_Name"} in a namespaced resource without namespace:
//
//	metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain ...
//	metadata.namespace: Required value
func ValidateObjectMeta(meta map[string]any, namespaced bool, nameFn NameFunc, path *field.Path) field.ErrorList {
	om := parseMeta(meta)
	var errs field.ErrorList
	if nameFn == nil {
		nameFn = NameIsDNSSubdomain
	}
	if om.generateName != "" {
		for _, msg := range nameFn(om.generateName, true) {
			errs = append(errs, field.Invalid(path.Child("generateName"), om.generateName, msg))
		}
	}
	if om.name == "" {
		errs = append(errs, field.Required(path.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(om.name, false) {
			errs = append(errs, field.Invalid(path.Child("name"), om.name, msg))
		}
	}
	if namespaced {
		if om.namespace == "" {
			errs = append(errs, field.Required(path.Child("namespace"), ""))
		} else {
			for _, msg := range ValidateNamespaceName(om.namespace, false) {
				errs = append(errs, field.Invalid(path.Child("namespace"), om.namespace, msg))
			}
		}
	} else if om.namespace != "" {
		errs = append(errs, field.Forbidden(path.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, validateNonnegative(om.generation, path.Child("generation"))...)
	errs = append(errs, ValidateLabels(om.labels, path.Child("labels"))...)
	errs = append(errs, ValidateAnnotations(om.annotations, path.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(om.ownerReferences, path.Child("ownerReferences"))...)
	errs = append(errs, ValidateFinalizers(om.finalizers, path.Child("finalizers"))...)
	return errs
}

// ValidateObjectMetaUpdate checks the metadata of an update against the
// stored object's, as apimachinery's ValidateObjectMetaAccessorUpdate does:
// no new finalizers once deletion started, resourceVersion present,
// generation not negative nor decremented, name, namespace, uid,
// creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds
// unchanged ("field is immutable"), then labels, annotations and owner
// references. The name format and finalizer names are not re-checked.
func ValidateObjectMetaUpdate(newMeta, oldMeta map[string]any, path *field.Path) field.ErrorList {
	n, o := parseMeta(newMeta), parseMeta(oldMeta)
	var errs field.ErrorList
	if o.deletionTimestamp != nil {
		errs = append(errs, ValidateNoNewFinalizers(n.finalizers, o.finalizers, path.Child("finalizers"))...)
	}
	if n.resourceVersion == "" {
		errs = append(errs, field.Invalid(path.Child("resourceVersion"), n.resourceVersion, "must be specified for an update"))
	}
	errs = append(errs, validateNonnegative(n.generation, path.Child("generation"))...)
	if n.generation < o.generation {
		errs = append(errs, field.Invalid(path.Child("generation"), n.generation, "must not be decremented"))
	}
	immutable := func(changed bool, v any, name string) {
		if changed {
			errs = append(errs, field.Invalid(path.Child(name), orNull(v), FieldImmutableErrorMsg))
		}
	}
	immutable(n.name != o.name, n.name, "name")
	immutable(n.namespace != o.namespace, n.namespace, "namespace")
	immutable(n.uid != o.uid, jsonString(n.uid), "uid")
	immutable(!sameTime(n.creationTimestamp, o.creationTimestamp), n.creationTimestamp, "creationTimestamp")
	immutable(!sameTime(n.deletionTimestamp, o.deletionTimestamp), n.deletionTimestamp, "deletionTimestamp")
	immutable(n.deletionGracePeriodSeconds != o.deletionGracePeriodSeconds, n.deletionGracePeriodSeconds, "deletionGracePeriodSeconds")
	errs = append(errs, ValidateLabels(n.labels, path.Child("labels"))...)
	errs = append(errs, ValidateAnnotations(n.annotations, path.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(n.ownerReferences, path.Child("ownerReferences"))...)
	return errs
}

func validateNonnegative(v int64, p *field.Path) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p, v, IsNegativeErrorMsg)}
	}
	return nil
}

// ValidateLabels checks label keys (qualified names) and values. Errors
// are reported on the labels path itself, not on the key:
//
//	metadata.labels: Invalid value: "not ok!": a valid label must be ...
func ValidateLabels(labels map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		for _, msg := range IsQualifiedName(k) {
			errs = append(errs, field.Invalid(path, k, msg))
		}
		v := labels[k]
		for _, msg := range IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(path, v, msg))
		}
	}
	return errs
}

// ValidateAnnotations checks annotation keys (qualified names, compared in
// lower case) and the total size of keys and values (256 KiB), which is
// reported as "metadata.annotations: Too long: may not be more than
// 262144 bytes".
func ValidateAnnotations(annotations map[string]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	total := 0
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(path, k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > TotalAnnotationSizeLimitB {
		errs = append(errs, field.TooLong(path, "", TotalAnnotationSizeLimitB))
	}
	return errs
}

// ValidateFinalizers checks each finalizer as a qualified name (errors on
// the finalizers path, not indexed) and forbids "orphan" together with
// "foregroundDeletion".
func ValidateFinalizers(finalizers []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	orphan, foreground := false, false
	for _, f := range finalizers {
		for _, msg := range IsQualifiedName(f) {
			errs = append(errs, field.Invalid(path, f, msg))
		}
		orphan = orphan || f == FinalizerOrphanDependents
		foreground = foreground || f == FinalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(path, finalizers,
			fmt.Sprintf("finalizer %s and %s cannot be both set", FinalizerOrphanDependents, FinalizerDeleteDependents)))
	}
	return errs
}

// ValidateNoNewFinalizers forbids adding finalizers to an object that is
// being deleted. The list is printed in Go syntax, as the real server does:
//
//	metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b"}
func ValidateNoNewFinalizers(newFinalizers, oldFinalizers []string, path *field.Path) field.ErrorList {
	old := map[string]bool{}
	for _, f := range oldFinalizers {
		old[f] = true
	}
	seen := map[string]bool{}
	var extra []string
	for _, f := range newFinalizers {
		if !old[f] && !seen[f] {
			seen[f] = true
			extra = append(extra, f)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return field.ErrorList{field.Forbidden(path,
		fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", extra))}
}

// ValidateOwnerReferences checks the decoded metadata.ownerReferences list:
// apiVersion, kind, name and uid are required, apiVersion must parse, and
// at most one reference may be the controller.
func ValidateOwnerReferences(refs []any, path *field.Path) field.ErrorList {
	return validateOwnerReferences(parseMeta(map[string]any{"ownerReferences": refs}).ownerReferences, path)
}

func validateOwnerReferences(refs []ownerReference, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	firstController := ""
	for i, ref := range refs {
		errs = append(errs, validateOwnerReference(ref, path.Index(i))...)
		if ref.Controller != nil && *ref.Controller {
			cur := ref.Kind + "/" + ref.Name
			if firstController != "" {
				errs = append(errs, field.Invalid(path, refs,
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", firstController, cur)))
			} else {
				firstController = cur
			}
		}
	}
	return errs
}

func validateOwnerReference(ref ownerReference, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	group, version, ok := parseGroupVersion(ref.APIVersion)
	if ref.APIVersion == "" {
		errs = append(errs, field.Required(path.Child("apiVersion"), "must not be empty"))
	} else if !ok || version == "" {
		errs = append(errs, field.Invalid(path.Child("apiVersion"), ref.APIVersion, "must be <group>/<version> or <version>"))
	}
	if ref.Kind == "" {
		errs = append(errs, field.Required(path.Child("kind"), "must not be empty"))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "must not be empty"))
	}
	if ref.UID == "" {
		errs = append(errs, field.Required(path.Child("uid"), "must not be empty"))
	}
	// Events may not own anything (apimachinery's BannedOwners).
	if group == "" && version == "v1" && ref.Kind == "Event" {
		errs = append(errs, field.Invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"))
	}
	return errs
}

// parseGroupVersion splits "group/version" or "version" as
// schema.ParseGroupVersion does; "" and "/" are the empty version.
func parseGroupVersion(gv string) (group, version string, ok bool) {
	if gv == "" || gv == "/" {
		return "", "", true
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, true
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], true
	}
	return "", "", false
}
