package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	apidiscoveryv2beta1 "k8s.io/api/apidiscovery/v2beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/endpoints/discovery/aggregated"
	"k8s.io/apiserver/pkg/endpoints/handlers/negotiation"
	"k8s.io/client-go/discovery"

	"github.com/kubesandbox/kubesandbox/core/openapi"
)

// TestAggregatedDiscoveryTypes decodes the documents into the real
// apidiscovery.k8s.io/v2 types with unknown fields disallowed, and checks
// that encoding them again gives the very same bytes: same fields, same
// order, nothing the real types would add or drop.
func TestAggregatedDiscoveryTypes(t *testing.T) {
	rs := allResources(t)
	for _, tc := range []struct {
		name   string
		legacy bool
		groups string
	}{
		{"apis", false, "apps events.k8s.io authentication.k8s.io authorization.k8s.io autoscaling batch certificates.k8s.io networking.k8s.io policy rbac.authorization.k8s.io storage.k8s.io admissionregistration.k8s.io apiextensions.k8s.io scheduling.k8s.io coordination.k8s.io discovery.k8s.io stable.example.com"}, // the real server's /apis order
		{"api", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := openapi.AggregatedDiscovery(rs, tc.legacy)
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			var list apidiscoveryv2.APIGroupDiscoveryList
			if err := dec.Decode(&list); err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(list)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, b) {
				t.Fatalf("re-encoded:\n%s\nours:\n%s", again, b)
			}
			if list.Kind != "APIGroupDiscoveryList" || list.APIVersion != "apidiscovery.k8s.io/v2" {
				t.Fatalf("type meta %+v", list.TypeMeta)
			}
			var names []string
			for _, g := range list.Items {
				names = append(names, g.Name)
				for _, v := range g.Versions {
					if v.Freshness != apidiscoveryv2.DiscoveryFreshnessCurrent || len(v.Resources) == 0 {
						t.Errorf("%s/%s: freshness %q, %d resources", g.Name, v.Version, v.Freshness, len(v.Resources))
					}
				}
			}
			if strings.Join(names, " ") != tc.groups {
				t.Fatalf("groups %q, want %q", strings.Join(names, " "), tc.groups)
			}
		})
	}
}

// TestAggregatedDiscoveryClient lists groups and resources through
// client-go's discovery client, which asks for aggregated discovery and
// checks the response's Content-Type (the fake server's unaggregated
// answers are empty, so any group seen came the aggregated way). The
// expected APIResources are client-go's conversion of the aggregated
// form (it fills the singular name of subresources and copies
// responseKind as it is: a built-in's own kind names no group or version,
// as kube-apiserver v1.37.2 answers, so client-go sees "" there too).
func TestAggregatedDiscoveryClient(t *testing.T) {
	dc, _ := clients(t)
	groups, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range groups {
		names = append(names, g.Name+"="+g.PreferredVersion.GroupVersion)
	}
	if want := " apps=apps/v1 events.k8s.io=events.k8s.io/v1 authentication.k8s.io=authentication.k8s.io/v1 authorization.k8s.io=authorization.k8s.io/v1" +
		" autoscaling=autoscaling/v2 batch=batch/v1 certificates.k8s.io=certificates.k8s.io/v1 networking.k8s.io=networking.k8s.io/v1 policy=policy/v1 rbac.authorization.k8s.io=rbac.authorization.k8s.io/v1" +
		" storage.k8s.io=storage.k8s.io/v1 admissionregistration.k8s.io=admissionregistration.k8s.io/v1 apiextensions.k8s.io=apiextensions.k8s.io/v1 scheduling.k8s.io=scheduling.k8s.io/v1" +
		" coordination.k8s.io=coordination.k8s.io/v1 discovery.k8s.io=discovery.k8s.io/v1 stable.example.com=stable.example.com/v1"; " "+strings.Join(names, " ") != " ="+"v1"+want {
		t.Fatalf("groups %q", strings.Join(names, " "))
	}
	got := map[string]string{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			got[l.GroupVersion+" "+r.Name] = fmt.Sprintf("ns=%v kind=%s/%s/%s singular=%s verbs=%v short=%v cat=%v",
				r.Namespaced, r.Group, r.Version, r.Kind, r.SingularName, r.Verbs, r.ShortNames, r.Categories)
		}
	}
	for key, want := range map[string]string{
		"stable.example.com/v1 widgets":        "ns=true kind=stable.example.com/v1/Widget singular=widget verbs=[delete deletecollection get list patch create update watch] short=[wdg] cat=[all]",
		"stable.example.com/v1 widgets/status": "ns=true kind=stable.example.com/v1/Widget singular=widget verbs=[get patch update] short=[] cat=[]",
		"stable.example.com/v1 widgets/scale":  "ns=true kind=autoscaling/v1/Scale singular=widget verbs=[get patch update] short=[] cat=[]",
		"apps/v1 deployments":                  "ns=true kind=//Deployment singular=deployment verbs=[create delete deletecollection get list patch update watch] short=[deploy] cat=[all]",
		"apps/v1 deployments/scale":            "ns=true kind=autoscaling/v1/Scale singular=deployment verbs=[get patch update] short=[] cat=[]",
		"v1 namespaces":                        "ns=false kind=//Namespace singular=namespace verbs=[create delete get list patch update watch] short=[ns] cat=[]",
		"v1 pods/status":                       "ns=true kind=//Pod singular=pod verbs=[get patch update] short=[] cat=[]",
	} {
		if got[key] != want {
			t.Errorf("%s:\n got %s\nwant %s", key, got[key], want)
		}
	}
}

