package io.flinkivm.bench;

import java.util.Locale;

/**
 * A measured number that is exact, or only a bound because a run was stopped at its time cap: the
 * true value is at least ({@link Kind#AT_LEAST}) or at most ({@link Kind#AT_MOST}) {@link #value()}.
 */
record Bounded(double value, Kind kind) {

    enum Kind {
        EXACT,
        AT_LEAST,
        AT_MOST,
        UNKNOWN;

        Kind inverse() {
            return switch (this) {
                case AT_LEAST -> AT_MOST;
                case AT_MOST -> AT_LEAST;
                default -> this;
            };
        }
    }

    static final Bounded UNKNOWN = new Bounded(Double.NaN, Kind.UNKNOWN);

    static Bounded exact(double v) {
        return new Bounded(v, Kind.EXACT);
    }

    static Bounded atLeast(double v) {
        return new Bounded(v, Kind.AT_LEAST);
    }

    boolean isExact() {
        return kind == Kind.EXACT;
    }

    /** 1/x, with the bound turned around. */
    Bounded reciprocal(double scale) {
        return kind == Kind.UNKNOWN ? UNKNOWN : new Bounded(scale / value, kind.inverse());
    }

    /** This ÷ other: exact if both are; a bound where the directions agree; unknown otherwise. */
    Bounded divide(Bounded other) {
        Kind a = kind;
        Kind b = other.kind.inverse();
        Kind k;
        if (a == Kind.UNKNOWN || b == Kind.UNKNOWN) {
            return UNKNOWN;
        } else if (a == Kind.EXACT) {
            k = b;
        } else if (b == Kind.EXACT || b == a) {
            k = a;
        } else {
            return UNKNOWN;
        }
        return new Bounded(value / other.value, k);
    }

    /** The value for a table or CSV cell: {@code 1234.5}, {@code >1234.5}, {@code <1234.5} or {@code n/a}. */
    String format() {
        if (kind == Kind.UNKNOWN) {
            return "n/a";
        }
        String prefix = switch (kind) {
            case AT_LEAST -> ">";
            case AT_MOST -> "<";
            default -> "";
        };
        return prefix + number(value);
    }

    /**
     * A cell as {@link #format()} and results.csv write it: a number, with {@code >} or {@code <} in front
     * for a bound; an empty cell or {@code n/a} is {@link #UNKNOWN}.
     *
     * @throws NumberFormatException if the rest is not a number
     */
    static Bounded parse(String cell) {
        String c = cell.trim();
        if (c.isEmpty() || c.equals("n/a")) {
            return UNKNOWN;
        }
        Kind kind = c.startsWith(">") ? Kind.AT_LEAST : c.startsWith("<") ? Kind.AT_MOST : Kind.EXACT;
        return new Bounded(
                Double.parseDouble(kind == Kind.EXACT ? c : c.substring(1).trim()), kind);
    }

    /** Three significant digits for small numbers, whole numbers from 1000 up. */
    static String number(double v) {
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
