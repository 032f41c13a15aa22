package main

import (
	"math/rand"
	"strings"
)

// The generator writes random templates from text/template's grammar, biased towards what a
// tazuna.yaml does (conditionals on .Environment, printf, comparisons) but reaching every construct:
// literals of every kind, variables, pipelines, parentheses, fields, every builtin function with
// right and wrong argument counts and types, if/else if/with/else with/range/break/continue,
// define/template/block, comments and trim markers. A quarter of the cases are mutated afterwards
// (a byte deleted, duplicated or replaced) so that the error paths of the lexer and parser are
// compared too. The sequence depends only on the seed.

var environments = []string{"", "prod", "staging", "dev-1", "Prod", "a b", "<x&y>\"'=\\", "日本", "10", "true", "\t\n"}

var formats = []string{
	"%s", "%v", "%d", "%q", "%x", "%X", "%5s", "%-5s|", "%05d", "%+d", "%t", "%c", "%U", "%#v", "%T", "%e",
	"%f", "%.2f", "%g", "%8.3g", "%o", "%#o", "%O", "%b", "%#x", "% x", "%p", "%%", "%", "%!", "%[2]s-%[1]s",
	"%[3]d", "%*d", "%.*s", "%-8q|", "%+q", "%#q", "%s %s", "%d%d%d", "%.0f", "%6.2e", "%G", "%E", "%x%", "%.3s",
	"%z", "%#U", "%08.3f", "%+.1e", "%v|%v", "%-#5x", "%[0]d", "%[x]d", "%.[2]d", "%10.4v", "%+v", "%w",
}

type gen struct {
	r     *rand.Rand
	vars  []string
	depth int
	names []string // defined template names
	inRange int
}

