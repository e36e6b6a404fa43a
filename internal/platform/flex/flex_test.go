package flex

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestLenientTypes(t *testing.T) {
	var v struct {
		S  String `json:"s"`
		N  String `json:"n"`
		L  List   `json:"l"`
		LS List   `json:"ls"`
		F  Float  `json:"f"`
		FS Float  `json:"fs"`
		F0 Float  `json:"f0"`
		I  Int    `json:"i"`
	}
	in := `{"s":" 10000001 ","n":10000002,"l":[1,"2",""],"ls":"3, 4,,","f":"41.5","fs":29.25,"f0":null,"i":"7"}`
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.S != "10000001" || v.N != "10000002" {
		t.Fatalf("strings: %q %q", v.S, v.N)
	}
	if !reflect.DeepEqual(v.L, List{"1", "2", ""}) || !reflect.DeepEqual(v.LS, List{"3", "4"}) {
		t.Fatalf("lists: %q %q", v.L, v.LS)
	}
	if v.F != (Float{41.5, true}) || v.FS != (Float{29.25, true}) || v.F0.Set || v.F0.Ptr() != nil {
		t.Fatalf("floats: %+v %+v %+v", v.F, v.FS, v.F0)
	}
	if v.I != (Int{7, true}) {
		t.Fatalf("int: %+v", v.I)
	}
}

func TestLenientTypesRefuse(t *testing.T) {
	// A refusal names the field (the decoder fills it in), so the coded "400" says which one was wrong.
	for in, field := range map[string]string{`{"s":true}`: "s", `{"s":{}}`: "s", `{"l":[{}]}`: "l", `{"l":false}`: "l",
		`{"f":"north"}`: "f", `{"i":"1.5"}`: "i", `{"in":{"s":[1]}}`: "in.s"} {
		var v struct {
			S  String `json:"s"`
			L  List   `json:"l"`
			F  Float  `json:"f"`
			I  Int    `json:"i"`
			In struct {
				S String `json:"s"`
			} `json:"in"`
		}
		err := json.Unmarshal([]byte(in), &v)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field != field {
			t.Errorf("%s: %v, want a type error of field %q", in, err, field)
		}
	}
}
