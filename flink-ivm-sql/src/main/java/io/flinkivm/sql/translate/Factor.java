package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.LongComponent;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * What one table's row contributes to one component of a product payload: the component's one, or
 * the value of an expression over the row, in units of 10^-scale for the exact components. The
 * contribution is the component's zero when a condition is not TRUE (a FILTER clause, or another part
 * of the aggregate's argument is NULL) or the value is NULL: SQL's aggregates skip such rows.
 *
 * @param kind the component
 * @param value the row's value, or null for the component's one (then the contribution is an indicator)
 * @param scale exact values count units of 10^-scale
 * @param conditions predicates that must all be TRUE for the row to contribute
 */
record Factor(LongComponent kind, RowExpr value, int scale, List<RowExpr> conditions) implements Serializable {

    Factor {
        conditions = List.copyOf(conditions);
    }

    /** Adds the indexes of the columns the contribution reads (its value's and its conditions') to {@code out}. */
    void columns(Set<Integer> out) {
        if (value != null) {
            RowExprs.columns(value, out);
        }
        for (RowExpr c : conditions) {
            RowExprs.columns(c, out);
        }
    }

    /** Whether the row always contributes the component's one. */
    boolean isOne() {
        return value == null && conditions.isEmpty();
    }

    /**
     * The row's contribution.
     *
     * @throws RejectedRowException if the value does not fit the component (more than 64 bits, or
     *     more decimals than its scale)
     */
    long apply(Object[] row) throws RejectedRowException {
        for (int i = 0; i < conditions.size(); i++) { // per row: no iterator
            if (!conditions.get(i).isTrue(row)) {
                return kind.zero();
            }
        }
        if (value == null) {
            return kind.one();
        }
        Object v = value.eval(row);
        if (v == null) {
            return kind.zero();
        }
        return switch (kind) {
            case MIN_DOUBLE, MAX_DOUBLE -> {
                double d = ((Number) v).doubleValue();
                if (!Double.isFinite(d)) {
                    throw new RejectedRowException(value.text() + " = " + d + " is not a finite number");
                }
                yield LongComponent.bits(d);
            }
            default -> units(v);
        };
    }

    private long units(Object v) throws RejectedRowException {
        if (v instanceof Long l && scale == 0) {
            return checked(l);
        }
        try {
            // Exact, or an ArithmeticException for a fraction left over or more than 64 bits.
            return checked(SqlValues.decimal(v).scaleByPowerOfTen(scale).longValueExact());
        } catch (ArithmeticException e) {
            return unitsOrError(v);
        }
    }

    /** {@link #units} the slow way, which says which of its errors it is. */
    private long unitsOrError(Object v) throws RejectedRowException {
        BigDecimal exact = SqlValues.decimal(v).movePointRight(scale);
        if (exact.signum() != 0 && exact.stripTrailingZeros().scale() > 0) {
            throw new IllegalStateException(value.text() + " = " + v + " has more than " + scale + " decimals");
        }
        try {
            return checked(exact.longValueExact());
        } catch (ArithmeticException e) {
            throw new RejectedRowException(value.text() + " = " + SqlValues.literal(v)
                    + (scale > 0 ? " (" + exact.toBigInteger() + " units of 10^-" + scale + ")" : "")
                    + " exceeds 64 bits");
        }
    }

    /** The infinities of MIN and MAX are not values. */
    private long checked(long units) throws RejectedRowException {
        if (kind == LongComponent.MIN && units == Long.MAX_VALUE
                || kind == LongComponent.MAX && units == Long.MIN_VALUE) {
            throw new RejectedRowException(value.text() + " = " + units + " units is out of range");
        }
        return units;
    }

    /** Equal for two tables' aliases that contribute alike. */
    String signature() {
        StringBuilder sb =
                new StringBuilder(kind.label()).append('/').append(scale).append('/');
        sb.append(value == null ? "1" : value.text());
        for (RowExpr c : conditions) {
            sb.append(" if ").append(c.text());
        }
        return sb.toString();
    }

    /** For explain: {@code l_price * (1 - l_disc) in units of 10^-4}, with its conditions. */
    String describe() {
        StringBuilder sb = new StringBuilder(value == null ? kind.format(kind.one()) : value.text());
        if (value != null && scale > 0 && kind != LongComponent.MIN_DOUBLE && kind != LongComponent.MAX_DOUBLE) {
            sb.append(" in units of 10^-").append(scale);
        }
        if (!conditions.isEmpty()) {
            sb.append(" where ");
            for (int i = 0; i < conditions.size(); i++) {
                sb.append(i == 0 ? "" : " and ").append(conditions.get(i).text());
            }
        }
        return sb.toString();
    }
}