func (g *gen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

// randomFormat builds a printf format from fmt's grammar: text, %, flags, [n], widths and
// precisions (numbers or *), and any verb.
func (g *gen) randomFormat() string {
	var b strings.Builder
	for n := 1 + g.r.Intn(3); n > 0; n-- {
		b.WriteString(g.pick([]string{"", "x", " ", "-", "日"}))
		b.WriteString("%")
		for i := g.r.Intn(3); i > 0; i-- {
			b.WriteString(g.pick([]string{"#", "0", "+", "-", " "}))
		}
		if g.r.Intn(6) == 0 {
			b.WriteString(g.pick([]string{"[1]", "[2]", "[3]", "[0]", "[9]", "[x]", "["}))
		}
		switch g.r.Intn(4) {
		case 0:
			b.WriteString(g.pick([]string{"1", "5", "12", "0", "*", "100"}))
		case 1:
			b.WriteString(g.pick([]string{".", ".0", ".1", ".3", ".*", ".10", ".[1]*", "5.2", "*.*"}))
		}
		b.WriteString(g.pick([]string{"v", "v", "d", "s", "q", "x", "X", "o", "O", "b", "c", "U", "e", "E", "f", "F",
			"g", "G", "t", "T", "p", "%", "z", "日", "w"}))
	}
	return b.String()
}

// randomNumber builds a numeric literal from the lexer's alphabet, valid or not.
func (g *gen) randomNumber() string {
	var b strings.Builder
	b.WriteString(g.pick([]string{"", "", "-", "+"}))
	b.WriteString(g.pick([]string{"", "", "0x", "0o", "0b", "0X", "0"}))
	for i := 1 + g.r.Intn(4); i > 0; i-- {
		b.WriteString(g.pick([]string{"0", "1", "7", "9", "_", "a", "f", "F"}))
	}
	if g.r.Intn(3) == 0 {
		b.WriteString("." + g.pick([]string{"", "5", "25", "0"}))
	}
	if g.r.Intn(3) == 0 {
		b.WriteString(g.pick([]string{"e", "E", "p", "P", "e-", "p+"}) + g.pick([]string{"1", "10", "0", "400", ""}))
	}
	if g.r.Intn(5) == 0 {
		b.WriteString("i")
	}
	if g.r.Intn(8) == 0 {
		b.WriteString(g.pick([]string{"+", "-"}) + g.pick([]string{"1i", "2.5i", "0x1p1i", "1"}))
	}
	return b.String()
}

func (g *gen) number() string {
	if g.r.Intn(4) == 0 {
		return g.randomNumber()
	}
	return g.pick([]string{"0", "1", "2", "3", "-1", "7", "42", "1.5", "-2.25", "1e3", "0x1F", "0o17", "0b101",
		"'a'", "'\\n'", "'\\u00e9'", "1_000", "0755", "2i", "1+2i", "9223372036854775807", "9223372036854775808",
		"-0", ".5", "1e400", "0x1p4", "09", "1__0", "3.0", "100000000", "1e-7", "0.000001"})
}

func (g *gen) str() string {
	return g.pick([]string{`"prod"`, `"staging"`, `""`, `"a-b"`, "`raw`", `"\t"`, `"%d"`, `"x\"y"`, `"\u00e9"`,
		`"prod "`, `"P"`, `"日本"`, `"<a>"`, `"\x41"`, "`%s-%s`", `"10"`})
}

func (g *gen) variable() string {
	if len(g.vars) == 0 || g.r.Intn(6) == 0 {
		if g.r.Intn(8) == 0 {
			return "$undefined"
		}
		return "$"
	}
	return g.pick(g.vars)
}

// operand is one argument: a literal, a field, a variable or a parenthesised pipeline.
func (g *gen) operand() string {
	if g.depth > 3 {
		return g.pick([]string{".Environment", "1", `"x"`, "."})
	}
	switch g.r.Intn(14) {
	case 0, 1, 2:
		return ".Environment"
	case 3:
		return g.number()
	case 4, 5:
		return g.str()
	case 6:
		return g.pick([]string{"true", "false", "nil"})
	case 7:
		return g.variable()
	case 8:
		if g.r.Intn(6) == 0 {
			return g.pick([]string{".Environment.Foo", ".Missing", ".environment", "$.Nope"})
		}
		return g.pick([]string{".", "$.Environment", "$"})
	case 9, 10, 11:
		g.depth++
		defer func() { g.depth-- }()
		p := "(" + g.pipeline() + ")"
		if g.r.Intn(8) == 0 {
			p += ".Field"
		}
		return p
	default:
		if len(g.vars) > 0 {
			return g.pick(g.vars) + g.pick([]string{"", ".Environment"})
		}
		return ".Environment"
	}
}

func (g *gen) args(n int) string {
	var b []string
	for i := 0; i < n; i++ {
		b = append(b, g.operand())
	}
	return strings.Join(b, " ")
}

// typed is an operand of kind k ("int" or "string") most of the time, any operand otherwise.
func (g *gen) typed(k string) string {
	if g.r.Intn(6) == 0 {
		return g.operand()
	}
	if k == "int" {
		return g.pick([]string{"0", "1", "2", "3", "-1", "'a'", "(len .Environment)", "(index .Environment 0)", "10", "0x10"})
	}
	return g.pick([]string{".Environment", `"prod"`, `"staging"`, `""`, "(print .Environment)", "$.Environment", "`raw`", `"日本"`})
}

func (g *gen) sameTyped(n int) string {
	k := g.pick([]string{"int", "string", "string"})
	var b []string
	for i := 0; i < n; i++ {
		b = append(b, g.typed(k))
	}
	return strings.Join(b, " ")
}

// command is one pipeline stage.
func (g *gen) command(first bool) string {
	argc := g.r.Intn(3)
	switch g.r.Intn(20) {
	case 0, 1:
		format := g.pick(formats)
		if g.r.Intn(2) == 0 {
			format = g.randomFormat()
		}
		return "printf " + strconvQuote(format) + " " + g.args(g.r.Intn(4))
	case 2:
		return g.pick([]string{"eq", "ne"}) + " " + g.sameTyped(1+g.r.Intn(3))
	case 3:
		return g.pick([]string{"lt", "le", "gt", "ge"}) + " " + g.sameTyped(2)
	case 4:
		return g.pick([]string{"and", "or"}) + " " + g.args(1+g.r.Intn(3))
	case 5:
		return "not " + g.args(1)
	case 6:
		return "len " + g.args(1)
	case 7:
		return "index " + g.typed("string") + " " + g.typed("int")
	case 8:
		s := "slice " + g.typed("string")
		for i := g.r.Intn(3); i > 0; i-- {
			s += " " + g.typed("int")
		}
		return s
	case 9:
		return g.pick([]string{"print", "println"}) + " " + g.args(argc)
	case 10:
		return g.pick([]string{"html", "js", "urlquery"}) + " " + g.args(argc)
	case 11:
		if g.r.Intn(4) == 0 {
			return "call " + g.args(1+g.r.Intn(2))
		}
		return "print " + g.args(argc)
	case 12:
		if !first {
			return g.pick([]string{"printf \"%s!\"", "print", "len", "html", "not", "eq \"prod\"", "printf \"%v-%v\" 1"})
		}
		return g.operand()
	case 13:
		if g.r.Intn(4) == 0 {
			return g.pick([]string{"nosuchfunc", "Environment"})
		}
		return g.operand()
	default:
		if first {
			return g.operand()
		}
		return g.pick([]string{"printf \"[%v]\"", "print \"x\"", "urlquery", "js", "len", "println", "slice \"abc\" 1"})
	}
}

func (g *gen) pipeline() string {
	n := 1
	if g.r.Intn(4) == 0 {
		n += 1 + g.r.Intn(2)
	}
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, g.command(i == 0))
	}
	return strings.Join(parts, " | ")
}

