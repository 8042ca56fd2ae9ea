package autoscaling

import (
	"encoding/json"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The Go shapes behind autoscaling/v1's round-trip annotations: the
// annotations hold json.Marshal of k8s.io/api/autoscaling/v1 types (and of
// the internal HorizontalPodAutoscalerBehavior, whose fields have no json
// tags), so their field order and omitempty rules are those of these
// structs, and the v2 shapes they convert from and to.

// qty is a resource.Quantity that Go always writes ("0" when unset).
type qty string

func (q qty) MarshalJSON() ([]byte, error) {
	if q == "" {
		q = "0"
	}
	return json.Marshal(string(q))
}

type ref struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type selector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []struct {
		Key      string   `json:"key"`
		Operator string   `json:"operator"`
		Values   []string `json:"values,omitempty"`
	} `json:"matchExpressions,omitempty"`
}

// autoscaling/v1 MetricSpec and MetricStatus (the v2beta1 shapes).
type v1Metric struct {
	Type   string `json:"type"`
	Object *struct {
		Target       ref       `json:"target"`
		MetricName   string    `json:"metricName"`
		TargetValue  qty       `json:"targetValue"`
		Selector     *selector `json:"selector,omitempty"`
		AverageValue *string   `json:"averageValue,omitempty"`
	} `json:"object,omitempty"`
	Pods *struct {
		MetricName         string    `json:"metricName"`
		TargetAverageValue qty       `json:"targetAverageValue"`
		Selector           *selector `json:"selector,omitempty"`
	} `json:"pods,omitempty"`
	Resource          *v1Resource `json:"resource,omitempty"`
	ContainerResource *v1Resource `json:"containerResource,omitempty"`
	External          *struct {
		MetricName         string    `json:"metricName"`
		MetricSelector     *selector `json:"metricSelector,omitempty"`
		TargetValue        *string   `json:"targetValue,omitempty"`
		TargetAverageValue *string   `json:"targetAverageValue,omitempty"`
	} `json:"external,omitempty"`
}

type v1Resource struct {
	Name                     string  `json:"name"`
	TargetAverageUtilization *int64  `json:"targetAverageUtilization,omitempty"`
	TargetAverageValue       *string `json:"targetAverageValue,omitempty"`
	Container                *string `json:"container,omitempty"` // ContainerResource only (never omitted there)
}

type v1MetricStatus struct {
	Type   string `json:"type"`
	Object *struct {
		Target       ref       `json:"target"`
		MetricName   string    `json:"metricName"`
		CurrentValue qty       `json:"currentValue"`
		Selector     *selector `json:"selector,omitempty"`
		AverageValue *string   `json:"averageValue,omitempty"`
	} `json:"object,omitempty"`
	Pods *struct {
		MetricName          string    `json:"metricName"`
		CurrentAverageValue qty       `json:"currentAverageValue"`
		Selector            *selector `json:"selector,omitempty"`
	} `json:"pods,omitempty"`
	Resource          *v1ResourceStatus `json:"resource,omitempty"`
	ContainerResource *v1ResourceStatus `json:"containerResource,omitempty"`
	External          *struct {
		MetricName          string    `json:"metricName"`
		MetricSelector      *selector `json:"metricSelector,omitempty"`
		CurrentValue        qty       `json:"currentValue"`
		CurrentAverageValue *string   `json:"currentAverageValue,omitempty"`
	} `json:"external,omitempty"`
}

type v1ResourceStatus struct {
	Name                      string  `json:"name"`
	CurrentAverageUtilization *int64  `json:"currentAverageUtilization,omitempty"`
	CurrentAverageValue       qty     `json:"currentAverageValue"`
	Container                 *string `json:"container,omitempty"`
}

type v1Condition struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	LastTransitionTime *string `json:"lastTransitionTime"` // metav1.Time: null when unset
	Reason             string  `json:"reason,omitempty"`
	Message            string  `json:"message,omitempty"`
	ObservedGeneration *int64  `json:"observedGeneration,omitempty"`
}

// internalBehavior is autoscaling.HorizontalPodAutoscalerBehavior as
// json.Marshal writes it: Go field names, nil pointers as null.
type internalBehavior struct {
	ScaleUp, ScaleDown *struct {
		StabilizationWindowSeconds *int64
		SelectPolicy               *string
		Policies                   []struct {
			Type          string
			Value         int64
			PeriodSeconds int64
		}
		Tolerance *string
	}
}

// v2 shapes (autoscaling/v2 MetricSpec and MetricStatus).
type v2Target struct {
	Type               string  `json:"type,omitempty"` // always set in a spec, never in a status
	Value              *string `json:"value,omitempty"`
	AverageValue       *string `json:"averageValue,omitempty"`
	AverageUtilization *int64  `json:"averageUtilization,omitempty"`
}

type v2Ident struct {
	Name     string    `json:"name"`
	Selector *selector `json:"selector,omitempty"`
}

