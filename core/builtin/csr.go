package builtin

import (
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// certificates.k8s.io/v1 CertificateSigningRequests, as kube-apiserver
// v1.37.2 stores them (pkg/registry/certificates/certificates/strategy.go,
// pkg/apis/certificates/validation):
//
//   - create: spec.username/uid/groups/extra are the requester's (every
//     request here is system:anonymous), status is emptied; spec.request
//     must be a PEM "CERTIFICATE REQUEST" whose signature checks, usages
//     known and not repeated, signerName "domain.tld/path", expirationSeconds
//     at least 600;
//   - update: spec and status stay as they were (metadata only);
//   - /status: conditions of type Approved and Denied may not be added,
//     changed or removed there (422);
//   - /approval (GET, PUT — `kubectl certificate approve|deny`): only
//     status.conditions change; their lastUpdateTime and lastTransitionTime
//     are filled in; Approved and Denied exclude each other and may not be
//     removed.
//
// No signer runs: an approved request gets no status.certificate (as on a
// cluster without kube-controller-manager's csrsigning controller). The
// /approval write is a storage update, not recorded in managedFields.
var csrHooks = func(h *resource.Hooks) {
	h.PrepareCreate = csrPrepareCreate
	h.Requester = csrRequester
	h.PrepareUpdate = func(obj, old resource.Object) {
		obj["spec"] = jsonx.DeepCopy(old["spec"])
		obj["status"] = jsonx.DeepCopy(old["status"])
	}
	h.Validate = csrValidate
	h.Name = func(string, bool) []string { return nil }
}

var csrSubresources = []resource.Subresource{{Name: "approval", Kind: "CertificateSigningRequest", Def: "io.k8s.api.certificates.v1.CertificateSigningRequest", Verbs: []string{"get", "update"}, Serve: csrApproval}}

var csrGK = apierr.GK{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}

func csrPrepareCreate(obj resource.Object) {
	spec := ensure(obj, "spec")
	for _, k := range []string{"username", "uid", "groups", "extra"} {
		delete(spec, k)
	}
	obj["status"] = map[string]any{}
}

// csrRequester records who asks for the certificate, as the strategy's
// PrepareForCreate injects the request's user.Info.
func csrRequester(obj resource.Object, user resource.User) {
	spec := ensure(obj, "spec")
	for k, v := range user {
		spec[k] = v
	}
}

var csrUsages = []string{"any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment",
	"decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user",
	"key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"}

func csrValidate(obj, old resource.Object) field.ErrorList {
	if old != nil {
		return csrConditionsUpdate(obj, old, false)
	}
	spec := child(obj, "spec")
	p := field.NewPath("spec")
	var errs field.ErrorList
	raw, _ := base64.StdEncoding.DecodeString(str(spec, "request"))
	if err := checkCSR(raw); err != nil {
		errs = append(errs, field.Invalid(p.Child("request"), raw, err.Error()))
	}
	usages := jsonx.Strings(spec["usages"])
	if len(usages) == 0 {
		errs = append(errs, field.Required(p.Child("usages"), ""))
	}
	seen := map[string]bool{}
	for i, u := range usages {
		if !contains(csrUsages, u) {
			errs = append(errs, field.NotSupported(p.Child("usages").Index(i), u, csrUsages))
		}
		if seen[u] {
			errs = append(errs, field.Duplicate(p.Child("usages").Index(i), u))
		}
		seen[u] = true
	}
	if s := str(spec, "signerName"); s == "kubernetes.io/legacy-unknown" {
		errs = append(errs, field.Invalid(p.Child("signerName"), s, "the legacy signerName is not allowed via this API version"))
	} else {
		errs = append(errs, signerName(p.Child("signerName"), s)...)
	}
	if e, ok := num(spec, "expirationSeconds"); ok && e < 600 {
		errs = append(errs, field.Invalid(p.Child("expirationSeconds"), e, "may not specify a duration less than 600 seconds (10 minutes)"))
	}
	return errs
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// checkCSR is ParseCSR and CheckSignature (checkCSRDER: x509_native.go,
// x509_js.go).
func checkCSR(raw []byte) error {
	block, _ := pem.Decode(raw)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	return checkCSRDER(block.Bytes)
}

// signerName is ValidateSignerName.
func signerName(p *field.Path, s string) field.ErrorList {
	if s == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	seg := strings.Split(s, "/")
	if len(seg) != 2 {
		return field.ErrorList{field.Invalid(p, s, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var errs field.ErrorList
	if len(seg[0]) > 253 {
		errs = append(errs, field.TooLong(p, "", 253))
	}
	labels := strings.Split(seg[0], ".")
	for _, l := range labels {
		if msgs := validation.IsDNS1123Label(l); len(msgs) > 0 {
			for _, m := range msgs {
				errs = append(errs, field.Invalid(p, seg[0], fmt.Sprintf("validating label %q: %s", l, m)))
			}
			break
		}
	}
	if len(labels) < 2 {
		errs = append(errs, field.Invalid(p, seg[0], "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(seg[1], ".") {
		if msgs := validation.IsDNS1123Subdomain(l); len(msgs) > 0 {
			for _, m := range msgs {
				errs = append(errs, field.Invalid(p, seg[1], fmt.Sprintf("validating label %q: %s", l, m)))
			}
			break
		}
	}
	if max := 253 + 253 + 63 + 1 + 1; len(s) > max {
		errs = append(errs, field.TooLong(p, "", max))
	}
	return errs
}

// csrConditions is validateConditions.
func csrConditions(obj resource.Object) field.ErrorList {
	p := field.NewPath("status", "conditions")
	var errs field.ErrorList
	seen := map[string]bool{}
	approved, denied := false, false
	for i, c := range items(child(obj, "status"), "conditions") {
		t, s := str(c, "type"), str(c, "status")
		if t == "" {
			errs = append(errs, field.Required(p.Index(i).Child("type"), ""))
		}
		allowed := []string{"False", "True", "Unknown"}
		if t == "Approved" || t == "Denied" || t == "Failed" {
			allowed = []string{"True"}
		}
		switch {
		case s == "":
			errs = append(errs, field.Required(p.Index(i).Child("status"), ""))
		case !contains(allowed, s):
			errs = append(errs, field.NotSupported(p.Index(i).Child("status"), s, allowed))
		}
		switch t {
		case "Approved":
			approved = true
			if denied {
				errs = append(errs, field.Invalid(p, t, "Approved and Denied conditions are mutually exclusive"))
			}
		case "Denied":
			denied = true
			if approved {
				errs = append(errs, field.Invalid(p, t, "Approved and Denied conditions are mutually exclusive"))
			}
		}
		if seen[t] {
			errs = append(errs, field.Duplicate(p.Index(i).Child("type"), t))
		}
		seen[t] = true
	}
	return errs
}

// csrConditionsUpdate is validateCertificateSigningRequestUpdate's
// condition rules (approval: whether Approved/Denied may change).
func csrConditionsUpdate(obj, old resource.Object, approval bool) field.ErrorList {
	errs := csrConditions(obj)
	p := field.NewPath("status", "conditions")
	find := func(o resource.Object, t string) []any {
		var out []any
		for _, c := range items(child(o, "status"), "conditions") {
			if str(c, "type") == t {
				out = append(out, c)
			}
		}
		return out
	}
	for _, t := range []string{"Approved", "Denied", "Failed"} {
		if len(find(obj, t)) < len(find(old, t)) {
			errs = append(errs, field.Forbidden(p, fmt.Sprintf("updates may not remove a condition of type %q", t)))
		}
	}
	if !approval {
		for _, t := range []string{"Approved", "Denied"} {
			n, o := find(obj, t), find(old, t)
			switch {
			case len(n) > len(o):
				errs = append(errs, field.Forbidden(p, fmt.Sprintf("updates may not add a condition of type %q", t)))
			case len(n) == len(o) && jsonOf(n) != jsonOf(o):
				errs = append(errs, field.Forbidden(p, fmt.Sprintf("updates may not modify a condition of type %q", t)))
			}
		}
	}
	if str(child(obj, "status"), "certificate") != str(child(old, "status"), "certificate") && approval {
		errs = append(errs, field.Forbidden(field.NewPath("status", "certificate"), "updates may not set certificate content"))
	}
	return errs
}

func jsonOf(v any) string { b, _ := jsonx.Marshal(v); return string(b) }

// csrApproval serves GET and PUT of …/certificatesigningrequests/NAME/approval.
func csrApproval(r *resource.SubRequest) (resource.SubAnswer, error) {
	if r.Verb == "get" {
		return resource.SubAnswer{Code: http.StatusOK, Obj: r.Obj}, nil
	}
	in, err := jsonx.DecodeObject(r.Body)
	if err != nil {
		return resource.SubAnswer{}, apierr.BadRequestf("the object provided is unrecognized (must be of type CertificateSigningRequest): %v", err)
	}
	name := metaStr(r.Obj, "name")
	if n := metaStr(in, "name"); n != name {
		return resource.SubAnswer{}, apierr.BadRequestf("the name of the object (%s) does not match the name on the URL (%s)", n, name)
	}
	gr := apierr.GR{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}
	out, err := r.Update(func(cur resource.Object) error {
		if rv := metaStr(in, "resourceVersion"); rv != "" && rv != metaStr(cur, "resourceVersion") {
			return apierr.Conflict(gr, name, "the object has been modified; please apply your changes to the latest version and try again")
		}
		old := jsonx.CopyObject(cur)
		conds := listOf(child(in, "status")["conditions"])
		csrTimestamps(conds, items(child(old, "status"), "conditions"), r.Now)
		st := ensure(cur, "status")
		if len(conds) > 0 {
			st["conditions"] = conds
		} else {
			delete(st, "conditions")
		}
		if errs := csrConditionsUpdate(cur, old, true); len(errs) > 0 {
			return apierr.Invalid(csrGK, name, errs)
		}
		return nil
	})
	if err != nil {
		return resource.SubAnswer{}, err
	}
	return resource.SubAnswer{Code: http.StatusOK, Obj: out}, nil
}

// csrTimestamps is populateConditionTimestamps.
func csrTimestamps(conds []any, old []map[string]any, now string) {
	for _, c := range conds {
		cm := mapOf(c)
		if cm == nil {
			continue
		}
		if str(cm, "lastUpdateTime") == "" {
			cm["lastUpdateTime"] = now
		}
		if str(cm, "lastTransitionTime") != "" {
			continue
		}
		cm["lastTransitionTime"] = now
		for _, o := range old {
			if str(o, "type") == str(cm, "type") && str(o, "status") == str(cm, "status") && str(o, "lastTransitionTime") != "" {
				cm["lastTransitionTime"] = o["lastTransitionTime"]
				break
			}
		}
	}
}

// csrCondition is the CONDITION column (extractCSRStatus).
func csrCondition(o resource.Object, _ time.Time) any {
	var approved, denied, failed bool
	for _, c := range items(child(o, "status"), "conditions") {
		switch str(c, "type") {
		case "Approved":
			approved = true
		case "Denied":
			denied = true
		case "Failed":
			failed = true
		}
	}
	s := "Pending"
	if denied {
		s = "Denied"
	} else if approved {
		s = "Approved"
	}
	if failed {
		s += ",Failed"
	}
	if str(child(o, "status"), "certificate") != "" {
		s += ",Issued"
	}
	return s
}

func csrSigner(o resource.Object, _ time.Time) any {
	if s := str(child(o, "spec"), "signerName"); s != "" {
		return s
	}
	return "<none>"
}

func csrRequestor(o resource.Object, _ time.Time) any { return str(child(o, "spec"), "username") }

func csrDuration(o resource.Object, _ time.Time) any {
	if e, ok := num(child(o, "spec"), "expirationSeconds"); ok {
		return HumanDuration(time.Duration(e) * time.Second)
	}
	return "<none>"
}

func init() {
	catalogue = append(catalogue, entry{def: "io.k8s.api.certificates.v1.CertificateSigningRequest", hooks: csrHooks, res: resource.Resource{
		Group: "certificates.k8s.io", Version: "v1", Resource: "certificatesigningrequests", Singular: "certificatesigningrequest",
		Kind: "CertificateSigningRequest", ListKind: "CertificateSigningRequestList", ShortNames: []string{"csr"},
		Verbs: allVerbs, Status: true, NoGeneration: true, Subresources: csrSubresources,
		ResetFields: map[string][][]string{"": {{"spec"}}, "status": {{"status", "conditions"}}}, // csrStrategy, csrStatusStrategy
		PrinterColumns: []resource.PrinterColumn{nameColumn, ageColumn,
			withCell(col("SignerName", "string", 0, "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.", ""), csrSigner),
			withCell(col("Requestor", "string", 0, "Base64-encoded PKCS#10 CSR data", ""), csrRequestor),
			withCell(col("RequestedDuration", "string", 0, csrDurationDoc, ""), csrDuration),
			withCell(col("Condition", "string", 0, "Conditions applied to the request, such as approval or denial.", ""), csrCondition),
		},
	}})
}

const csrDurationDoc = "expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes."