func (g *gen) newVar() string {
	v := g.pick([]string{"$x", "$y", "$env", "$i", "$e", "$v1"})
	g.vars = append(g.vars, v)
	return v
}

func (g *gen) open() string {
	if g.r.Intn(5) == 0 {
		return "{{- "
	}
	return "{{ "
}

func (g *gen) close() string {
	if g.r.Intn(5) == 0 {
		return " -}}"
	}
	return " }}"
}

func (g *gen) text() string {
	return g.pick([]string{"a", " ", "\n", "name: ", "  - ", "prod", "\n  ", "x: y\n", "}", "-", "\t", "é", "a: '{'\n"})
}

// oddities are actions at the edges of the grammar and of the executor.
var oddities = []string{
	"{{ $é := 1 }}{{ $é }}", "{{ $x€ := 1 }}", "{{ .Environment€ }}", "{{ 1€ }}", "{{ (1).x }}", "{{ (.).Environment }}",
	"{{ $.Environment.x }}", "{{ (\"a\").x }}", "{{ index . 1 }}", "{{ len . }}", "{{ eq . . }}", "{{ slice . 1 }}",
	"{{ .Environment 1 }}", "{{ \"x\" | .Environment }}", "{{ $ 1 }}", "{{ . 1 }}", "{{ (print 1) 2 }}", "{{ nil 1 }}",
	"{{ (len).x }}", "{{ print (len) }}", "{{ and nil | print }}", "{{ or . }}", "{{ index nil }}", "{{ slice nil }}",
	"{{ not nil }}", "{{ eq nil nil }}", "{{ eq nil 1 }}", "{{ ne nil nil }}", "{{ lt nil 1 }}", "{{ html nil }}",
	"{{ js nil 1 }}", "{{ urlquery nil }}", "{{ printf nil }}", "{{ printf .Environment }}", "{{ printf . }}",
	"{{ printf 1 }}", "{{ template \"missing\" }}", "{{ 1 | }}", "{{ | 1 }}", "{{ (1 | ) }}", "{{ () }}",
	"{{ $x, $y := 1 }}", "{{ range $a, $b, $c := 1 }}{{ end }}", "{{ range $a, 1 := 1 }}{{ end }}", "{{ else }}",
	"{{ end }}", "{{ define \"a\" }}{{ end }}", "{{ if }}{{ end }}", "{{ with }}{{ end }}", "{{ range }}{{ end }}",
	"{{ break }}", "{{ continue }}", "{{ 'ab' }}", "{{ '' }}", "{{ '\\z' }}", "{{ \"\\z\" }}", "{{ `a`.b }}",
	"{{ .Environment.Environment }}", "{{ $.Environment | len | len }}", "{{ print 1 2 | print 3 }}", "{{- -}}",
	"{{-}}", "{{ - }}", "{{ -- }}", "{{ +1 }}", "{{ +.5 }}", "{{ -.5e3 }}", "{{ 0x }}", "{{ 1.e3 }}", "{{ 1e }}",
	"{{ 0x1.8p1 }}", "{{ 0x.8p1 }}", "{{ 1__2 }}", "{{ 0_1 }}", "{{ 0b2 }}", "{{ 0o8 }}", "{{ 08.5 }}", "{{ 1i2 }}",
	"{{ range 2 }}{{ $ }}{{ end }}", "{{ with $x := 1 }}{{ $x = 2 }}{{ $x }}{{ end }}", "{{ $x := 1 }}{{ $x := 2 }}{{ $x }}",
	"{{ (slice \"abc\" 1 2 3) }}", "{{ index \"abc\" 3 }}", "{{ index \"abc\" -1 }}", "{{ slice \"abc\" 2 1 }}",
	"{{ len (index \"a\" 0) }}", "{{ printf \"%v\" (slice \"日本\" 1) }}", "{{ printf \"%q\" (slice \"日本\" 1) }}",
}