// TestAcceptRule compares AggregatedDiscoveryMedia with kube-apiserver's
// own negotiation (WrapAggregatedDiscoveryToHandler) over fixed and
// generated Accept headers. Protobuf and CBOR clauses are left out: the
// real server answers those in protobuf/CBOR, which this server does not
// encode (it skips them).
func TestAcceptRule(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := apidiscoveryv2.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := apidiscoveryv2beta1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	codecs := serializer.NewCodecFactory(scheme)
	real := func(accept string) (string, bool) {
		mt, _ := negotiation.NegotiateMediaTypeOptions(accept, codecs.SupportedMediaTypes(), aggregated.DiscoveryEndpointRestrictions)
		if !aggregated.IsAggregatedDiscoveryGVK(mt.Convert) {
			return "", false
		}
		return mt.Accepted.MediaType, true
	}
	agg := func(t, v string) string { return t + ";g=apidiscovery.k8s.io;v=" + v + ";as=APIGroupDiscoveryList" }
	fixed := []string{
		"", "application/json", "*/*", "application/yaml",
		agg("application/json", "v2") + ",application/json",
		agg("application/json", "v2") + ";profile=nopeer," + agg("application/json", "v2") + ",application/json",
		agg("application/json", "v2beta1") + ",application/json",
		"application/json," + agg("application/json", "v2"),
		agg("application/yaml", "v2"), agg("*/*", "v2"), agg("application/*", "v2"), agg("text/*", "v2"),
		agg("application/json", "v2") + ";q=0.5," + agg("application/yaml", "v2"),
		agg("application/json", "v2") + ";sv=v1", agg("application/json", "v2") + ";stream=watch",
		"application/json;as=Table;v=v1;g=meta.k8s.io," + agg("application/json", "v2"),
		"application/json;g=apidiscovery.k8s.io;v=v2", " " + agg("application/json", "v2") + " ",
	}
	for _, h := range fixed {
		gm, gok := openapi.AggregatedDiscoveryMedia(h)
		wm, wok := real(h)
		if gm != wm || gok != wok {
			t.Errorf("Accept %q: got (%q, %v), kube-apiserver (%q, %v)", h, gm, gok, wm, wok)
		}
	}
	types := []string{"application/json", "application/yaml", "*/*", "application/*", "text/plain", "application/xml"}
	params := []string{";g=apidiscovery.k8s.io", ";v=v2", ";v=v2beta1", ";as=APIGroupDiscoveryList", ";q=0.9", ";q=0", ";profile=nopeer", ";sv=x", ";as=Table", ";stream=watch", ";foo=bar"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var clauses []string
		for n := 1 + rng.Intn(4); n > 0; n-- {
			c := types[rng.Intn(len(types))]
			if rng.Intn(3) > 0 {
				c = agg(c, []string{"v2", "v2", "v2beta1"}[rng.Intn(3)])
			}
			ps := rng.Perm(len(params))[:rng.Intn(3)]
			sort.Ints(ps)
			for _, p := range ps {
				c += params[p]
			}
			clauses = append(clauses, c)
		}
		h := strings.Join(clauses, ",")
		gm, gok := openapi.AggregatedDiscoveryMedia(h)
		wm, wok := real(h)
		if gm != wm || gok != wok {
			t.Fatalf("Accept %q: got (%q, %v), kube-apiserver (%q, %v)", h, gm, gok, wm, wok)
		}
	}
}

var _ = discovery.AcceptV2
