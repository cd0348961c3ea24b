package io.flinkivm.flink.sql;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * How one atom's payload comes from a row of its table.
 *
 * @param mode what kind of number the semiring takes
 * @param expression the table's part of the aggregate's argument, null for the semiring's one
 * @param scale exact payloads are integers in units of 10^-scale
 * @param bound {@link Mode#EXACT} payloads must lie within ±bound, so that every sum of them is an
 *     exact double
 */
record Payload(Mode mode, PayloadExpression expression, int scale, long bound) implements Serializable {

    /** The kinds of payload. */
    enum Mode {
        /** The semiring's one (COUNT(*), a table outside the aggregate's argument, DISTINCT). */
        ONE,
        /** A natural number: the exact value times 10^scale, non-negative, 64 bits (SUM). */
        NATURAL,
        /** A double holding an exact integer: the exact value times 10^scale, within ±bound (MIN, MAX). */
        EXACT,
        /** A double computed in doubles (MIN, MAX over DOUBLE or FLOAT columns). */
        APPROXIMATE
    }

    static Payload one() {
        return new Payload(Mode.ONE, null, 0, 0);
    }

    /**
     * The payload of a row whose input values are {@code values}; {@code one} is the semiring's one.
     *
     * @throws RejectedRowException if the value is not a payload of the semiring
     */
    Object value(Object[] values, Object one) throws RejectedRowException {
        switch (mode) {
            case ONE:
                return one;
            case APPROXIMATE: {
                double d = expression.approximate(values);
                if (!Double.isFinite(d)) {
                    throw new RejectedRowException(expression + " = " + d + " is not a finite number");
                }
                return d == 0.0 ? 0.0 : d;
            }
            default:
                break;
        }
        BigDecimal exact = expression.exact(values);
        BigDecimal units = exact.movePointRight(scale);
        if (units.signum() != 0 && units.stripTrailingZeros().scale() > 0) {
            throw new IllegalStateException(expression + " = " + exact + " has more than " + scale + " decimals");
        }
        if (mode == Mode.NATURAL) {
            if (exact.signum() < 0) {
                throw new RejectedRowException(expression + " = " + exact.toPlainString()
                        + " is negative; SUM is maintained over the natural numbers, which need values >= 0");
            }
            if (units.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new RejectedRowException(expression + " = " + exact.toPlainString()
                        + (scale > 0 ? " (" + units.toBigInteger() + " units of 10^-" + scale + ")" : "")
                        + " exceeds 64 bits");
            }
            return units.longValue();
        }
        if (units.abs().compareTo(BigDecimal.valueOf(bound)) > 0) {
            throw new RejectedRowException(expression + " = " + exact.toPlainString() + " is beyond ±" + bound
                    + (scale > 0 ? " units of 10^-" + scale : "")
                    + ", the range in which MIN and MAX of sums stay exact (their payloads are doubles)");
        }
        double d = units.longValue();
        return d == 0.0 ? 0.0 : d;
    }

    /** A short description for {@code explain}, e.g. {@code l.price * (1 - l.disc), exact in units of 10^-4}. */
    String describe(String one) {
        return switch (mode) {
            case ONE -> one;
            case NATURAL -> expression + (scale > 0 ? " in units of 10^-" + scale : "") + ", a natural number";
            case EXACT -> expression + (scale > 0 ? " in units of 10^-" + scale : "") + ", exact within ±" + bound;
            case APPROXIMATE -> expression + ", a double";
        };
    }

    /** Equal for the aliases of one table whose payloads are computed alike. */
    String signature() {
        return mode + (expression == null ? "" : " " + expression.signature()) + " " + scale + " " + bound;
    }
}
