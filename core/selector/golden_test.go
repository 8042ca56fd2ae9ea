package selector

import (
	"testing"
)

// Golden cases recorded from k8s.io/apimachinery v0.37.2 labels.Parse:
// input, canonical String() on success, or the exact error text.
var labelGolden = []struct{ in, str, err string }{
	{"app=web", "app=web", ""},
	{"app==db", "app==db", ""},
	{"app!=web", "app!=web", ""},
	{"env in (prod,staging)", "env in (prod,staging)", ""},
	{"env notin (prod)", "env notin (prod)", ""},
	{"env", "env", ""},
	{"!env", "!env", ""},
	{"app=web,env!=prod", "app=web,env!=prod", ""},
	{"  b = 2 ,a in (z,y,,x)", "a in (,x,y,z),b=2", ""},
	{"x in ()", "x in ()", ""},
	{"x in (,)", "x in ()", ""},
	{"replicas>2", "replicas>2", ""},
	{"replicas<10", "replicas<10", ""},
	{"x=in", "x=in", ""},
	{"in in (notin)", "in in (notin)", ""},
	{"x=", "x=", ""},
	{"x==", "x==", ""},
	{"x!=", "x!=", ""},
	{"a b", "", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
	{"app=not ok!", "", "found 'ok', expected: ',' or 'end of string'"},
	{"app=a_", "", "unable to parse requirement: values[0][app]: Invalid value: \"a_\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
	{"x in (a,b", "", "unable to parse requirement: found '', expected: ',' or ')'"},
	{"x in (a b)", "", "unable to parse requirement: found 'b', expected: ',' or ')'"},
	{"x in a", "", "unable to parse requirement: found 'a' expected: '('"},
	{"x>", "", "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer"},
	{"x>abc", "", "unable to parse requirement: values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer"},
	{"x>a_", "", "unable to parse requirement: [values[0]: Invalid value: \"a_\": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: \"a_\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]"},
	{"x<1.5", "", "unable to parse requirement: values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' operators, the value must be an integer"},
	{"Bad_key!", "", "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"},
	{"bad key", "", "unable to parse requirement: found 'key', expected: in, notin, =, ==, !=, gt, lt"},
	{"a/b/c=1", "", "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
	{"example.com/", "", "unable to parse requirement: <nil>: Invalid value: \"example.com/\": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
	{"/a", "", "unable to parse requirement: <nil>: Invalid value: \"/a\": prefix part must be non-empty"},
	{"x,", "", "found '', expected: identifier after ','"},
	{",x", "", "found ',', expected: !, identifier, or 'end of string'"},
	{"x,,y", "", "found ',', expected: identifier after ','"},
	{"!", "", "unable to parse requirement: found '', expected: identifier"},
	{"!=x", "", "found '!=', expected: !, identifier, or 'end of string'"},
	{"x!", "", "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"},
	{"x in (a)(", "", "found '(', expected: ',' or 'end of string'"},
	{"(", "", "found '(', expected: !, identifier, or 'end of string'"},
	{")", "", "found ')', expected: !, identifier, or 'end of string'"},
	{"x<=1", "", "unable to parse requirement: found '=', expected: identifier"},
	{"x=>1", "", "unable to parse requirement: found '>', expected: identifier"},
	{"x=(", "", "unable to parse requirement: found '(', expected: identifier"},
	{"x in ((", "", "unable to parse requirement: found '(', expected: ',', ')' or identifier"},
	{"x in (a,=)", "", "unable to parse requirement: found '=', expected: ',', or identifier"},
	{"x in (a,b),", "", "found '', expected: identifier after ','"},
	{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "", "unable to parse requirement: <nil>: Invalid value: \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\": name part must be no more than 63 bytes"},
	{"x=vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", "", "unable to parse requirement: values[0][x]: Invalid value: \"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\": must be no more than 63 bytes"},
	{"x=a\x00b", "", "found 'b', expected: ',' or 'end of string'"},
	{"\x00x", "", ""},
}

func TestParseLabelsGolden(t *testing.T) {
	for _, c := range labelGolden {
		t.Run(c.in, func(t *testing.T) {
			sel, err := ParseLabels(c.in)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error = %v\nwant    %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := sel.String(); got != c.str {
				t.Fatalf("String() = %q, want %q", got, c.str)
			}
		})
	}
}

// Golden cases recorded from k8s.io/apimachinery v0.37.2 fields.ParseSelector.
var fieldGolden = []struct{ in, str, err string }{
	{"metadata.name=w1", "metadata.name=w1", ""},
	{"a==b", "a=b", ""},
	{"a!=b", "a!=b", ""},
	{"b=1,a=2", "a=2,b=1", ""},
	{"a=b\\,c\\=d\\\\e", "a=b\\,c\\=d\\\\e", ""},
	{"a=b,,c=d", "a=b,c=d", ""},
	{",", "", ""},
	{"=", "", ""},
	{"!=", "", ""},
	{"=x", "=x", ""},
	{"x=", "x=", ""},
	{"abc", "", "invalid selector: 'abc'; can't understand 'abc'"},
	{"a=b\\x", "", "invalid field selector: invalid escape sequence: \\x"},
	{"a=b\\", "", "invalid field selector: invalid escape sequence: \\"},
	{"a===b", "", "invalid field selector: unescaped character in value: 61"},
	{"a=b=c", "", "invalid field selector: unescaped character in value: 61"},
	{"a=b,c", "", "invalid selector: 'a=b,c'; can't understand 'c'"},
	{"a\\,b=c", "a\\,b=c", ""},
	{"a!!=b", "a!!=b", ""},
	{" a = b ", " a = b ", ""},
}

func TestParseFieldsGolden(t *testing.T) {
	for _, c := range fieldGolden {
		t.Run(c.in, func(t *testing.T) {
			sel, err := ParseFields(c.in)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error = %v\nwant    %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := sel.String(); got != c.str {
				t.Fatalf("String() = %q, want %q", got, c.str)
			}
		})
	}
}
