package apiserver

import (
	"fmt"
	"maps"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

const nameColumnDescription = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"

// table renders an object or a list as a meta.k8s.io/v1 Table: a Name
// column, then the resource's printer columns (or "Created At").
func (q *request) table(v object) (object, error) {
	switch q.out.includeObject {
	case "", "None", "Metadata", "Object":
	default:
		return nil, apierr.BadRequest(fmt.Sprintf("unrecognized includeObject value: %q", q.out.includeObject))
	}
	if !q.res.CRD && len(q.res.PrinterColumns) > 0 {
		return q.builtinTable(v)
	}
	cols := q.res.PrinterColumns
	if len(cols) == 0 {
		cols = []resource.PrinterColumn{{Name: "Created At", Type: "date", JSONPath: ".metadata.creationTimestamp",
			Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}}
	}
	defs := []any{map[string]any{"name": "Name", "type": "string", "format": "name", "description": nameColumnDescription, "priority": int64(0)}}
	for _, c := range cols {
		desc := c.Description
		if q.res.CRD && desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + c.JSONPath
		}
		defs = append(defs, map[string]any{"name": c.Name, "type": c.Type, "format": c.Format, "description": desc, "priority": c.Priority})
	}
	items, lm := tableItems(v)
	rows := []any{}
	now := q.s.now()
	for _, it := range items {
		cells := []any{metaStr(it, "name")}
		for _, c := range cols {
			val, ok := nested(it, jsonPathFields(c.JSONPath)...)
			if !ok {
				cells = append(cells, nil)
				continue
			}
			if c.Type == "date" {
				if s, ok := val.(string); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						cells = append(cells, builtin.HumanDuration(now.Sub(t)))
						continue
					}
				}
			}
			cells = append(cells, val)
		}
		rows = append(rows, q.tableRow(cells, it))
	}
	return object{"apiVersion": q.metaAPIVersion(), "kind": "Table", "metadata": lm, "columnDefinitions": defs, "rows": rows}, nil
}

// tableItems splits an object or a list into rows and the list metadata.
func tableItems(v object) ([]object, map[string]any) {
	var items []object
	lm := map[string]any{}
	if list, ok := v["items"].([]any); ok {
		for _, it := range list {
			if m, ok := it.(map[string]any); ok {
				items = append(items, m)
			}
		}
		if m, ok := v["metadata"].(map[string]any); ok {
			lm["resourceVersion"] = m["resourceVersion"]
			if c, _ := m["continue"].(string); c != "" {
				lm["continue"] = c
			}
			if r, ok := m["remainingItemCount"]; ok {
				lm["remainingItemCount"] = r
			}
		}
	} else {
		items = []object{v}
		lm["resourceVersion"] = metaStr(v, "resourceVersion")
	}
	return items, lm
}

func (q *request) tableRow(cells []any, it object) map[string]any {
	row := map[string]any{"cells": cells}
	switch q.out.includeObject {
	case "None":
		row["object"] = nil
	case "Object":
		// as kube converts each row's object to the request's version:
		// list items carry their apiVersion and kind there (kubectl's
		// --sort-by decodes them)
		o := maps.Clone(it)
		o["apiVersion"], o["kind"] = q.res.GroupVersion(), q.res.Kind
		row["object"] = o
	default:
		row["object"] = q.partialObject(it)
		if q.res.TableMetadata != nil {
			row["object"].(object)["metadata"] = q.res.TableMetadata(jsonx.CopyObject(meta(it)))
		}
	}
	return row
}

// builtinTable renders a built-in with its real printer columns.
func (q *request) builtinTable(v object) (object, error) {
	cols := q.res.PrinterColumns
	defs := make([]any, 0, len(cols))
	for _, c := range cols {
		defs = append(defs, map[string]any{"name": c.Name, "type": c.Type, "format": c.Format, "description": c.Description, "priority": c.Priority})
	}
	items, lm := tableItems(v)
	rows := []any{}
	now := q.s.now()
	for _, it := range items {
		cells := make([]any, 0, len(cols))
		for _, c := range cols {
			cells = append(cells, builtinCell(c, it, now))
		}
		rows = append(rows, q.tableRow(cells, it))
	}
	return object{"apiVersion": q.metaAPIVersion(), "kind": "Table", "metadata": lm, "columnDefinitions": defs, "rows": rows}, nil
}

// builtinCell computes one cell of a built-in's Table row: the column's
// own Cell, else its JSONPath; integers that are missing print as 0.
func builtinCell(c resource.PrinterColumn, obj object, now time.Time) any {
	if c.Cell != nil {
		return c.Cell(obj, now)
	}
	if c.JSONPath == "" {
		return "<none>"
	}
	v, ok := nested(obj, jsonPathFields(c.JSONPath)...)
	if !ok || v == nil {
		if c.Type == "integer" {
			return int64(0)
		}
		if c.Type == "boolean" {
			return false
		}
		return "<none>"
	}
	return v
}
