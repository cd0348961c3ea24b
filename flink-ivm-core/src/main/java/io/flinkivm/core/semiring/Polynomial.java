package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An immutable provenance polynomial of N[X]: natural coefficients over variables that name facts.
 *
 * <p>Variables are identifiers ({@code [A-Za-z_][A-Za-z0-9_]*}, e.g. {@code r1}, {@code s_2}). The
 * form is canonical, so equal polynomials are equal objects: a monomial is a map from variables to
 * positive exponents, sorted by variable name; terms are sorted by descending total degree, then
 * lexicographically (at the first variable, in name order, where two monomials differ, the higher
 * exponent comes first); no coefficient is zero. Coefficients are 64-bit and exponents 32-bit;
 * overflow throws {@link PayloadOverflowException}.
 *
 * <p>Text form: terms joined by {@code " + "}, a term is {@code coefficient*x^e*y} with the
 * coefficient left out when it is 1 and the exponent when it is 1, e.g. {@code 2*r1*s2^2 + t3};
 * {@code 0} is the zero polynomial and {@code 1} the one.
 */
@PublicEvolving
public final class Polynomial implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The zero polynomial (no terms). */
    public static final Polynomial ZERO = new Polynomial(new Monomial[0], new long[0]);

    /** The constant polynomial 1. */
    public static final Polynomial ONE = new Polynomial(new Monomial[] {Monomial.UNIT}, new long[] {1L});

    private final Monomial[] monomials;
    private final long[] coefficients;
    private final int hash;

    private Polynomial(Monomial[] monomials, long[] coefficients) {
        this.monomials = monomials;
        this.coefficients = coefficients;
        this.hash = 31 * Arrays.hashCode(monomials) + Arrays.hashCode(coefficients);
    }

    /** The polynomial consisting of one variable, e.g. the annotation of one input fact. */
    public static Polynomial variable(String name) {
        if (!isIdentifier(name)) {
            throw new IllegalArgumentException(
                    "not a polynomial variable: '" + name + "'; expected an identifier such as r1 or s_2");
        }
        return new Polynomial(new Monomial[] {new Monomial(new String[] {name}, new int[] {1})}, new long[] {1L});
    }

    /** The constant polynomial {@code c}, a natural number. */
    public static Polynomial constant(long c) {
        if (c < 0) {
            throw new IllegalArgumentException("not a natural coefficient: " + c);
        }
        if (c == 0) {
            return ZERO;
        }
        if (c == 1) {
            return ONE;
        }
        return new Polynomial(new Monomial[] {Monomial.UNIT}, new long[] {c});
    }

    /**
     * Parses the text form; whitespace between tokens is free, repeated variables and numbers in a
     * term multiply ({@code x*2*x} is {@code 2*x^2}), and like terms add up.
     *
     * @throws PayloadFormatException naming the column of the first error
     */
    public static Polynomial parse(String text) {
        if (text == null) {
            throw new PayloadFormatException("not a provenance polynomial: text is null");
        }
        return new Parser(text).parse();
    }

    /** this + other. */
    public Polynomial plus(Polynomial other) {
        if (other.coefficients.length == 0) {
            return this;
        }
        if (coefficients.length == 0) {
            return other;
        }
        int n = monomials.length;
        int m = other.monomials.length;
        Monomial[] ms = new Monomial[n + m];
        long[] cs = new long[n + m];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < n && j < m) {
            int c = monomials[i].compareTo(other.monomials[j]);
            if (c < 0) {
                ms[k] = monomials[i];
                cs[k++] = coefficients[i++];
            } else if (c > 0) {
                ms[k] = other.monomials[j];
                cs[k++] = other.coefficients[j++];
            } else {
                ms[k] = monomials[i];
                cs[k++] = addCoefficients(coefficients[i++], other.coefficients[j++]);
            }
        }
        while (i < n) {
            ms[k] = monomials[i];
            cs[k++] = coefficients[i++];
        }
        while (j < m) {
            ms[k] = other.monomials[j];
            cs[k++] = other.coefficients[j++];
        }
        return k == n + m ? new Polynomial(ms, cs) : new Polynomial(Arrays.copyOf(ms, k), Arrays.copyOf(cs, k));
    }

    /** this · other, multiplied out. */
    public Polynomial times(Polynomial other) {
        int n = monomials.length;
        int m = other.monomials.length;
        if (n == 0 || m == 0) {
            return ZERO;
        }
        if (this.equals(ONE)) {
            return other;
        }
        if (other.equals(ONE)) {
            return this;
        }
        if (n == 1 && m == 1) {
            return new Polynomial(
                    new Monomial[] {monomials[0].times(other.monomials[0])},
                    new long[] {multiplyCoefficients(coefficients[0], other.coefficients[0])});
        }
        Term[] terms = new Term[n * m];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                terms[k++] = new Term(
                        monomials[i].times(other.monomials[j]),
                        multiplyCoefficients(coefficients[i], other.coefficients[j]));
            }
        }
        return canonical(terms, k);
    }

    /** Whether this is the zero polynomial. */
    public boolean isZero() {
        return coefficients.length == 0;
    }

    /** The number of terms (0 for the zero polynomial). */
    public int termCount() {
        return coefficients.length;
    }

    /** The coefficient of the {@code term}-th term in canonical order. */
    public long coefficient(int term) {
        return coefficients[term];
    }

    /** The monomial of the {@code term}-th term in canonical order, as variable → exponent. */
    public SortedMap<String, Integer> monomial(int term) {
        Monomial mono = monomials[term];
        TreeMap<String, Integer> map = new TreeMap<>();
        for (int i = 0; i < mono.vars.length; i++) {
            map.put(mono.vars[i], mono.exps[i]);
        }
        return Collections.unmodifiableSortedMap(map);
    }

    /** The variables that occur in this polynomial, sorted by name. */
    public SortedSet<String> variables() {
        TreeSet<String> vars = new TreeSet<>();
        for (Monomial mono : monomials) {
            Collections.addAll(vars, mono.vars);
        }
        return Collections.unmodifiableSortedSet(vars);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Polynomial)) {
            return false;
        }
        Polynomial p = (Polynomial) o;
        return hash == p.hash && Arrays.equals(coefficients, p.coefficients) && Arrays.equals(monomials, p.monomials);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The canonical text form, e.g. {@code 2*r1*s2^2 + t3}. */
    @Override
    public String toString() {
        if (coefficients.length == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < coefficients.length; i++) {
            if (i > 0) {
                sb.append(" + ");
            }
            Monomial mono = monomials[i];
            if (mono.vars.length == 0) {
                sb.append(coefficients[i]);
                continue;
            }
            if (coefficients[i] != 1) {
                sb.append(coefficients[i]).append('*');
            }
            for (int v = 0; v < mono.vars.length; v++) {
                if (v > 0) {
                    sb.append('*');
                }
                sb.append(mono.vars[v]);
                if (mono.exps[v] != 1) {
                    sb.append('^').append(mono.exps[v]);
                }
            }
        }
        return sb.toString();
    }

    /** Sorts the first {@code k} terms, adds like terms and drops zero coefficients. */
    private static Polynomial canonical(Term[] terms, int k) {
        Arrays.sort(terms, 0, k, (a, b) -> a.monomial.compareTo(b.monomial));
        Monomial[] ms = new Monomial[k];
        long[] cs = new long[k];
        int out = 0;
        for (int i = 0; i < k; i++) {
            Term t = terms[i];
            if (t.coefficient == 0) {
                continue;
            }
            if (out > 0 && ms[out - 1].equals(t.monomial)) {
                cs[out - 1] = addCoefficients(cs[out - 1], t.coefficient);
            } else {
                ms[out] = t.monomial;
                cs[out++] = t.coefficient;
            }
        }
        if (out == 0) {
            return ZERO;
        }
        return out == k ? new Polynomial(ms, cs) : new Polynomial(Arrays.copyOf(ms, out), Arrays.copyOf(cs, out));
    }

    private static long addCoefficients(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException(
                    "provenance coefficient overflow: " + a + " + " + b + " exceeds 64 bits");
        }
    }

    private static long multiplyCoefficients(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException(
                    "provenance coefficient overflow: " + a + " * " + b + " exceeds 64 bits");
        }
    }

    static boolean isIdentifier(String s) {
        if (s == null || s.isEmpty() || !isIdentifierStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!isIdentifierPart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || (c >= '0' && c <= '9');
    }

    private Object readResolve() {
        if (coefficients.length == 0) {
            return ZERO;
        }
        return equals(ONE) ? ONE : this;
    }

    /** A product of variables with positive exponents, variables sorted by name; UNIT is empty. */
    private static final class Monomial implements Serializable, Comparable<Monomial> {
        private static final long serialVersionUID = 1L;

        static final Monomial UNIT = new Monomial(new String[0], new int[0]);

        final String[] vars;
        final int[] exps;
        final int degree;
        final int hash;

        Monomial(String[] vars, int[] exps) {
            this.vars = vars;
            this.exps = exps;
            long d = 0;
            for (int e : exps) {
                d += e;
            }
            if (d > Integer.MAX_VALUE) {
                throw new PayloadOverflowException("provenance monomial degree " + d + " exceeds 32 bits");
            }
            this.degree = (int) d;
            this.hash = 31 * Arrays.hashCode(vars) + Arrays.hashCode(exps);
        }

        Monomial times(Monomial o) {
            if (vars.length == 0) {
                return o;
            }
            if (o.vars.length == 0) {
                return this;
            }
            String[] vs = new String[vars.length + o.vars.length];
            int[] es = new int[vs.length];
            int i = 0;
            int j = 0;
            int k = 0;
            while (i < vars.length && j < o.vars.length) {
                int c = vars[i].compareTo(o.vars[j]);
                if (c < 0) {
                    vs[k] = vars[i];
                    es[k++] = exps[i++];
                } else if (c > 0) {
                    vs[k] = o.vars[j];
                    es[k++] = o.exps[j++];
                } else {
                    vs[k] = vars[i];
                    es[k++] = addExponents(vars[i], exps[i++], o.exps[j++]);
                }
            }
            while (i < vars.length) {
                vs[k] = vars[i];
                es[k++] = exps[i++];
            }
            while (j < o.vars.length) {
                vs[k] = o.vars[j];
                es[k++] = o.exps[j++];
            }
            return k == vs.length ? new Monomial(vs, es) : new Monomial(Arrays.copyOf(vs, k), Arrays.copyOf(es, k));
        }

        private static int addExponents(String var, int a, int b) {
            try {
                return Math.addExact(a, b);
            } catch (ArithmeticException e) {
                throw new PayloadOverflowException(
                        "provenance exponent overflow: " + var + "^" + a + " * " + var + "^" + b + " exceeds 32 bits");
            }
        }

        /** Graded lexicographic order: higher degree first, then the higher exponent of the first differing variable. */
        @Override
        public int compareTo(Monomial o) {
            if (degree != o.degree) {
                return degree > o.degree ? -1 : 1;
            }
            int i = 0;
            while (i < vars.length && i < o.vars.length) {
                int c = vars[i].compareTo(o.vars[i]);
                if (c != 0) {
                    // The monomial containing the smaller variable has the higher exponent there.
                    return c < 0 ? -1 : 1;
                }
                if (exps[i] != o.exps[i]) {
                    return exps[i] > o.exps[i] ? -1 : 1;
                }
                i++;
            }
            return Integer.compare(o.vars.length, vars.length);
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Monomial)) {
                return false;
            }
            Monomial m = (Monomial) o;
            return hash == m.hash && Arrays.equals(exps, m.exps) && Arrays.equals(vars, m.vars);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A term under construction (parse and times). */
    private static final class Term {
        final Monomial monomial;
        final long coefficient;

        Term(Monomial monomial, long coefficient) {
            this.monomial = monomial;
            this.coefficient = coefficient;
        }
    }

    /** Recursive descent over: polynomial := term ('+' term)*; term := factor ('*' factor)*; factor := number | var ('^' number)?. */
    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        Polynomial parse() {
            List<Term> terms = new ArrayList<>();
            try {
                terms.add(term());
                skipSpace();
                while (pos < text.length() && text.charAt(pos) == '+') {
                    pos++;
                    terms.add(term());
                    skipSpace();
                }
                if (pos < text.length()) {
                    throw error("expected '+', '*' or the end");
                }
                return canonical(terms.toArray(new Term[0]), terms.size());
            } catch (PayloadOverflowException e) {
                throw new PayloadFormatException(
                        "not a provenance polynomial: " + e.getMessage() + " in '" + text + "'");
            }
        }

        private Term term() {
            TreeMap<String, Integer> vars = new TreeMap<>();
            long coefficient = factor(vars);
            skipSpace();
            while (pos < text.length() && text.charAt(pos) == '*') {
                pos++;
                coefficient = multiplyCoefficients(coefficient, factor(vars));
                skipSpace();
            }
            if (vars.isEmpty()) {
                return new Term(Monomial.UNIT, coefficient);
            }
            String[] vs = new String[vars.size()];
            int[] es = new int[vars.size()];
            int i = 0;
            for (Map.Entry<String, Integer> e : vars.entrySet()) {
                vs[i] = e.getKey();
                es[i++] = e.getValue();
            }
            return new Term(new Monomial(vs, es), coefficient);
        }

        /** Parses one factor: a variable is multiplied into {@code vars}, a number is returned (else 1). */
        private long factor(TreeMap<String, Integer> vars) {
            skipSpace();
            if (pos >= text.length()) {
                throw error("expected a variable or a natural number");
            }
            char c = text.charAt(pos);
            if (c >= '0' && c <= '9') {
                return number("a number");
            }
            if (!isIdentifierStart(c)) {
                throw error("expected a variable or a natural number");
            }
            int start = pos;
            while (pos < text.length() && isIdentifierPart(text.charAt(pos))) {
                pos++;
            }
            String var = text.substring(start, pos);
            int exponent = 1;
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == '^') {
                pos++;
                skipSpace();
                if (pos >= text.length() || text.charAt(pos) < '0' || text.charAt(pos) > '9') {
                    throw error("expected an exponent (a natural number)");
                }
                int at = pos;
                long e = number("an exponent");
                if (e > Integer.MAX_VALUE) {
                    throw errorAt(at, "exponent " + e + " exceeds 32 bits");
                }
                exponent = (int) e;
            }
            if (exponent > 0) {
                Integer old = vars.get(var);
                vars.put(var, old == null ? exponent : Monomial.addExponents(var, old, exponent));
            }
            return 1;
        }

        private long number(String what) {
            int start = pos;
            while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                pos++;
            }
            try {
                return Long.parseLong(text.substring(start, pos));
            } catch (NumberFormatException e) {
                throw errorAt(start, what + " exceeds 64 bits");
            }
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private PayloadFormatException error(String expected) {
            return errorAt(pos, expected);
        }

        private PayloadFormatException errorAt(int at, String detail) {
            String where = at >= text.length() ? "at the end (column " + (at + 1) + ")" : "at column " + (at + 1);
            return new PayloadFormatException(
                    "not a provenance polynomial: " + detail + " " + where + " of '" + text + "'");
        }
    }
}