func (g *gen) action() string {
	if g.r.Intn(15) == 0 {
		return g.pick(oddities)
	}
	switch g.r.Intn(6) {
	case 0:
		return g.open() + g.newVar() + " := " + g.pipeline() + g.close()
	case 1:
		if len(g.vars) > 0 && g.r.Intn(2) == 0 {
			return g.open() + g.pick(g.vars) + " = " + g.pipeline() + g.close()
		}
		return g.open() + g.pipeline() + g.close()
	default:
		return g.open() + g.pipeline() + g.close()
	}
}

func (g *gen) block(budget int) string {
	var b strings.Builder
	for budget > 0 {
		budget--
		switch g.r.Intn(12) {
		case 0, 1, 2:
			b.WriteString(g.text())
		case 3, 4, 5:
			b.WriteString(g.action())
		case 6:
			b.WriteString(g.ifBlock(budget / 2))
		case 7:
			b.WriteString(g.withBlock(budget / 2))
		case 8:
			b.WriteString(g.rangeBlock(budget / 2))
		case 9:
			b.WriteString(g.pick([]string{"{{/* c */}}", "{{- /* c */ -}}", "{{/* multi\nline */}}", "{{/*x*/ -}}"}))
		case 10:
			if len(g.names) > 0 {
				b.WriteString(g.open() + "template " + strconvQuote(g.pick(g.names)) + " " + g.pick([]string{"", ".", ".Environment", "1", "$"}) + g.close())
			} else {
				b.WriteString(g.action())
			}
		case 11:
			if g.inRange > 0 {
				b.WriteString(g.pick([]string{"{{ break }}", "{{ continue }}", "{{- break -}}"}))
			} else {
				b.WriteString(g.text())
			}
		}
	}
	return b.String()
}

func (g *gen) scoped(f func() string) string {
	saved := len(g.vars)
	s := f()
	g.vars = g.vars[:saved]
	return s
}