type v2Source struct {
	DescribedObject *ref      `json:"describedObject,omitempty"` // Object
	Metric          *v2Ident  `json:"metric,omitempty"`          // Object, Pods, External
	Name            string    `json:"name,omitempty"`            // Resource, ContainerResource
	Container       *string   `json:"container,omitempty"`       // ContainerResource
	Target          *v2Target `json:"target,omitempty"`          // specs
	Current         *v2Target `json:"current,omitempty"`         // statuses (no type)
}

type v2Metric struct {
	Type              string    `json:"type"`
	Object            *v2Source `json:"object,omitempty"`
	Pods              *v2Source `json:"pods,omitempty"`
	Resource          *v2Source `json:"resource,omitempty"`
	ContainerResource *v2Source `json:"containerResource,omitempty"`
	External          *v2Source `json:"external,omitempty"`
}

// recode converts between decoded JSON and a Go shape (either way) through
// its JSON; false when it does not fit.
func recode(in, out any) bool {
	b, err := jsonx.Marshal(in)
	return err == nil && json.Unmarshal(b, out) == nil
}

// toJSONValue is a Go shape as decoded JSON (int64 numbers).
func toJSONValue(in any) any {
	b, err := json.Marshal(in)
	if err != nil {
		return nil
	}
	v, _ := jsonx.Decode(b)
	return v
}

// metricToV1 is Convert_autoscaling_MetricSpec_To_v1_MetricSpec.
func metricToV1(m v2Metric) v1Metric {
	out := v1Metric{Type: m.Type}
	t := func(s *v2Source) v2Target {
		if s.Target == nil {
			return v2Target{}
		}
		return *s.Target
	}
	id := func(s *v2Source) v2Ident {
		if s.Metric == nil {
			return v2Ident{}
		}
		return *s.Metric
	}
	if s := m.Object; s != nil {
		out.Object = &struct {
			Target       ref       `json:"target"`
			MetricName   string    `json:"metricName"`
			TargetValue  qty       `json:"targetValue"`
			Selector     *selector `json:"selector,omitempty"`
			AverageValue *string   `json:"averageValue,omitempty"`
		}{MetricName: id(s).Name, Selector: id(s).Selector, AverageValue: t(s).AverageValue}
		if s.DescribedObject != nil {
			out.Object.Target = *s.DescribedObject
		}
		if v := t(s).Value; v != nil {
			out.Object.TargetValue = qty(*v)
		}
	}
	if s := m.Pods; s != nil {
		out.Pods = &struct {
			MetricName         string    `json:"metricName"`
			TargetAverageValue qty       `json:"targetAverageValue"`
			Selector           *selector `json:"selector,omitempty"`
		}{MetricName: id(s).Name, Selector: id(s).Selector}
		if v := t(s).AverageValue; v != nil {
			out.Pods.TargetAverageValue = qty(*v)
		}
	}
	if s := m.Resource; s != nil {
		out.Resource = &v1Resource{Name: s.Name, TargetAverageUtilization: t(s).AverageUtilization, TargetAverageValue: t(s).AverageValue}
	}
	if s := m.ContainerResource; s != nil {
		c := ""
		if s.Container != nil {
			c = *s.Container
		}
		out.ContainerResource = &v1Resource{Name: s.Name, TargetAverageUtilization: t(s).AverageUtilization, TargetAverageValue: t(s).AverageValue, Container: &c}
	}
	if s := m.External; s != nil {
		out.External = &struct {
			MetricName         string    `json:"metricName"`
			MetricSelector     *selector `json:"metricSelector,omitempty"`
			TargetValue        *string   `json:"targetValue,omitempty"`
			TargetAverageValue *string   `json:"targetAverageValue,omitempty"`
		}{MetricName: id(s).Name, MetricSelector: id(s).Selector, TargetValue: t(s).Value, TargetAverageValue: t(s).AverageValue}
	}
	return out
}

// metricToV2 is Convert_v1_MetricSpec_To_autoscaling_MetricSpec.
func metricToV2(m v1Metric) v2Metric {
	out := v2Metric{Type: m.Type}
	if s := m.Object; s != nil {
		target := &v2Target{Type: "Value", AverageValue: s.AverageValue}
		v := string(s.TargetValue)
		if v == "" {
			v = "0"
		}
		if s.AverageValue == nil {
			target.Value = &v
		} else if v != "0" { // only a non-zero value is kept beside averageValue
			target.Type, target.Value = "AverageValue", &v
		} else {
			target.Type = "AverageValue"
		}
		r := s.Target
		out.Object = &v2Source{DescribedObject: &r, Metric: &v2Ident{Name: s.MetricName, Selector: s.Selector}, Target: target}
	}
	if s := m.Pods; s != nil {
		v := string(s.TargetAverageValue)
		if v == "" {
			v = "0"
		}
		out.Pods = &v2Source{Metric: &v2Ident{Name: s.MetricName, Selector: s.Selector}, Target: &v2Target{Type: "AverageValue", AverageValue: &v}}
	}
	res := func(s *v1Resource) *v2Source {
		typ := "AverageValue"
		if s.TargetAverageUtilization != nil {
			typ = "Utilization"
		}
		return &v2Source{Name: s.Name, Container: s.Container, Target: &v2Target{Type: typ, AverageValue: s.TargetAverageValue, AverageUtilization: s.TargetAverageUtilization}}
	}
	if s := m.Resource; s != nil {
		out.Resource = res(s)
		out.Resource.Container = nil
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = res(s)
	}
	if s := m.External; s != nil {
		typ := "Value"
		if s.TargetValue == nil {
			typ = "AverageValue"
		}
		out.External = &v2Source{Metric: &v2Ident{Name: s.MetricName, Selector: s.MetricSelector}, Target: &v2Target{Type: typ, Value: s.TargetValue, AverageValue: s.TargetAverageValue}}
	}
	return out
}

