package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An immutable payload (c, s, Q) of the covariance semiring over m features: a count c, the feature
 * sums s (length m) and the sums of pairwise products Q (m×m, row-major). A tuple with features x is
 * annotated with {@link #lift lift(x)} = (1, x, x xᵀ); sums and joins of such payloads carry what is
 * needed for the covariance matrix of the features over the result.
 *
 * <p>Invariants: every component is finite; -0.0 is stored as 0.0, so equal triples are equal objects.
 * A <em>natural</em> triple, a payload of the {@link CovarianceSemiring}, also has c ≥ 0 and is all zeros
 * when c = 0 ({@link #of}); a <em>signed</em> triple, a payload of the {@link CovarianceRing}, may have any
 * count, a count-0 triple that is not zero included ({@link #signed}: lift(x) − lift(y)). Arithmetic is in
 * double precision: exact while values are integers (or dyadic fractions) below 2^53, rounded beyond.
 *
 * <p>Text form: {@code c;s1 s2;q11 q12 q21 q22} (parts separated by ';', numbers by spaces).
 */
@PublicEvolving
public final class CovarianceTriple implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long count;
    private final double[] sums;
    private final double[] products;
    private final int hash;

    /** Takes ownership of the arrays, which must satisfy the invariants and be normalised. */
    private CovarianceTriple(long count, double[] sums, double[] products) {
        this.count = count;
        this.sums = sums;
        this.products = products;
        this.hash = 31 * (31 * Long.hashCode(count) + Arrays.hashCode(sums)) + Arrays.hashCode(products);
    }

    /** (1, x, x xᵀ): the payload of one tuple with feature values {@code x} (at least one, finite). */
    public static CovarianceTriple lift(double... x) {
        int m = x.length;
        if (m == 0) {
            throw new IllegalArgumentException("a covariance triple needs at least one feature");
        }
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalArgumentException("covariance feature " + (i + 1) + " is not finite: " + x[i]);
            }
            s[i] = Decimals.normalise(x[i]);
        }
        double[] q = new double[m * m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                q[i * m + j] = Decimals.normalise(s[i] * s[j]);
            }
        }
        checkFinite(q, "lift of " + Arrays.toString(x));
        return new CovarianceTriple(1, s, q);
    }

    /**
     * The triple (count, sums, products); the arrays are copied.
     *
     * @throws IllegalArgumentException if the sizes do not match or an invariant is violated
     */
    public static CovarianceTriple of(long count, double[] sums, double[] products) {
        CovarianceTriple t = signed(count, sums, products);
        if (count < 0) {
            throw new IllegalArgumentException("a covariance count must be a natural number, got " + count);
        }
        if (!t.isNatural()) {
            throw new IllegalArgumentException(
                    "a covariance triple with count 0 must be all zeros (the semiring's zero); only lifted tuples"
                            + " and their sums and products are payloads");
        }
        return t;
    }

    /**
     * The signed triple (count, sums, products), a payload of the {@link CovarianceRing}: any count; the
     * arrays are copied.
     *
     * @throws IllegalArgumentException if the sizes do not match or a component is not finite
     */
    public static CovarianceTriple signed(long count, double[] sums, double[] products) {
        int m = sums.length;
        if (m == 0) {
            throw new IllegalArgumentException("a covariance triple needs at least one feature");
        }
        if (products.length != m * m) {
            throw new IllegalArgumentException("a covariance triple over " + m + " features needs " + (m * m)
                    + " products (" + m + "×" + m + "), got " + products.length);
        }
        return new CovarianceTriple(count, normalisedCopy(sums, "sum"), normalisedCopy(products, "product"));
    }

    /** (0, 0, 0) over {@code m} features. */
    public static CovarianceTriple zero(int m) {
        return new CovarianceTriple(0, new double[checkDimension(m)], new double[m * m]);
    }

    /** (1, 0, 0) over {@code m} features. */
    public static CovarianceTriple one(int m) {
        return new CovarianceTriple(1, new double[checkDimension(m)], new double[m * m]);
    }

    /** The number of features m. */
    public int dimension() {
        return sums.length;
    }

    public long count() {
        return count;
    }

    /** s_i, 0-based. */
    public double sum(int i) {
        return sums[i];
    }

    /** Q_ij, 0-based. */
    public double product(int i, int j) {
        return products[i * sums.length + j];
    }

    /** A copy of s. */
    public double[] sums() {
        return sums.clone();
    }

    /** A copy of Q, row-major. */
    public double[] products() {
        return products.clone();
    }

    /** Whether this is the zero triple (all components zero; for a natural triple, whether the count is 0). */
    public boolean isZero() {
        return count == 0 && allZero(sums) && allZero(products);
    }

    /** Whether this is a natural triple: a count ≥ 1, or the zero (see the class comment). */
    public boolean isNatural() {
        return count > 0 || isZero();
    }

    /** (−c, −s, −Q). */
    public CovarianceTriple negate() {
        if (count == Long.MIN_VALUE) {
            throw new PayloadOverflowException("covariance count overflow: -(" + count + ") exceeds 64 bits");
        }
        double[] s = new double[sums.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = -sums[i] + 0.0;
        }
        double[] q = new double[products.length];
        for (int k = 0; k < q.length; k++) {
            q[k] = -products[k] + 0.0;
        }
        return new CovarianceTriple(-count, s, q);
    }

    /** Componentwise sum. */
    public CovarianceTriple plus(CovarianceTriple o) {
        int m = sameDimension(o, "add");
        if (o.isZero()) {
            return this;
        }
        if (isZero()) {
            return o;
        }
        long c;
        try {
            c = Math.addExact(count, o.count);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException(
                    "covariance count overflow: " + count + " + " + o.count + " exceeds 64 bits");
        }
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            s[i] = sums[i] + o.sums[i] + 0.0;
        }
        double[] q = new double[m * m];
        for (int k = 0; k < q.length; k++) {
            q[k] = products[k] + o.products[k] + 0.0;
        }
        checkFinite(s, "sum");
        checkFinite(q, "sum");
        return new CovarianceTriple(c, s, q);
    }

    /** (c1c2, c2 s1 + c1 s2, c2 Q1 + c1 Q2 + s1 s2ᵀ + s2 s1ᵀ). */
    public CovarianceTriple times(CovarianceTriple o) {
        int m = sameDimension(o, "multiply");
        if (isZero()) {
            return this;
        }
        if (o.isZero()) {
            return o;
        }
        long c;
        try {
            c = Math.multiplyExact(count, o.count);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException(
                    "covariance count overflow: " + count + " * " + o.count + " exceeds 64 bits");
        }
        double c1 = count;
        double c2 = o.count;
        double[] s1 = sums;
        double[] s2 = o.sums;
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            s[i] = c2 * s1[i] + c1 * s2[i] + 0.0;
        }
        double[] q1 = products;
        double[] q2 = o.products;
        double[] q = new double[m * m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                int k = i * m + j;
                // Grouped so that the result does not depend on the operand order, even when rounding.
                q[k] = (c2 * q1[k] + c1 * q2[k]) + (s1[i] * s2[j] + s2[i] * s1[j]) + 0.0;
            }
        }
        checkFinite(s, "product");
        checkFinite(q, "product");
        return new CovarianceTriple(c, s, q);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CovarianceTriple)) {
            return false;
        }
        CovarianceTriple t = (CovarianceTriple) o;
        return hash == t.hash && count == t.count && Arrays.equals(sums, t.sums) && Arrays.equals(products, t.products);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The text form {@code c;s1 s2;q11 q12 q21 q22}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(count).append(';');
        appendAll(sb, sums);
        sb.append(';');
        appendAll(sb, products);
        return sb.toString();
    }

    /**
     * Parses {@code c;s1 .. sm;q11 .. qmm}, or a bare feature vector {@code x1 .. xm} meaning
     * {@code lift(x)}, over {@code m} features: a natural triple, or with {@code signed} a signed one
     * (the count may have a sign).
     */
    static CovarianceTriple parse(String text, int m, boolean signed) {
        String what = (signed ? "covariance-ring:" : "covariance:") + m;
        String t = Decimals.requireText(text, what);
        List<String> parts = split(t, ';');
        if (parts.size() == 1) {
            double[] x = numbers(parts.get(0), m, "features", text, what);
            return lift(x);
        }
        if (parts.size() != 3) {
            throw new PayloadFormatException("not a " + what + " payload: '" + text + "'; expected 'c;s1 .. s" + m
                    + ";q11 .. q" + m + m + "' or a feature vector 'x1 .. x" + m + "'");
        }
        String c = parts.get(0).trim();
        int first = signed && (c.startsWith("-") || c.startsWith("+")) ? 1 : 0;
        boolean digits = c.length() > first;
        for (int i = first; i < c.length(); i++) {
            digits &= c.charAt(i) >= '0' && c.charAt(i) <= '9';
        }
        long count;
        try {
            count = digits ? Long.parseLong(c) : -1;
        } catch (NumberFormatException e) {
            digits = false;
            count = -1;
        }
        if (!digits || !signed && count < 0) {
            throw new PayloadFormatException("not a " + what + " payload: count '" + c + "' is not "
                    + (signed ? "an integer" : "a natural number") + " in '" + text + "'");
        }
        double[] s = numbers(parts.get(1), m, "sums", text, what);
        double[] q = numbers(parts.get(2), m * m, "products (" + m + "×" + m + ")", text, what);
        try {
            return signed ? signed(count, s, q) : of(count, s, q);
        } catch (IllegalArgumentException e) {
            throw new PayloadFormatException("not a " + what + " payload: '" + text + "': " + e.getMessage());
        }
    }

    private static double[] numbers(String part, int expected, String what, String text, String semiring) {
        List<String> tokens = split(part.trim(), ' ');
        tokens.removeIf(String::isEmpty);
        if (tokens.size() != expected) {
            throw new PayloadFormatException("not a " + semiring + " payload: expected " + expected + " " + what
                    + ", got " + tokens.size() + " in '" + text + "'");
        }
        double[] x = new double[expected];
        for (int i = 0; i < expected; i++) {
            String tok = tokens.get(i);
            if (!Decimals.isDecimal(tok) || Double.isInfinite(Double.parseDouble(tok))) {
                throw new PayloadFormatException(
                        "not a " + semiring + " payload: '" + tok + "' is not a finite number in '" + text + "'");
            }
            x[i] = Decimals.normalise(Double.parseDouble(tok));
        }
        return x;
    }

    /** Splits at {@code sep}; a space separator splits at any whitespace. */
    private static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (sep == ' ' ? Character.isWhitespace(c) : c == sep) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    private int sameDimension(CovarianceTriple o, String op) {
        if (o.sums.length != sums.length) {
            throw new IllegalArgumentException(
                    "cannot " + op + " covariance triples over different numbers of features: " + sums.length + " and "
                            + o.sums.length);
        }
        return sums.length;
    }

    private static int checkDimension(int m) {
        if (m < 1) {
            throw new IllegalArgumentException("a covariance triple needs at least one feature, got m = " + m);
        }
        return m;
    }

    private static double[] normalisedCopy(double[] a, String what) {
        double[] c = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            if (!Double.isFinite(a[i])) {
                throw new IllegalArgumentException("covariance " + what + " " + (i + 1) + " is not finite: " + a[i]);
            }
            c[i] = Decimals.normalise(a[i]);
        }
        return c;
    }

    private static boolean allZero(double[] a) {
        for (double x : a) {
            if (x != 0.0) {
                return false;
            }
        }
        return true;
    }

    private static void checkFinite(double[] a, String op) {
        for (double x : a) {
            if (!Double.isFinite(x)) {
                throw new PayloadOverflowException("covariance " + op + " exceeds the double range");
            }
        }
    }

    private static void appendAll(StringBuilder sb, double[] a) {
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(Decimals.format(a[i]));
        }
    }
}