func (g *gen) ifBlock(budget int) string {
	return g.scoped(func() string {
		s := g.open() + "if " + g.condition() + g.close() + g.block(budget)
		for g.r.Intn(3) == 0 {
			s += g.open() + "else if " + g.condition() + g.close() + g.block(budget/2)
		}
		if g.r.Intn(2) == 0 {
			s += g.open() + "else" + g.close() + g.block(budget/2)
		}
		return s + g.open() + "end" + g.close()
	})
}

func (g *gen) condition() string {
	switch g.r.Intn(5) {
	case 0, 1:
		return "eq .Environment " + g.pick([]string{`"prod"`, `"staging"`, `""`, `"dev-1"`, "1", "$"})
	case 2:
		return g.newVar() + " := " + g.pipeline()
	default:
		return g.pipeline()
	}
}

func (g *gen) withBlock(budget int) string {
	return g.scoped(func() string {
		s := g.open() + "with " + g.condition() + g.close() + g.block(budget)
		if g.r.Intn(3) == 0 {
			s += g.open() + "else with " + g.pipeline() + g.close() + g.block(budget/2)
		}
		if g.r.Intn(2) == 0 {
			s += g.open() + "else" + g.close() + g.block(budget/2)
		}
		return s + g.open() + "end" + g.close()
	})
}

func (g *gen) rangeBlock(budget int) string {
	return g.scoped(func() string {
		over := g.pick([]string{"3", "0", ".Environment", "(len .Environment)", "(index \"abc\" 0)", "2.5", "$",
			"-2", "true", "\"ab\"", "(slice .Environment 0)", "nil"})
		decl := g.pick([]string{"", "$i := ", "$i, $e := ", "$e := ", "", "$e := "})
		if g.r.Intn(20) == 0 {
			decl = "$i, $e = "
		}
		if strings.Contains(decl, "$i") {
			g.vars = append(g.vars, "$i")
		}
		if strings.Contains(decl, "$e") {
			g.vars = append(g.vars, "$e")
		}
		g.inRange++
		s := g.open() + "range " + decl + over + g.close() + g.block(budget)
		g.inRange--
		if g.r.Intn(3) == 0 {
			s += g.open() + "else" + g.close() + g.block(budget/2)
		}
		return s + g.open() + "end" + g.close()
	})
}

func (g *gen) template() string {
	var b strings.Builder
	g.vars = nil
	g.names = nil
	if g.r.Intn(6) == 0 {
		name := g.pick([]string{"a", "b", "x y", "a", "b"})
		if g.r.Intn(10) == 0 {
			name = "tazuna.yaml"
		}
		saved := g.vars
		g.vars = nil
		body := g.block(3)
		g.vars = saved
		kind := g.pick([]string{"define", "define", "block"})
		if kind == "block" {
			b.WriteString("{{ block " + strconvQuote(name) + " " + g.pick([]string{".", ".Environment", "2"}) + " }}" + body + "{{ end }}")
		} else {
			b.WriteString("{{ define " + strconvQuote(name) + " }}" + body + "{{ end }}")
		}
		g.names = append(g.names, name)
	}
	b.WriteString(g.block(1 + g.r.Intn(6)))
	return b.String()
}

func mutate(r *rand.Rand, s string) string {
	if len(s) == 0 {
		return s
	}
	i := r.Intn(len(s))
	switch r.Intn(3) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + s[i:i+1] + s[i:]
	default:
		const junk = "{}()|$.-\"'`=: ,/*"
		return s[:i] + string(junk[r.Intn(len(junk))]) + s[i+1:]
	}
}

func strconvQuote(s string) string {
	return "\"" + strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n").Replace(s) + "\""
}

func generate(n int, seed int64) [][2]string {
	g := &gen{r: rand.New(rand.NewSource(seed))}
	var out [][2]string
	for i := 0; i < n; i++ {
		t := g.template()
		if g.r.Intn(6) == 0 {
			t = mutate(g.r, t)
		}
		out = append(out, [2]string{g.pick(environments), t})
	}
	return out
}
