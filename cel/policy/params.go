package policy

import (
	"context"
	"encoding/json"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// paramInformer is the informers.GenericInformer that generic.CollectParams
// reads: a synced in-memory lister over the param objects the core sent
// (the named one, or those of the namespace for a selector, for each
// binding). Only HasSynced is ever called on its informer.
type paramInformer struct {
	lister cache.GenericLister
}

type syncedInformer struct{ cache.SharedIndexInformer }

func (syncedInformer) HasSynced() bool { return true }

func (p paramInformer) Informer() cache.SharedIndexInformer { return syncedInformer{} }
func (p paramInformer) Lister() cache.GenericLister         { return p.lister }

func newParamInformer(byBinding map[string][]json.RawMessage, gvk schema.GroupVersionKind, _ []*admissionregistrationv1.ValidatingAdmissionPolicyBinding) (informers.GenericInformer, error) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, objs := range byBinding {
		for _, raw := range objs {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(raw); err != nil {
				return nil, fmt.Errorf("param: %w", err)
			}
			if u.GetAPIVersion() == "" {
				u.SetGroupVersionKind(gvk)
			}
			if err := idx.Add(u); err != nil {
				return nil, err
			}
		}
	}
	return paramInformer{lister: cache.NewGenericLister(idx, schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind})}, nil
}

// allowAll is the sandbox's authorizer (no RBAC enforced): every check an
// expression makes through `authorizer` is allowed.
type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}
