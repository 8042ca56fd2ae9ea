package controllers

import (
	"net/http"
)

// Two of kube-controller-manager's controllers put the same two objects in
// every namespace, and clients expect them (the ServiceAccount admission
// plugin rejects Pods until the namespace's "default" ServiceAccount
// exists; Pods mount kube-root-ca.crt):
//
//   - serviceaccount: a ServiceAccount "default" with nothing but its name
//     (no managedFields: the write sets no field);
//   - root-ca-cert-publisher: a ConfigMap "kube-root-ca.crt" holding the
//     cluster's CA bundle under "ca.crt", with the description annotation,
//     and put back as it was when someone changes or deletes it.
//
// Neither writes into a namespace that is being deleted (the namespace
// lifecycle admission would refuse it anyway). Deleting either object
// queues its namespace again, so it comes back, as on a cluster.

var (
	kNamespaces      = kindInfo{"", "v1", "namespaces", "Namespace", false}
	kServiceAccounts = kindInfo{"", "v1", "serviceaccounts", "ServiceAccount", true}
	kConfigMaps      = kindInfo{"", "v1", "configmaps", "ConfigMap", true}
)

const (
	defaultServiceAccount = "default"
	rootCAConfigMap       = "kube-root-ca.crt"
	rootCADescription     = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."
)

// rootCA is the sandbox's own self-signed CA certificate (P-256, CN
// kubesandbox-ca, valid until 2126), published as a cluster publishes its
// own. Nothing is served with it: the sandbox speaks plain HTTP.
const rootCA = `-----BEGIN CERTIFICATE-----
MIIBmjCCAT+gAwIBAgIUejDV2D5pFb2CkKQcGD7pq7Dv7+QwCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOa3ViZXNhbmRib3gtY2EwIBcNMjYxMTI0MDYxOTIyWhgPMjEy
NjEwMzEwNjE5MjJaMBkxFzAVBgNVBAMMDmt1YmVzYW5kYm94LWNhMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAE430uE3ESyjzzOZgztUGcjwICjDOKkrPtzuzcV/0H
b01xReIZzXBx224dLLwiM2v1nWp7HZFmv5KCSN2BfBQ3kaNjMGEwHQYDVR0OBBYE
FO627cclh9Q7mYM+HNgG2vCv2jsfMB8GA1UdIwQYMBaAFO627cclh9Q7mYM+HNgG
2vCv2jsfMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgKkMAoGCCqGSM49
BAMCA0kAMEYCIQD2QP/B8NjX9WK35FfPPl9udNhkG7pcfYBgmpXc0PTIOwIhALID
xqvCxhQVXj+DLdLrjoOpbLtSqNhkiMZiPhcwk4DK
-----END CERTIFICATE-----
`

// syncNamespace creates what a namespace holds from its first moment on.
func (m *Manager) syncNamespace(ns obj) error {
	if deleting(ns) || str(ns, "status", "phase") == "Terminating" {
		return nil
	}
	n := name(ns)
	if err := m.publishRootCA(n); err != nil {
		return err
	}
	return m.ensureDefaultServiceAccount(n)
}

// ensureDefaultServiceAccount is the serviceaccount controller's
// syncNamespace: create "default" when it is missing.
func (m *Manager) ensureDefaultServiceAccount(ns string) error {
	if _, _, err := m.st.Get(kServiceAccounts.storeKey(ns, defaultServiceAccount), 0); err == nil {
		return nil
	}
	sa := map[string]any{"metadata": map[string]any{"name": defaultServiceAccount}}
	_, err := m.cm.do(m.ctx, http.MethodPost, kServiceAccounts.path(ns, "", ""), ctJSON, sa)
	return ignoreRace(err)
}

// publishRootCA is root-ca-cert-publisher's sync: create the ConfigMap,
// or put its data and annotation back when they differ.
func (m *Manager) publishRootCA(ns string) error {
	kv, _, err := m.st.Get(kConfigMaps.storeKey(ns, rootCAConfigMap), 0)
	if err != nil {
		cm := map[string]any{
			"metadata": map[string]any{"name": rootCAConfigMap,
				"annotations": map[string]any{"kubernetes.io/description": rootCADescription}},
			"data": map[string]any{"ca.crt": rootCA},
		}
		_, err := m.cm.do(m.ctx, http.MethodPost, kConfigMaps.path(ns, "", ""), ctJSON, cm)
		return ignoreRace(err)
	}
	cur := decode(kv.Value)
	if cur == nil || deleting(cur) {
		return nil
	}
	data := child(cur, "data")
	if len(data) == 1 && str(cur, "data", "ca.crt") == rootCA &&
		str(cur, "metadata", "annotations", "kubernetes.io/description") == rootCADescription {
		return nil
	}
	// as the publisher: data replaced whole, the annotation set
	ensure(cur, "metadata", "annotations")["kubernetes.io/description"] = rootCADescription
	cur["data"] = map[string]any{"ca.crt": rootCA}
	_, err = m.cm.do(m.ctx, http.MethodPut, kConfigMaps.path(ns, rootCAConfigMap, ""), ctJSON, cur)
	return ignoreRace(err)
}

// ignoreRace: another writer got there first (409), or the namespace
// started terminating (403) or went (404); the next event decides.
func ignoreRace(err error) error {
	if isCode(err, http.StatusConflict) || isCode(err, http.StatusForbidden) || isCode(err, http.StatusNotFound) {
		return nil
	}
	return err
}

// namespaceObjectChanged queues the namespace of a written or deleted
// default ServiceAccount or kube-root-ca.crt ConfigMap, which its
// controller puts back as it was.
func (m *Manager) namespaceObjectChanged(key string) {
	group, plural, ns, n, ok := parseKey(key)
	if !ok || group != "" || ns == "" {
		return
	}
	if (plural == "serviceaccounts" && n == defaultServiceAccount) || (plural == "configmaps" && n == rootCAConfigMap) {
		m.q.add(kNamespaces.storeKey("", ns))
	}
}