// statusToV1 is Convert_autoscaling_MetricStatus_To_v1_MetricStatus.
func statusToV1(m v2Metric) v1MetricStatus {
	out := v1MetricStatus{Type: m.Type}
	cur := func(s *v2Source) v2Target {
		if s.Current == nil {
			return v2Target{}
		}
		return *s.Current
	}
	id := func(s *v2Source) v2Ident {
		if s.Metric == nil {
			return v2Ident{}
		}
		return *s.Metric
	}
	val := func(p *string) qty {
		if p == nil {
			return ""
		}
		return qty(*p)
	}
	if s := m.Object; s != nil {
		out.Object = &struct {
			Target       ref       `json:"target"`
			MetricName   string    `json:"metricName"`
			CurrentValue qty       `json:"currentValue"`
			Selector     *selector `json:"selector,omitempty"`
			AverageValue *string   `json:"averageValue,omitempty"`
		}{MetricName: id(s).Name, Selector: id(s).Selector, CurrentValue: val(cur(s).Value), AverageValue: cur(s).AverageValue}
		if s.DescribedObject != nil {
			out.Object.Target = *s.DescribedObject
		}
	}
	if s := m.Pods; s != nil {
		out.Pods = &struct {
			MetricName          string    `json:"metricName"`
			CurrentAverageValue qty       `json:"currentAverageValue"`
			Selector            *selector `json:"selector,omitempty"`
		}{MetricName: id(s).Name, CurrentAverageValue: val(cur(s).AverageValue), Selector: id(s).Selector}
	}
	if s := m.Resource; s != nil {
		out.Resource = &v1ResourceStatus{Name: s.Name, CurrentAverageUtilization: cur(s).AverageUtilization, CurrentAverageValue: val(cur(s).AverageValue)}
	}
	if s := m.ContainerResource; s != nil {
		c := ""
		if s.Container != nil {
			c = *s.Container
		}
		out.ContainerResource = &v1ResourceStatus{Name: s.Name, CurrentAverageUtilization: cur(s).AverageUtilization, CurrentAverageValue: val(cur(s).AverageValue), Container: &c}
	}
	if s := m.External; s != nil {
		out.External = &struct {
			MetricName          string    `json:"metricName"`
			MetricSelector      *selector `json:"metricSelector,omitempty"`
			CurrentValue        qty       `json:"currentValue"`
			CurrentAverageValue *string   `json:"currentAverageValue,omitempty"`
		}{MetricName: id(s).Name, MetricSelector: id(s).Selector, CurrentValue: val(cur(s).Value), CurrentAverageValue: cur(s).AverageValue}
	}
	return out
}

// statusToV2 is Convert_v1_MetricStatus_To_autoscaling_MetricStatus.
func statusToV2(m v1MetricStatus) v2Metric {
	out := v2Metric{Type: m.Type}
	q := func(v qty) *string {
		s := string(v)
		if s == "" {
			s = "0"
		}
		return &s
	}
	if s := m.Object; s != nil {
		r := s.Target
		out.Object = &v2Source{DescribedObject: &r, Metric: &v2Ident{Name: s.MetricName, Selector: s.Selector}, Current: &v2Target{Value: q(s.CurrentValue), AverageValue: s.AverageValue}}
	}
	if s := m.Pods; s != nil {
		out.Pods = &v2Source{Metric: &v2Ident{Name: s.MetricName, Selector: s.Selector}, Current: &v2Target{AverageValue: q(s.CurrentAverageValue)}}
	}
	if s := m.Resource; s != nil {
		out.Resource = &v2Source{Name: s.Name, Current: &v2Target{AverageValue: q(s.CurrentAverageValue), AverageUtilization: s.CurrentAverageUtilization}}
	}
	if s := m.ContainerResource; s != nil {
		out.ContainerResource = &v2Source{Name: s.Name, Container: s.Container, Current: &v2Target{AverageValue: q(s.CurrentAverageValue), AverageUtilization: s.CurrentAverageUtilization}}
	}
	if s := m.External; s != nil {
		out.External = &v2Source{Metric: &v2Ident{Name: s.MetricName, Selector: s.MetricSelector}, Current: &v2Target{Value: q(s.CurrentValue), AverageValue: s.CurrentAverageValue}}
	}
	return out
}
