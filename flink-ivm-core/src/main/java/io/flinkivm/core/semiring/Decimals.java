package io.flinkivm.core.semiring;

/** Text forms of double payloads shared by the numeric semirings. */
final class Decimals {

    private Decimals() {}

    /** Maps -0.0 to 0.0 and leaves every other value unchanged, so equal numbers are equal objects. */
    static double normalise(double x) {
        return x + 0.0;
    }

    /**
     * A round-trip decimal: {@link Double#toString(double)} without a trailing ".0", so that 3.0 is
     * "3" and {@code Double.parseDouble(format(x)) == x} exactly. Infinities are not handled here.
     */
    static String format(double x) {
        String s = Double.toString(normalise(x));
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    /**
     * Whether {@code s} is a plain decimal number: {@code [+-]? (digits [. digits?] | . digits)
     * ([eE] [+-]? digits)?}. Excludes what {@link Double#parseDouble} also accepts (NaN, Infinity,
     * hexadecimal, type suffixes such as "1d").
     */
    static boolean isDecimal(String s) {
        int n = s.length();
        int i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int intDigits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            intDigits++;
        }
        int fracDigits = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                fracDigits++;
            }
        }
        if (intDigits + fracDigits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) {
                return false;
            }
        }
        return i == n;
    }

    /** Parses a plain decimal that must be finite; {@code what} names the expected value in errors. */
    static double parseFinite(String token, String what) {
        if (!isDecimal(token)) {
            throw new PayloadFormatException("not " + what + ": '" + token + "'");
        }
        double x = Double.parseDouble(token);
        if (Double.isInfinite(x)) {
            throw new PayloadFormatException("not " + what + ": '" + token + "' exceeds the double range");
        }
        return normalise(x);
    }

    /** Whether {@code s} (already trimmed) names positive infinity: inf, +inf, infinity, +infinity. */
    static boolean isPositiveInfinity(String s) {
        String t = s.startsWith("+") ? s.substring(1) : s;
        return t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity");
    }

    /** Whether {@code s} (already trimmed) names negative infinity: -inf, -infinity. */
    static boolean isNegativeInfinity(String s) {
        return s.startsWith("-")
                && (s.substring(1).equalsIgnoreCase("inf") || s.substring(1).equalsIgnoreCase("infinity"));
    }

    /** Whether {@code s} (already trimmed) names NaN in any case. */
    static boolean isNaN(String s) {
        String t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        return t.equalsIgnoreCase("nan");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static String requireText(String text, String semiring) {
        if (text == null) {
            throw new PayloadFormatException("no " + semiring + " payload: text is null");
        }
        return text.trim();
    }
}
